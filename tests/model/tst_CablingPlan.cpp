// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The cabling plan: every cable once, never two on one port, the bill's cables exactly, and
// ports named as the switches name them (worked out by hand for two samples below).
#include "model/catalog/Catalog.hpp"
#include "model/cost/CostModel.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/CablingPlan.hpp"

#include <QDir>
#include <QtTest>

#include <map>
#include <set>

using namespace fabriclab::model;

namespace {

Design sample(const QString& name) {
    return loadDesign((QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/") + name).toStdString(),
                      Catalog::builtin());
}

CablingPlan planOf(const Design& design) {
    return cablingPlan(design.topology, design.fabric.spec, Catalog::builtin().prices());
}

} // namespace

class tst_CablingPlan : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyCableOnceOnItsOwnPorts_data();
    void everyCableOnceOnItsOwnPorts();
    void portsAsTheSwitchNamesThem_data();
    void portsAsTheSwitchNamesThem();
    void lengthClasses_data();
    void lengthClasses();
};

void tst_CablingPlan::everyCableOnceOnItsOwnPorts_data() {
    QTest::addColumn<QString>("name");
    const QStringList files = QDir(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples"))
                                  .entryList({QStringLiteral("*.fabric.json")}, QDir::Files);
    for (const QString& file : files)
        QTest::newRow(qPrintable(file)) << file;
}

void tst_CablingPlan::everyCableOnceOnItsOwnPorts() {
    QFETCH(QString, name);
    const Design design = sample(name);
    const CablingPlan plan = planOf(design);
    const CableCounts counts = design.topology.cableCounts();
    QCOMPARE(static_cast<long long>(plan.cables.size()), counts.server + counts.switchToSwitch());
    QVERIFY2(plan.notes.empty(), plan.notes.empty() ? "" : plan.notes.front().c_str());

    std::set<std::pair<std::string, std::string>> used;
    for (const PlannedCable& c : plan.cables)
        for (const CableEnd& end : {c.a, c.b})
            QVERIFY2(used.insert({end.device, end.port}).second,
                     (end.device + " " + end.port + " has two cables").c_str());

    // The plan's cables are the bill's: per part, the quantities the bill counts (cables and
    // AOCs; transceivers are not cables).
    const CostReport cost =
        estimateCost(design.topology, design.fabric.spec, Catalog::builtin().prices());
    std::map<std::string, long long> billed;
    std::map<std::string, long long> planned;
    for (const BomLine& line : cost.bom)
        if (line.partClass == "DAC" || line.partClass == "AOC" || line.partClass == "fibre")
            billed[line.partId] += line.quantity;
    for (const PlannedCable& c : plan.cables)
        ++planned[c.partId];
    QCOMPARE(planned, billed);

    // The same design, the same plan.
    const CablingPlan again = planOf(design);
    QCOMPARE(cablingCsv(again), cablingCsv(plan));
}

void tst_CablingPlan::portsAsTheSwitchNamesThem_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("cable"); ///< 1-based, in plan order
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    // Teaching sample, Ethernet at the switches' own 400G: srv-1's two NICs take leaf-1's
    // ports 1 and 2, srv-2 the next two; leaf-1's uplinks follow on swp5 and swp6, and land
    // on spine-1's first ports.
    QTest::newRow("teaching: server") << "teaching-4-servers.fabric.json" << 3 << "srv-2 nic0"
                                      << "leaf-1 swp3";
    QTest::newRow("teaching: uplink") << "teaching-4-servers.fabric.json" << 10 << "leaf-1 swp6"
                                      << "spine-1 swp2";
    // Spectrum-X: SN5600 leaves are 64 x 800G cabled at 400G, so each cage carries two links,
    // swpNs0 and swpNs1. srv-1's eight NICs go one to each rail leaf, each on its cage 1.
    QTest::newRow("spectrum-x: breakout")
        << "spectrum-x-1024gpu-rail.fabric.json" << 2 << "srv-1 nic1"
        << "leaf-2 swp1s0";
    // InfiniBand numbers its ports as ibnetdiscover lists them: 1, 2, ...
    QTest::newRow("ndr: numbered") << "fat-tree-16k-ib-ndr.fabric.json" << 1 << "srv-1 nic0"
                                   << "leaf-1 1";
}

void tst_CablingPlan::portsAsTheSwitchNamesThem() {
    QFETCH(QString, name);
    QFETCH(int, cable);
    QFETCH(QString, a);
    QFETCH(QString, b);
    const CablingPlan plan = planOf(sample(name));
    QVERIFY(cable >= 1 && cable <= static_cast<int>(plan.cables.size()));
    const PlannedCable& c = plan.cables[static_cast<std::size_t>(cable - 1)];
    QCOMPARE(QString::fromStdString(c.a.device + " " + c.a.port), a);
    QCOMPARE(QString::fromStdString(c.b.device + " " + c.b.port), b);
}

void tst_CablingPlan::lengthClasses_data() {
    QTest::addColumn<double>("meters");
    QTest::addColumn<QString>("words");
    QTest::newRow("rack") << 2.0 << "rack";
    QTest::newRow("rack edge") << 3.0 << "rack";
    QTest::newRow("row") << 10.0 << "row";
    QTest::newRow("hall") << 50.0 << "hall";
    QTest::newRow("building") << 150.0 << "building";
}

void tst_CablingPlan::lengthClasses() {
    QFETCH(double, meters);
    QFETCH(QString, words);
    QCOMPARE(QString::fromStdString(std::string(lengthClassOf(meters))), words);
}

QTEST_APPLESS_MAIN(tst_CablingPlan)
#include "tst_CablingPlan.moc"
