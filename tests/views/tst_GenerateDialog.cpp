// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The Generate dialog starts from the design's generator (or its fabric), previews what
// a request builds, and refuses an impossible request with the generator's reason and
// OK disabled; a valid one enables OK and params() returns it.
#include "model/catalog/Catalog.hpp"
#include "views/dialogs/GenerateDialog.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::GenerateDialog;
using fabriclab::views::TopologyDocument;

namespace {

const char* const kGenerated = FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json";

QPushButton* okButton(const GenerateDialog& dialog) {
    return dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
}

QString figure(const GenerateDialog& dialog, const char* name) {
    return dialog.findChild<QLabel*>(QStringLiteral("preview_") + QLatin1String(name))->text();
}

} // namespace

class tst_GenerateDialog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void prefillsFromTheDesignsGenerator();
    void prefillsFromTheFabricOfAHandDrawnDesign();
    void refusesAnImpossibleRequest();
    void acceptsAValidRequest();
    void saysWhenSpinesFormRailPlanes();
    void railOnlyHasNoSpineToSize();
    void radixFollowsTheNicSpeedUnlessTyped();
    void superPodShowsItsOwnFields();
};

void tst_GenerateDialog::prefillsFromTheDesignsGenerator() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated));
    GenerateDialog dialog(document);
    QCOMPARE(dialog.request(), *document.design().generator);
    // The sample: 1,024 GPUs on 16 rail leaves (radix 128) under 8 spines, 1,024 server
    // cables and 16 x 64 = 1,024 leaf-spine cables.
    QTRY_VERIFY(okButton(dialog)->isEnabled());
    QCOMPARE(figure(dialog, "gpus"), QStringLiteral("1,024"));
    QCOMPARE(figure(dialog, "leaves"), QStringLiteral("16"));
    QCOMPARE(figure(dialog, "spines"), QStringLiteral("8"));
    QCOMPARE(figure(dialog, "serverCables"), QStringLiteral("1,024"));
    QCOMPARE(figure(dialog, "leafSpineCables"), QStringLiteral("1,024"));
}

void tst_GenerateDialog::radixFollowsTheNicSpeedUnlessTyped() {
    // The Spectrum-X sample's SN5600s run 128 x 400G or 64 x 800G (prices.json): raising the
    // NIC speed to 800G halves the leaf and core radixes the form still shows from the
    // switch, and keeps a spine radix the user typed.
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated));
    GenerateDialog dialog(document);
    QCOMPARE(dialog.request().leafRadix, 128);
    auto* spine = dialog.findChild<QSpinBox*>(QStringLiteral("spineRadix"));
    spine->setValue(96);
    dialog.findChild<QDoubleSpinBox*>(QStringLiteral("nicGbps"))->setValue(800);
    QCOMPARE(dialog.request().leafRadix, 64);
    QCOMPARE(dialog.request().coreRadix, 64);
    QCOMPARE(dialog.request().spineRadix, 96);
    if (const QString folder = qEnvironmentVariable("FABRICLAB_SCREENSHOTS"); !folder.isEmpty()) {
        QTRY_VERIFY(okButton(dialog)->isEnabled()); // the preview of the 800G request is in
        QVERIFY(dialog.grab().save(QDir(folder).filePath(QStringLiteral("generate-800g.png"))));
    }
    // And back: at 400G the switch offers 128 again.
    dialog.findChild<QDoubleSpinBox*>(QStringLiteral("nicGbps"))->setValue(400);
    QCOMPARE(dialog.request().leafRadix, 128);
    QCOMPARE(dialog.request().spineRadix, 96);
}

void tst_GenerateDialog::prefillsFromTheFabricOfAHandDrawnDesign() {
    TopologyDocument document(Catalog::builtin()); // a new design on InfiniBand NDR
    GenerateDialog dialog(document);
    const auto& fabric = document.design().fabric.spec;
    QCOMPARE(dialog.request().nicSpeed.value, fabric.portSpeed.value);
    QCOMPARE(dialog.request().leafRadix, fabric.switchRadix);
    QCOMPARE(dialog.request().spineRadix, fabric.switchRadix);
}

void tst_GenerateDialog::refusesAnImpossibleRequest() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated));
    GenerateDialog dialog(document);
    // 2,048 servers, top-of-rack, on radix-128 leaves at 1:1: 64 downlinks hold 8 servers
    // of 8 NICs, so 256 leaves, each of which a two-tier spine must reach with a port, and a
    // spine has 128 (rail-optimized, rail planes would keep it two-tier).
    auto* refusal = dialog.findChild<QLabel*>(QStringLiteral("refusalLabel"));
    QTRY_VERIFY(okButton(dialog)->isEnabled()); // the sample itself is fine
    dialog.findChild<QCheckBox*>(QStringLiteral("railOptimized"))->setChecked(false);
    dialog.findChild<QSpinBox*>(QStringLiteral("servers"))->setValue(2048);
    // The preview is debounced and computed off the GUI thread, hence the wait.
    QTRY_VERIFY(!refusal->isHidden());
    QVERIFY(!okButton(dialog)->isEnabled());
    QVERIFY2(refusal->text().contains(QStringLiteral("radix is 128")), qPrintable(refusal->text()));
    QCOMPARE(figure(dialog, "spines"), QStringLiteral("—"));
    QVERIFY(!dialog.params());
    dialog.accept(); // OK pressed anyway (Enter): the dialog stays open
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
}

void tst_GenerateDialog::acceptsAValidRequest() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated));
    GenerateDialog dialog(document);
    auto* refusal = dialog.findChild<QLabel*>(QStringLiteral("refusalLabel"));
    dialog.findChild<QCheckBox*>(QStringLiteral("railOptimized"))->setChecked(false);
    dialog.findChild<QSpinBox*>(QStringLiteral("servers"))->setValue(2048);
    QTRY_VERIFY(!refusal->isHidden());
    // The same 2,048 servers as a fat tree: pods of leaves a spine can reach.
    auto* kind = dialog.findChild<QComboBox*>(QStringLiteral("kind"));
    kind->setCurrentIndex(kind->findData(QStringLiteral("fat-tree")));
    QTRY_VERIFY(refusal->isHidden());
    QVERIFY(okButton(dialog)->isEnabled());
    QCOMPARE(figure(dialog, "gpus"), QStringLiteral("16,384"));
    QVERIFY(figure(dialog, "cores") != QStringLiteral("0"));
    const auto params = dialog.params();
    QVERIFY(params);
    QCOMPARE(params->kind, std::string("fat-tree"));
    QCOMPARE(params->servers, 2048);
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
}

void tst_GenerateDialog::saysWhenSpinesFormRailPlanes() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated));
    GenerateDialog dialog(document);
    auto* planes = dialog.findChild<QLabel*>(QStringLiteral("planesNote"));
    QTRY_VERIFY(okButton(dialog)->isEnabled());
    QVERIFY(planes->isHidden()); // the sample's 16 leaves all reach its 128-port spines
    // 2,048 servers x 8 rails on radix-128 switches at 1:1: 32 units, 256 rail leaves, more
    // than a spine reaches; two planes of 4 rails (128 leaves each) fit.
    dialog.findChild<QSpinBox*>(QStringLiteral("servers"))->setValue(2048);
    QTRY_VERIFY(!planes->isHidden());
    QVERIFY2(planes->text().contains(QStringLiteral("2 rail planes")), qPrintable(planes->text()));
    QVERIFY(okButton(dialog)->isEnabled());
    QCOMPARE(figure(dialog, "leaves"), QStringLiteral("256"));
    // FABRICLAB_SCREENSHOTS=DIR keeps a PNG of the dialog for review.
    if (const QString folder = qEnvironmentVariable("FABRICLAB_SCREENSHOTS"); !folder.isEmpty())
        QVERIFY(dialog.grab().save(QDir(folder).filePath(QStringLiteral("generate-planes.png"))));
}

void tst_GenerateDialog::superPodShowsItsOwnFields() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(FABRICLAB_SOURCE_DIR
                                    "/samples/gb200-superpod-2su-ib-ndr.fabric.json"));
    GenerateDialog dialog(document);
    dialog.show();
    QCOMPARE(dialog.request(), *document.design().generator);
    const auto labelOf = [&](const char* field) {
        auto* form = dialog.findChild<QWidget*>(QLatin1String(field))->parentWidget();
        QLabel* label = nullptr;
        for (auto* candidate : form->findChildren<QLabel*>())
            if (candidate->buddy() == dialog.findChild<QWidget*>(QLatin1String(field)))
                label = candidate;
        return label ? label->text() : QString();
    };
    // The sample's 16 NVL72 racks: 64 rail leaves, 48 spines, 18 cores (tst_SuperPodGenerator).
    QTRY_VERIFY(okButton(dialog)->isEnabled());
    QCOMPARE(figure(dialog, "gpus"), QStringLiteral("1,152"));
    QCOMPARE(figure(dialog, "leaves"), QStringLiteral("64"));
    QCOMPARE(figure(dialog, "spines"), QStringLiteral("48"));
    QCOMPARE(labelOf("servers"), QStringLiteral("Racks"));
    QVERIFY(dialog.findChild<QWidget*>(QStringLiteral("gpusPerTray"))->isVisible());
    // Another kind hides the rack-scale fields and calls servers servers again.
    auto* kind = dialog.findChild<QComboBox*>(QStringLiteral("kind"));
    kind->setCurrentIndex(kind->findData(QStringLiteral("fat-tree")));
    QVERIFY(!dialog.findChild<QWidget*>(QStringLiteral("gpusPerTray"))->isVisible());
    QCOMPARE(labelOf("servers"), QStringLiteral("Servers"));
    QVERIFY(!dialog.request().extra.contains("gpusPerTray"));
}

void tst_GenerateDialog::railOnlyHasNoSpineToSize() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kGenerated));
    GenerateDialog dialog(document);
    QTRY_VERIFY(okButton(dialog)->isEnabled());
    auto* kind = dialog.findChild<QComboBox*>(QStringLiteral("kind"));
    auto* rail = dialog.findChild<QCheckBox*>(QStringLiteral("railOptimized"));
    rail->setChecked(false);
    kind->setCurrentIndex(kind->findData(QStringLiteral("rail-only")));
    // Nothing above the rail switches to size, and rails cannot be switched off.
    for (const char* field : {"spineRadix", "coreRadix", "oversubscription",
                              "spineOversubscription", "serversPerPod", "railOptimized"})
        QVERIFY2(!dialog.findChild<QWidget*>(QLatin1String(field))->isEnabled(), field);
    QVERIFY(rail->isChecked());
    // Back to two tiers, the user's own choice (top-of-rack) returns with the field.
    kind->setCurrentIndex(kind->findData(QStringLiteral("leaf-spine")));
    QVERIFY(rail->isEnabled());
    QVERIFY(!rail->isChecked());
    QVERIFY(dialog.findChild<QWidget*>(QStringLiteral("spineRadix"))->isEnabled());
    kind->setCurrentIndex(kind->findData(QStringLiteral("rail-only")));
    QVERIFY(rail->isChecked());
    // The sample's 128 servers of 8 x 400G on 128-port rail switches (SN5600 at 400G): one
    // switch per rail, each its own plane.
    auto* planes = dialog.findChild<QLabel*>(QStringLiteral("planesNote"));
    QTRY_COMPARE(figure(dialog, "leaves"), QStringLiteral("8"));
    QCOMPARE(figure(dialog, "spines"), QStringLiteral("0"));
    QCOMPARE(figure(dialog, "leafSpineCables"), QStringLiteral("0"));
    QVERIFY2(planes->text().contains(QStringLiteral("8 rail switches")),
             qPrintable(planes->text()));
    QVERIFY(!planes->isHidden());
    // One server more than a rail switch has ports: refused, naming the servers.
    dialog.findChild<QSpinBox*>(QStringLiteral("servers"))->setValue(129);
    auto* refusal = dialog.findChild<QLabel*>(QStringLiteral("refusalLabel"));
    QTRY_VERIFY(!refusal->isHidden());
    QVERIFY2(refusal->text().contains(QStringLiteral("129 servers")), qPrintable(refusal->text()));
    QVERIFY(!okButton(dialog)->isEnabled());
    dialog.findChild<QSpinBox*>(QStringLiteral("servers"))->setValue(128);
    QTRY_VERIFY(okButton(dialog)->isEnabled());
    QCOMPARE(dialog.params()->kind, std::string("rail-only"));
    if (const QString folder = qEnvironmentVariable("FABRICLAB_SCREENSHOTS"); !folder.isEmpty())
        QVERIFY(
            dialog.grab().save(QDir(folder).filePath(QStringLiteral("generate-rail-only.png"))));
}

QTEST_MAIN(tst_GenerateDialog)
#include "tst_GenerateDialog.moc"
