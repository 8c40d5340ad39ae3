// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Theoretical bisection: the max-flow between the worst natural halving of the servers,
// against what the smaller half injects. For a tree the closed form is
//   ratio = (uplink capacity leaving one half) / (NIC capacity of that half),
// i.e. 1 / oversubscription at the tier the cut runs through.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/analysis/Bisection.hpp"
#include "model/fabric/Generators.hpp"
#include "model/topology/Topology.hpp"
#include "support/GeneratorRequests.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#endif

using namespace fabriclab::model;
using namespace fabriclab::testing;

namespace {

// Capacities are summed as whole Mb/s inside the max-flow, so minCut and halfInjection
// come back exact; the only rounding left is the final division for the ratio and the
// Mb/s -> Gb/s conversion, hence a relative tolerance of 1e-9.
constexpr double kRelTol = 1e-9;

bool fuzzyEqual(double actual, double expected) {
    return std::abs(actual - expected) <= kRelTol * std::max(1.0, std::abs(expected));
}

#define COMPARE_REL(actual, expected)                                                              \
    QVERIFY2(fuzzyEqual((actual), (expected)), qPrintable(QStringLiteral("%1 = %2, expected %3")   \
                                                              .arg(QLatin1String(#actual))         \
                                                              .arg(actual, 0, 'g', 12)             \
                                                              .arg(expected, 0, 'g', 12)))

/// The core radix follows the leaf radix, so a row need not state it (only fat-tree rows
/// have a core tier).
GeneratorParams request(const char* kind, int servers, int nics, bool rail, int leafRadix,
                        int spineRadix, double oversubscription, double spineOversubscription) {
    return generatorRequest(kind, servers, nics, rail, leafRadix, spineRadix, leafRadix,
                            oversubscription, spineOversubscription);
}

NodeId addServer(Topology& t, const std::string& name, int nics) {
    Node n;
    n.name = name;
    n.kind = NodeKind::Server;
    n.server.nics = nics;
    n.server.nicSpeed = Gbps(400);
    return t.addNode(n);
}

NodeId addSwitch(Topology& t, const std::string& name, NodeKind kind) {
    Node n;
    n.name = name;
    n.kind = kind;
    n.sw = SwitchProps{64, Gbps(400)};
    return t.addNode(n);
}

void cable(Topology& t, NodeId a, NodeId b, int count) {
    t.addLink(Link{a, b, Gbps(400), count, LinkMedium::Dac, 2});
}

} // namespace

class tst_Bisection : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void generated_data();
    void generated();
    void handBuiltQuarter();
    void fewerThanTwoServers_data();
    void fewerThanTwoServers();
    void strayServerLeftOut_data();
    void strayServerLeftOut();
};

void tst_Bisection::generated_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<double>("ratio");
    QTest::addColumn<double>("minCutGbps");
    QTest::addColumn<double>("halfInjectionGbps");

    // Half = 64 servers x 8 x 400G = 204,800 Gb/s. 2 of 4 rail units = 16 leaves x 32 up
    // x 400G = 204,800 Gb/s -> 1.0.
    QTest::addRow("leaf-spine 128 srv x 8 NIC, radix 64, 1:1")
        << request("leaf-spine", 128, 8, true, 64, 64, 1.0, 1.0) << 1.0 << 204800.0 << 204800.0;
    // Same halves; 16 leaves x 16 up x 400G = 102,400 Gb/s -> 0.5.
    QTest::addRow("leaf-spine 128 srv x 8 NIC, radix 64, 2:1")
        << request("leaf-spine", 128, 8, true, 64, 64, 2.0, 1.0) << 0.5 << 102400.0 << 204800.0;
    // d = 48: 2 units of 48 servers; half = unit 0 = 48 x 8 x 400G = 153,600 Gb/s;
    // its 8 leaves x 16 up x 400G = 51,200 Gb/s -> 16 / 48 = 1/3.
    QTest::addRow("leaf-spine 96 srv x 8 NIC, radix 64, 3:1")
        << request("leaf-spine", 96, 8, true, 64, 64, 3.0, 1.0) << 1.0 / 3.0 << 51200.0 << 153600.0;
    // One switch: half = 4 x 8 x 400G = 12,800 Gb/s, and the switch carries all of it.
    QTest::addRow("single leaf 8 srv x 8 NIC, radix 64")
        << request("leaf-spine", 8, 8, true, 64, 64, 1.0, 1.0) << 1.0 << 12800.0 << 12800.0;
    // Article 004 shape: 2 leaves of 16 servers x 2 x 400G = 12,800 Gb/s each, 8 x 400G up
    // = 3,200 Gb/s ("3.2 Tbps bisection") -> 0.25.
    QTest::addRow("article 004 shape: 32 srv x 2 NIC ToR, radix 40, 4:1")
        << request("leaf-spine", 32, 2, false, 40, 64, 4.0, 1.0) << 0.25 << 3200.0 << 12800.0;
    // 8 pods of 32 servers; half = 4 pods = 128 x 8 x 400G = 409,600 Gb/s; their
    // 64 spines x 16 up x 400G = 409,600 Gb/s -> 1.0.
    QTest::addRow("fat-tree 256 srv x 8 NIC, radix 32, 1:1/1:1")
        << request("fat-tree", 256, 8, true, 32, 32, 1.0, 1.0) << 1.0 << 409600.0 << 409600.0;
    // Spine radix 24 at 2:1: 16 down, 8 up; pods as above; 64 spines x 8 up x 400G =
    // 204,800 Gb/s -> 0.5.
    QTest::addRow("fat-tree 256 srv x 8 NIC, leaf 32, spine 24 at 2:1")
        << request("fat-tree", 256, 8, true, 32, 24, 1.0, 2.0) << 0.5 << 204800.0 << 409600.0;
}

void tst_Bisection::generated() {
    QFETCH(GeneratorParams, params);
    QFETCH(double, ratio);
    QFETCH(double, minCutGbps);
    QFETCH(double, halfInjectionGbps);

    const Topology topology =
        generateOrFail(params.kind == "fat-tree" ? generateFatTree : generateLeafSpine, params);
    if (QTest::currentTestFailed())
        return;
    const BisectionResult result = theoreticalBisection(topology);

    COMPARE_REL(result.ratio, ratio);
    COMPARE_REL(result.minCut.value, minCutGbps);
    COMPARE_REL(result.halfInjection.value, halfInjectionGbps);
    // Trees are symmetric: both directions of the worst split carry the same.
    COMPARE_REL(result.forward.value, minCutGbps);
    COMPARE_REL(result.backward.value, minCutGbps);
    QVERIFY(!result.split.empty());
}

void tst_Bisection::handBuiltQuarter() {
    // srv-1, srv-2 on leaf-1; srv-3, srv-4 on leaf-2; each server 2 x 400G to its leaf;
    // each leaf one 400G uplink to the single spine. Half = 2 servers x 800G = 1,600 Gb/s;
    // the cut is the one 400G uplink -> 400 / 1,600 = 0.25.
    Topology t;
    const NodeId leaf1 = addSwitch(t, "leaf-1", NodeKind::Leaf);
    const NodeId leaf2 = addSwitch(t, "leaf-2", NodeKind::Leaf);
    const NodeId spine = addSwitch(t, "spine-1", NodeKind::Spine);
    cable(t, addServer(t, "srv-1", 2), leaf1, 2);
    cable(t, addServer(t, "srv-2", 2), leaf1, 2);
    cable(t, addServer(t, "srv-3", 2), leaf2, 2);
    cable(t, addServer(t, "srv-4", 2), leaf2, 2);
    cable(t, leaf1, spine, 1);
    cable(t, leaf2, spine, 1);
    QVERIFY(t.problems().empty());

    const BisectionResult result = theoreticalBisection(t);
    COMPARE_REL(result.ratio, 0.25);
    COMPARE_REL(result.minCut.value, 400.0);
    COMPARE_REL(result.forward.value, 400.0);
    COMPARE_REL(result.backward.value, 400.0);
    COMPARE_REL(result.halfInjection.value, 1600.0);
}

void tst_Bisection::fewerThanTwoServers_data() {
    QTest::addColumn<int>("servers");
    QTest::addRow("empty topology") << 0;
    QTest::addRow("one server on one leaf") << 1;
}

void tst_Bisection::fewerThanTwoServers() {
    QFETCH(int, servers);
    // No halving exists: everything stays zero (Bisection.hpp).
    Topology t;
    if (servers > 0) {
        const NodeId leaf = addSwitch(t, "leaf-1", NodeKind::Leaf);
        cable(t, addServer(t, "srv-1", 8), leaf, 8);
    }
    const BisectionResult result = theoreticalBisection(t);
    QCOMPARE(result.ratio, 0.0);
    QCOMPARE(result.minCut.value, 0.0);
    QCOMPARE(result.halfInjection.value, 0.0);
}

void tst_Bisection::strayServerLeftOut_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<bool>("onOwnLeaf"); ///< cabled to a leaf of its own, else not at all
    QTest::addColumn<QString>("warning");

    const auto rows = [](const char* name, const GeneratorParams& params) {
        QTest::addRow("%s, uncabled", name)
            << params << false
            << "server srv-stray is not connected to any switch; left out of the bisection";
        QTest::addRow("%s, on an island leaf", name)
            << params << true
            << QStringLiteral("server srv-stray cannot reach the %1 servers of the main fabric; "
                              "left out of the bisection")
                   .arg(params.servers);
    };
    rows("leaf-spine 128 srv x 8 NIC, radix 64, 2:1",
         request("leaf-spine", 128, 8, true, 64, 64, 2.0, 1.0));
    rows("article 004 shape: 32 srv x 2 NIC ToR, radix 40, 4:1",
         request("leaf-spine", 32, 2, false, 40, 64, 4.0, 1.0));
    rows("fat-tree 256 srv x 8 NIC, radix 32, 1:1/1:1",
         request("fat-tree", 256, 8, true, 32, 32, 1.0, 1.0));
}

void tst_Bisection::strayServerLeftOut() {
    QFETCH(GeneratorParams, params);
    QFETCH(bool, onOwnLeaf);
    QFETCH(QString, warning);

    // A server placed and not (or not usefully) cabled used to drag the whole design's
    // bisection to 0; the fabric's figures must be those of the fabric without it.
    const Topology fabric =
        generateOrFail(params.kind == "fat-tree" ? generateFatTree : generateLeafSpine, params);
    if (QTest::currentTestFailed())
        return;
    Topology withStray = fabric;
    const NodeId stray = addServer(withStray, "srv-stray", 8);
    if (onOwnLeaf)
        cable(withStray, stray, addSwitch(withStray, "leaf-stray", NodeKind::Leaf), 8);

    const BisectionResult expected = theoreticalBisection(fabric);
    const BisectionResult result = theoreticalBisection(withStray);
    QVERIFY(expected.warnings.empty());
    QVERIFY(expected.minCut.value > 0);
    COMPARE_REL(result.minCut.value, expected.minCut.value);
    COMPARE_REL(result.halfInjection.value, expected.halfInjection.value);
    COMPARE_REL(result.ratio, expected.ratio);
    QCOMPARE(result.split, expected.split);
    QCOMPARE(result.firstHalf, expected.firstHalf);
    QCOMPARE(result.secondHalf, expected.secondHalf);
    QCOMPARE(result.warnings, std::vector<std::string>{warning.toStdString()});
}

QTEST_APPLESS_MAIN(tst_Bisection)
#include "tst_Bisection.moc"
