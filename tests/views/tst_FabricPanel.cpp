// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The fabric panel regenerates a generated design as ONE undo step per gesture (a slider
// drag, a burst of arrow keys, a fabric pick), and undo restores the original exactly
// (compared as saved JSON). A refusal changes nothing; a hand-drawn design only swaps
// its fabric and cannot change its oversubscription.
#include "model/analysis/Oversubscription.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/panels/FabricPanel.hpp"
#include "views/sim/DesignFacts.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSlider>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::FabricPanel;
using fabriclab::views::TopologyDocument;

namespace {

const char* const kGenerated = FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json";
const char* const kHandDrawn = FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json";
const char* const kGenerated2to1 = FABRICLAB_SOURCE_DIR "/samples/roce-v2-moe-2to1.fabric.json";
const char* const kRailOnly = FABRICLAB_SOURCE_DIR "/samples/rail-only-512gpu-ib-ndr.fabric.json";

std::string snapshot(const TopologyDocument& document) {
    return fabriclab::model::serializeDesign(document.design());
}

/// Waits as a user would for what the panel does off the GUI thread: the regenerations
/// asked for applied (or refused) and the design's facts (its worst leaf) worked out.
bool settled(TopologyDocument& document) {
    if (!QTest::qWaitFor([&] { return document.pendingBuilds() == 0; }))
        return false;
    fabriclab::views::DesignFacts::of(document).awaitCurrent();
    return true;
}

/// Slider position of a ratio: 1:1 to 8:1 in steps of 0.5.
int position(double ratio) {
    return static_cast<int>(ratio / FabricPanel::kRatioStep);
}

} // namespace

class tst_FabricPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void iconsAreRegistered();
    void dragRegeneratesAsOneStep_data();
    void dragRegeneratesAsOneStep();
    void arrowKeysCommitOnceAfterAPause();
    void fabricPickRegeneratesAsOneStep();
    void refusedFabricChangesNothing();
    void handDrawnDesignOnlySwapsTheFabric();
    void sliderShowsEachOpenedDesign_data();
    void sliderShowsEachOpenedDesign();
    void handDrawnRatioFollowsItsCabling();
    void sharpIsAnUndoableOptIn();
    void ratioShownIsTheOneBuilt();
};

void tst_FabricPanel::iconsAreRegistered() {
    // The icons reach every executable linking fabriclab_views, with no Q_INIT_RESOURCE.
    for (const char* name :
         {"select", "server", "leaf", "spine", "core", "link", "generate", "fit", "fabriclab"})
        QVERIFY2(QFile::exists(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name))), name);
}

void tst_FabricPanel::dragRegeneratesAsOneStep_data() {
    QTest::addColumn<double>("ratio");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("spines");
    // 128 servers x 8 NICs, rail-optimized, radix 128 (SN5600 at 400G); starts at 1:1 with
    // 8 spines (16 leaves x 64 uplinks = 1,024 spine ports / 128 = 8).
    // 2:1: a leaf keeps floor(128 x 2/3) = 85 downlinks, so 2 units of 64 servers: still
    // 16 leaves, each with ceil(64 / 2) = 32 uplinks: 512 spine ports / 128 = 4 spines.
    QTest::newRow("1:1 -> 2:1: 4 spines") << 2.0 << 16 << 4;
    // 4:1: floor(128 x 4/5) = 102 downlinks, still 2 units of 64: 16 leaves with
    // ceil(64 / 4) = 16 uplinks; 256 ports / 128 = 2 spines (the fewest allowed).
    QTest::newRow("1:1 -> 4:1: 2 spines") << 4.0 << 16 << 2;
}

void tst_FabricPanel::dragRegeneratesAsOneStep() {
    QFETCH(double, ratio);
    QFETCH(int, leaves);
    QFETCH(int, spines);
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated));
    const std::string before = snapshot(document);
    const std::string name = document.design().name;
    FabricPanel panel(document);
    auto* slider = panel.findChild<QSlider*>(QStringLiteral("oversubscriptionSlider"));
    auto* preview = panel.findChild<QLabel*>(QStringLiteral("previewLabel"));
    QVERIFY(slider && preview);
    QVERIFY(slider->isEnabled());
    QCOMPARE(slider->value(), position(1.0));

    // A drag passes through every position on the way: previews only, no undo steps.
    slider->setSliderDown(true);
    for (int p = position(1.0) + 1; p <= position(ratio); ++p)
        slider->setValue(p);
    QCOMPARE(document.undoStack()->count(), 0);
    // The preview sets the candidate's counts beside the current ones, changed ones in bold.
    // It is computed off the GUI thread, hence the wait.
    QTRY_VERIFY2(preview->text().contains(QStringLiteral("<b>%1</b>").arg(spines)),
                 qPrintable(preview->text()));
    QCOMPARE(document.undoStack()->count(), 0);
    slider->setSliderDown(false); // the release
    QVERIFY(settled(document));

    QCOMPARE(document.undoStack()->count(), 1);
    QCOMPARE(document.design().generator->oversubscription, ratio);
    QCOMPARE(document.topology().switchCounts().leaf, leaves);
    QCOMPARE(document.topology().switchCounts().spine, spines);
    QCOMPARE(document.design().name, name); // kept through the regeneration
    QVERIFY(document.design().workload.has_value());
    QVERIFY(document.design().collective.has_value());

    document.undoStack()->undo();
    QCOMPARE(snapshot(document), before);
    QCOMPARE(slider->value(), position(1.0)); // the panel follows the undo
}

void tst_FabricPanel::arrowKeysCommitOnceAfterAPause() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated));
    const std::string before = snapshot(document);
    FabricPanel panel(document);
    auto* slider = panel.findChild<QSlider*>(QStringLiteral("oversubscriptionSlider"));
    QTest::keyClick(slider, Qt::Key_Right); // 1.5:1
    QTest::keyClick(slider, Qt::Key_Right); // 2:1
    QCOMPARE(document.undoStack()->count(), 0);
    QTRY_COMPARE(document.undoStack()->count(), 1);
    QCOMPARE(document.design().generator->oversubscription, 2.0);
    QCOMPARE(document.topology().switchCounts().spine, 4); // as derived above
    QTest::qWait(700); // longer than the pause: no second step follows
    QCOMPARE(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    QCOMPARE(snapshot(document), before);
}

void tst_FabricPanel::fabricPickRegeneratesAsOneStep() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated));
    const std::string before = snapshot(document);
    FabricPanel panel(document);
    auto* picker = panel.findChild<QComboBox*>(QStringLiteral("fabricPicker"));
    QCOMPARE(picker->currentData().toString(), QStringLiteral("spectrum-x"));
    QCOMPARE(picker->count(), static_cast<int>(Catalog::builtin().fabrics().size()));

    // XDR: 800G NICs and radix-144 switches. At 1:1 a leaf has 72 downlinks: 2 units of
    // 64 servers, 16 leaves with 64 uplinks; 1,024 spine ports over 144-port spines need
    // at least 8, and 64 uplinks spread evenly over 8: 8 spines.
    const int xdr = picker->findData(QStringLiteral("ib-xdr"));
    picker->setCurrentIndex(xdr);
    Q_EMIT picker->activated(xdr);
    QVERIFY(settled(document));
    QCOMPARE(document.undoStack()->count(), 1);
    QVERIFY(document.undoStack()->text(0).startsWith(QStringLiteral("Change fabric to")));
    QCOMPARE(document.design().fabric.spec.id, std::string("ib-xdr"));
    QCOMPARE(document.design().generator->nicSpeed.value, 800.0);
    QCOMPARE(document.design().generator->spineRadix, 144);
    QCOMPARE(document.topology().switchCounts().leaf, 16);
    QCOMPARE(document.topology().switchCounts().spine, 8);

    document.undoStack()->undo();
    QCOMPARE(snapshot(document), before);
    QCOMPARE(picker->currentData().toString(), QStringLiteral("spectrum-x"));
}

void tst_FabricPanel::sharpIsAnUndoableOptIn() {
    // SHARP is off unless asked for (NCCL_COLLNET_ENABLE), can only be asked for where the
    // switches reduce, and turning it on is one undo step.
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated)); // spectrum-x: no switch reduction
    FabricPanel panel(document);
    auto* sharp = panel.findChild<QCheckBox*>(QStringLiteral("sharpToggle"));
    QVERIFY(sharp);
    QVERIFY(!sharp->isChecked());
    QVERIFY(!sharp->isEnabled());

    auto* picker = panel.findChild<QComboBox*>(QStringLiteral("fabricPicker"));
    const int ndr = picker->findData(QStringLiteral("ib-ndr"));
    picker->setCurrentIndex(ndr);
    Q_EMIT picker->activated(ndr);
    QVERIFY(settled(document));
    QVERIFY(sharp->isEnabled());
    QVERIFY(!document.design().sharp);

    sharp->click();
    QVERIFY(settled(document));
    QVERIFY(document.design().sharp);
    QCOMPARE(document.undoStack()->count(), 2);
    QCOMPARE(document.undoStack()->text(1), QStringLiteral("Turn SHARP on"));
    document.undoStack()->undo();
    QVERIFY(!document.design().sharp);
    QVERIFY(!sharp->isChecked());
}

void tst_FabricPanel::refusedFabricChangesNothing() {
    // The 1,024-GPU sample grown to 1,024 servers: 16 units of 64 under 128-port spines.
    QFile sample(QString::fromUtf8(kGenerated));
    QVERIFY(sample.open(QIODevice::ReadOnly));
    QByteArray json = sample.readAll();
    QVERIFY(json.contains("\"servers\": 128,"));
    json.replace("\"servers\": 128,", "\"servers\": 1024,");
    QTemporaryDir folder;
    QFile grown(folder.filePath(QStringLiteral("grown.fabric.json")));
    QVERIFY(grown.open(QIODevice::WriteOnly));
    grown.write(json);
    grown.close();
    TopologyDocument document(Catalog::builtin());
    document.load(grown.fileName());
    const std::string before = snapshot(document);
    FabricPanel panel(document);
    auto* picker = panel.findChild<QComboBox*>(QStringLiteral("fabricPicker"));
    auto* refusal = panel.findChild<QLabel*>(QStringLiteral("refusalLabel"));

    // HDR: radix 40. At 1:1 a leaf has 20 downlinks: 52 units of 8 rail leaves, and a spine
    // would need 52 leaf ports even with a plane of spines per rail, more than its 40.
    const int hdr = picker->findData(QStringLiteral("ib-hdr"));
    picker->setCurrentIndex(hdr);
    Q_EMIT picker->activated(hdr);
    QVERIFY(settled(document));
    QCOMPARE(document.undoStack()->count(), 0);
    QCOMPARE(snapshot(document), before);
    QVERIFY(!refusal->isHidden());
    QVERIFY2(refusal->text().contains(QStringLiteral("radix is 40")), qPrintable(refusal->text()));
    QCOMPARE(picker->currentData().toString(), QStringLiteral("spectrum-x"));
}

void tst_FabricPanel::handDrawnDesignOnlySwapsTheFabric() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kHandDrawn));
    QVERIFY(!document.design().generator);
    const std::string before = snapshot(document);
    const auto nodes = document.topology().nodes().size();
    FabricPanel panel(document);
    auto* slider = panel.findChild<QSlider*>(QStringLiteral("oversubscriptionSlider"));
    auto* picker = panel.findChild<QComboBox*>(QStringLiteral("fabricPicker"));
    QVERIFY(settled(document));
    QVERIFY(!slider->isEnabled());
    QVERIFY(slider->toolTip().contains(QStringLiteral("by hand")));

    const int ndr = picker->findData(QStringLiteral("ib-ndr"));
    picker->setCurrentIndex(ndr);
    Q_EMIT picker->activated(ndr);
    QVERIFY(settled(document));
    QCOMPARE(document.undoStack()->count(), 1);
    QCOMPARE(document.design().fabric.spec.id, std::string("ib-ndr"));
    QCOMPARE(document.topology().nodes().size(), nodes);
    QVERIFY(!document.design().generator);
    document.undoStack()->undo();
    QCOMPARE(snapshot(document), before);
}

void tst_FabricPanel::sliderShowsEachOpenedDesign_data() {
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("second"); ///< empty: File > New
    QTest::addColumn<double>("ratio");   ///< where the slider must stand
    QTest::addColumn<bool>("enabled");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("why"); ///< words the tooltip must hold

    // The teaching sample is drawn by hand: each leaf 4 x 400G down, 2 x 400G up -> 2:1.
    // Before, the slider kept the 1:1 of the design opened before it.
    QTest::newRow("generated 1:1, then hand-drawn 2:1")
        << kGenerated << kHandDrawn << 2.0 << false << "2:1"
        << "2:1 is the worst leaf";
    QTest::newRow("hand-drawn 2:1, then generated 1:1")
        << kHandDrawn << kGenerated << 1.0 << true << "1:1"
        << "Release to rebuild";
    QTest::newRow("generated 1:1, then generated 2:1")
        << kGenerated << kGenerated2to1 << 2.0 << true << "2:1"
        << "Release to rebuild";
    // An empty design has no leaf to measure: the slider rests at its start, the label
    // says there is nothing, instead of the 2:1 left from the file before.
    QTest::newRow("generated 2:1, then a new empty design")
        << kGenerated2to1 << QString() << 1.0 << false << "—"
        << "No leaf with uplinks";
    // A rail-only fabric is generated but has no spine tier: nothing to rebuild at a ratio,
    // and the tooltip says so instead of calling it hand-drawn.
    QTest::newRow("generated 2:1, then rail-only")
        << kGenerated2to1 << kRailOnly << 1.0 << false << "—"
        << "rail-only fabric has no uplinks";
}

void tst_FabricPanel::sliderShowsEachOpenedDesign() {
    QFETCH(QString, first);
    QFETCH(QString, second);
    QFETCH(double, ratio);
    QFETCH(bool, enabled);
    QFETCH(QString, label);
    QFETCH(QString, why);
    TopologyDocument document(Catalog::builtin());
    document.load(first);
    FabricPanel panel(document);
    auto* slider = panel.findChild<QSlider*>(QStringLiteral("oversubscriptionSlider"));
    auto* ratioLabel = panel.findChild<QLabel*>(QStringLiteral("ratioLabel"));
    QVERIFY(slider && ratioLabel);
    if (second.isEmpty())
        document.newDesign();
    else
        document.load(second);
    QVERIFY(settled(document));

    QCOMPARE(slider->value(), position(ratio));
    QCOMPARE(slider->isEnabled(), enabled);
    QCOMPARE(ratioLabel->text(), label);
    QVERIFY2(slider->toolTip().contains(why), qPrintable(slider->toolTip()));
    QCOMPARE(ratioLabel->toolTip(), slider->toolTip());
    // Showing the design is not an edit of it.
    QCOMPARE(document.undoStack()->count(), 0);
}

void tst_FabricPanel::handDrawnRatioFollowsItsCabling() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kHandDrawn));
    FabricPanel panel(document);
    auto* slider = panel.findChild<QSlider*>(QStringLiteral("oversubscriptionSlider"));
    auto* ratioLabel = panel.findChild<QLabel*>(QStringLiteral("ratioLabel"));
    QVERIFY(settled(document));
    QCOMPARE(ratioLabel->text(), QStringLiteral("2:1"));

    // Two more 400G uplinks per leaf: 1,600 down : 1,600 up -> 1:1.
    const auto& topology = document.topology();
    const auto spine = *topology.findNode("spine-1");
    for (const char* leaf : {"leaf-1", "leaf-2"})
        for (int cable = 0; cable < 2; ++cable)
            QVERIFY(document.connect(*topology.findNode(leaf), spine));
    QVERIFY(settled(document));
    QCOMPARE(ratioLabel->text(), QStringLiteral("1:1"));
    QCOMPARE(slider->value(), position(1.0));
    QVERIFY(!slider->isEnabled());

    // Undo puts the cabling back, and the ratio with it.
    while (document.undoStack()->canUndo())
        document.undoStack()->undo();
    QVERIFY(settled(document));
    QCOMPARE(ratioLabel->text(), QStringLiteral("2:1"));
    QCOMPARE(slider->value(), position(2.0));
}

void tst_FabricPanel::ratioShownIsTheOneBuilt() {
    // 32 rail-optimized servers at 3:1 on radix-64 switches: 32 server cables per leaf need
    // 11 uplinks at 3:1, and 11 (a prime) would take 11 spines of one cable each, so every
    // leaf gets 12 over 2 spines: 2.67:1 built. The panel shows what is built, and why.
    fabriclab::model::GeneratorParams p;
    p.servers = 32;
    p.oversubscription = 3;
    fabriclab::model::Design design;
    design.name = "3:1 asked";
    design.fabric.spec = *Catalog::builtin().findFabric("ib-ndr");
    design.generator = p;
    design.topology = fabriclab::model::generateLeafSpine(p);
    const auto built = fabriclab::model::leafOversubscription(design.topology);
    QVERIFY(built);
    QCOMPARE(*built, 32.0 / 12.0);
    TopologyDocument document(Catalog::builtin());
    document.adopt(std::move(design), QString());
    FabricPanel panel(document);
    auto* ratio = panel.findChild<QLabel*>(QStringLiteral("ratioLabel"));
    auto* slider = panel.findChild<QSlider*>(QStringLiteral("oversubscriptionSlider"));
    QVERIFY(ratio && slider);
    QVERIFY(settled(document));
    QCOMPARE(ratio->text(), QStringLiteral("2.67:1"));
    QCOMPARE(slider->value(), position(3.0)); // the slider stays where it was asked
    // Why, in words on the panel and in the tooltip: the ratio asked, the leaf, its cables.
    const QString why = ratio->toolTip();
    for (const char* part : {"3:1", "2.67:1", "leaf-", "32", "12", "whole cables"})
        QVERIFY2(why.contains(QLatin1String(part)), qPrintable(why));
    QString shown;
    for (const QLabel* label : panel.findChildren<QLabel*>())
        if (label->isVisibleTo(&panel) && label->text().contains(QStringLiteral("whole cables")))
            shown = label->text();
    QVERIFY2(shown.contains(QStringLiteral("3:1")), qPrintable(shown));

    // A ratio built as asked says nothing more.
    TopologyDocument exact(Catalog::builtin());
    exact.load(QString::fromUtf8(kGenerated2to1));
    FabricPanel other(exact);
    QVERIFY(settled(exact));
    QCOMPARE(other.findChild<QLabel*>(QStringLiteral("ratioLabel"))->text(), QStringLiteral("2:1"));
    for (const QLabel* label : other.findChildren<QLabel*>())
        QVERIFY(!(label->isVisibleTo(&other) && label->text().contains("whole cables")));
}

QTEST_MAIN(tst_FabricPanel)
#include "tst_FabricPanel.moc"
