// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The Sites panel as an architect uses it: open the two-site sample and read its WAN back,
// go down to one site and undo, turn a one-site design into three sites, and find the panel
// off, with the reason, for a design that has no workload to train.
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/panels/SitesPanel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSpinBox>
#include <QUndoStack>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::SitesPanel;
using fabriclab::views::TopologyDocument;

namespace {

template <class Field> Field* field(SitesPanel& panel, const char* name) {
    return panel.findChild<Field*>(QString::fromLatin1(name));
}

fabriclab::model::Design sample(const char* name) {
    const std::string path = std::string(FABRICLAB_SOURCE_DIR "/samples/") + name + ".fabric.json";
    return fabriclab::model::loadDesign(path, Catalog::builtin());
}

/// An edit becomes an undo step once the user pauses, and the design is built off the GUI
/// thread: waits for both.
void settle(TopologyDocument& document) {
    QTRY_COMPARE_WITH_TIMEOUT(document.pendingBuilds(), 0, 5000);
    QTest::qWait(500);
    QTRY_COMPARE_WITH_TIMEOUT(document.pendingBuilds(), 0, 5000);
}

} // namespace

class tst_SitesPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void showsTheDesignsSites();
    void oneSiteAndBackIsOneUndoStep();
    void addsSitesToAOneSiteDesign();
    void offWithoutAWorkload();
};

void tst_SitesPanel::showsTheDesignsSites() {
    TopologyDocument document(Catalog::builtin());
    document.adopt(sample("two-sites-diloco-2x1024gpu-ib-ndr"), QString());
    SitesPanel panel(document);
    QCOMPARE(field<QSpinBox>(panel, "siteCount")->value(), 2);
    QCOMPARE(field<QDoubleSpinBox>(panel, "wanGbps")->value(), 100.0);
    QCOMPARE(field<QSpinBox>(panel, "wanLinks")->value(), 2);
    QCOMPARE(field<QDoubleSpinBox>(panel, "wanLatency")->value(), 10.0);
    QCOMPARE(field<QDoubleSpinBox>(panel, "wanLease")->value(), 15000.0);
    QCOMPARE(field<QSpinBox>(panel, "innerSteps")->value(), 500);
    QCOMPARE(field<QComboBox>(panel, "payloadBits")->currentData().toInt(), 16);
    // What the fields say is what the design holds: nothing is lost on the way through.
    QVERIFY(panel.sitesShown() == document.design().sites);
}

void tst_SitesPanel::oneSiteAndBackIsOneUndoStep() {
    TopologyDocument document(Catalog::builtin());
    document.adopt(sample("two-sites-diloco-2x1024gpu-ib-ndr"), QString());
    const auto before = document.design().sites;
    SitesPanel panel(document);
    field<QSpinBox>(panel, "siteCount")->setValue(1);
    QVERIFY(!field<QSpinBox>(panel, "wanLinks")->isEnabled()); // one site: no WAN to edit
    settle(document);
    QVERIFY(!document.design().sites.has_value());
    QCOMPARE(document.undoStack()->count(), 1);
    document.undoStack()->undo();
    QVERIFY(document.design().sites == before);
    QCOMPARE(field<QSpinBox>(panel, "siteCount")->value(), 2);
}

void tst_SitesPanel::addsSitesToAOneSiteDesign() {
    TopologyDocument document(Catalog::builtin());
    document.adopt(sample("spectrum-x-1024gpu-rail"), QString());
    SitesPanel panel(document);
    QCOMPARE(field<QSpinBox>(panel, "siteCount")->value(), 1);
    field<QSpinBox>(panel, "siteCount")->setValue(3);
    field<QDoubleSpinBox>(panel, "wanGbps")->setValue(400);
    field<QSpinBox>(panel, "innerSteps")->setValue(10);
    // tau stays under H: at most 9 steps behind.
    QCOMPARE(field<QSpinBox>(panel, "overlapSteps")->maximum(), 9);
    field<QComboBox>(panel, "payloadBits")->setCurrentIndex(1); // 8 bits
    settle(document);
    QVERIFY(document.design().sites.has_value());
    const auto& sites = *document.design().sites;
    QCOMPARE(sites.count, 3);
    QCOMPARE(sites.wan.gbps, 400.0);
    QCOMPARE(sites.outer.innerSteps, 10);
    QCOMPARE(sites.outer.payloadBits, 8);
    QVERIFY(!sites.wan.usdPerLinkMonth.has_value()); // left "not priced"
    // A lease of $0 is a price, kept apart from none.
    field<QDoubleSpinBox>(panel, "wanLease")->setValue(0);
    settle(document);
    QCOMPARE(document.design().sites->wan.usdPerLinkMonth.value_or(-1), 0.0);
    // The edits settled into one step each pause, and the design saves and reopens with them.
    QCOMPARE(document.undoStack()->count(), 2);
    const auto reread = fabriclab::model::parseDesign(
        fabriclab::model::serializeDesign(document.design()), "saved", Catalog::builtin());
    QVERIFY(reread.sites == document.design().sites);
}

void tst_SitesPanel::offWithoutAWorkload() {
    TopologyDocument document(Catalog::builtin());
    fabriclab::model::Design design;
    design.fabric.spec = *Catalog::builtin().findFabric("ib-ndr");
    fabriclab::model::GeneratorParams p;
    p.servers = 4;
    design.generator = p;
    design.topology = fabriclab::model::generateLeafSpine(p);
    document.adopt(std::move(design), QString());
    SitesPanel panel(document);
    QVERIFY(!field<QSpinBox>(panel, "siteCount")->isEnabled());
    QVERIFY(field<QLabel>(panel, "sitesNote")->text().contains(QStringLiteral("none")));
}

QTEST_MAIN(tst_SitesPanel)
#include "tst_SitesPanel.moc"
