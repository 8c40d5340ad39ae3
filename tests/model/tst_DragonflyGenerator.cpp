// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Dragonfly+ generator (model/fabric/DragonflyGenerator.cpp): groups of leaves and spines
// (the leaf tier as for leaf-spine), each spine keeping floor(R / 2) ports for its group and
// spending the rest on global links, spine i of every group to spine i of every other with
// floor(global ports / (groups - 1)) cables. Counts worked out by hand below.
#include <QStringList>
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/analysis/Bisection.hpp"
#include "model/fabric/Generators.hpp"
#include "model/topology/Topology.hpp"
#include "support/GeneratorRequests.hpp"
#include "support/TopologyCounts.hpp"
#endif

using namespace fabriclab::model;
using namespace fabriclab::testing;

namespace {

GeneratorParams request(int servers, int radix, std::optional<int> groups = std::nullopt) {
    GeneratorParams p = generatorRequest("dragonfly", servers, 8, true, radix, radix, radix, 1, 1);
    if (groups)
        p.extra["groups"] = *groups;
    return p;
}

} // namespace

class tst_DragonflyGenerator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void counts_data();
    void counts();
    void globalLinksJoinEveryPairOfGroups();
    void refusals_data();
    void refusals();
    void cliqueCounts_data();
    void cliqueCounts();
};

void tst_DragonflyGenerator::cliqueCounts_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<int>("groups");
    QTest::addColumn<int>("routers");
    QTest::addColumn<int>("localCables");
    QTest::addColumn<int>("globalCables");
    const auto clique = [](int servers, int radix, std::optional<int> groups = std::nullopt) {
        GeneratorParams p = request(servers, radix, groups);
        p.kind = "dragonfly-clique";
        return p;
    };
    // Radix 64: 16 ports to servers (2 of 8 NICs each), cliques of up to 32 routers. 512
    // servers fill 256 routers: 8 groups of 32, 32 x 31 / 2 = 496 local cables each. A router
    // keeps 64 - 16 - 31 = 17 global ports; a group's 32 x 17 = 544 over 7 other groups: 77
    // cables a pair, 28 pairs x 77 = 2,156.
    QTest::addRow("4,096 GPUs, radix 64") << clique(512, 64) << 8 << 256 << 8 * 496 << 2156;
    // The same in 16 groups of 16 routers: 16 x 15 / 2 = 120 local cables a group; 64 - 16 -
    // 15 = 33 global ports, 16 x 33 = 528 over 15 groups: 35 a pair, 120 pairs x 35 = 4,200.
    QTest::addRow("4,096 GPUs in 16 groups")
        << clique(512, 64, 16) << 16 << 256 << 16 * 120 << 4200;
}

void tst_DragonflyGenerator::cliqueCounts() {
    QFETCH(GeneratorParams, params);
    QFETCH(int, groups);
    QFETCH(int, routers);
    QFETCH(int, localCables);
    QFETCH(int, globalCables);
    const Topology topology = generateOrFail(generateDragonflyClique, params);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(topology.serverCount(), params.servers);
    QCOMPARE(census(topology).pods, groups);
    QCOMPARE(topology.switchCounts().leaf, routers);
    QCOMPARE(topology.switchCounts().spine, 0);
    int local = 0;
    int global = 0;
    for (const auto& [id, link] : topology.links()) {
        if (linkTier(topology, link) != LinkTier::Other)
            continue;
        const bool sameGroup =
            topology.node(link.a).placement.pod == topology.node(link.b).placement.pod;
        (sameGroup ? local : global) += link.count;
    }
    QCOMPARE(local, localCables);
    QCOMPARE(global, globalCables);
    // No router uses more ports than its radix (global cables dealt out in turn).
    const auto problems = topology.problems();
    QVERIFY2(problems.empty(), qPrintable(joined(problems)));
}

void tst_DragonflyGenerator::counts_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<int>("groups");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("spines");
    QTest::addColumn<int>("globalCables");

    // 4,096 GPUs on radix 64: rail units of 32 servers x 8 leaves (d = 32), 16 units; a
    // spine keeps 32 ports for its group, so 4 units (32 leaves) per group -> 4 groups. Each
    // leaf's 32 uplinks over 32 spines, one cable each; a spine has 64 - 32 = 32 global
    // ports, 32 / 3 = 10 cables to each of the 3 other groups' spine i: 6 pairs x 32 spines
    // x 10 = 1,920 global cables.
    QTest::addRow("4,096 GPUs, radix 64") << request(512, 64) << 4 << 128 << 128 << 1920;
    // The same servers in 8 groups of 2 units (16 leaves): 16 leaves x 32 uplinks over
    // spines keeping 32 ports: 16 spines of 2 cables each; 64 - 32 = 32 global ports, 32 /
    // 7 = 4 cables to each other group: 28 pairs x 16 spines x 4 = 1,792.
    QTest::addRow("4,096 GPUs in 8 groups") << request(512, 64, 8) << 8 << 128 << 128 << 1792;
    // 16,384 GPUs on radix 64: 64 units, 16 groups; 15 other groups share 32 global ports:
    // 2 cables each; 120 pairs x 32 spines x 2 = 7,680.
    QTest::addRow("16,384 GPUs, radix 64") << request(2048, 64) << 16 << 512 << 512 << 7680;
    // One group: a plain leaf-spine with idle global ports.
    QTest::addRow("one group") << request(64, 64) << 1 << 16 << 16 << 0;
}

void tst_DragonflyGenerator::counts() {
    QFETCH(GeneratorParams, params);
    QFETCH(int, groups);
    QFETCH(int, leaves);
    QFETCH(int, spines);
    QFETCH(int, globalCables);

    const Topology topology = generateOrFail(generateDragonfly, params);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(topology.serverCount(), params.servers);
    const Census c = census(topology);
    QCOMPARE(c.pods, groups);
    QCOMPARE(c.leaves, leaves);
    QCOMPARE(c.spines, spines);
    QCOMPARE(c.cores, 0);
    QCOMPARE(static_cast<int>(topology.cableCounts().other), globalCables);
    const auto problems = topology.problems();
    QVERIFY2(problems.empty(), qPrintable(joined(problems)));
}

void tst_DragonflyGenerator::globalLinksJoinEveryPairOfGroups() {
    // 4 groups: each spine i has a bundle of 10 to spine i of each of the 3 other groups,
    // in long optics. The worst halving (2 groups against 2) crosses 4 of the 6 group pairs:
    // 4 x 32 x 10 x 400 Gb/s = 512,000 Gb/s of the 819,200 half the NICs inject: 0.625.
    const Topology topology = generateDragonfly(request(512, 64));
    for (const auto& [id, link] : topology.links()) {
        if (linkTier(topology, link) != LinkTier::Other)
            continue;
        const Node& a = topology.node(link.a);
        const Node& b = topology.node(link.b);
        QVERIFY(a.kind == NodeKind::Spine && b.kind == NodeKind::Spine);
        QVERIFY(a.placement.pod != b.placement.pod);
        QCOMPARE(link.count, 10);
        QVERIFY(link.medium == LinkMedium::Optics);
        QVERIFY(link.lengthMeters > 100);
    }
    const BisectionResult bisection = theoreticalBisection(topology);
    QCOMPARE(bisection.minCut.value, 512000.0);
}

void tst_DragonflyGenerator::refusals_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QStringList>("mentions");

    // 64 groups would need 63 global ports on every spine; a radix-64 spine has 32.
    QTest::addRow("more groups than global ports")
        << request(2048, 64, 64) << QStringLiteral("groups")
        << QStringList{QStringLiteral("need 63 global ports"), QStringLiteral("has 32")};
    // 16 units in 2 groups: 8 units of 8 leaves = 64 leaves, a spine keeps 32 ports.
    QTest::addRow("too few groups")
        << request(512, 64, 2) << QStringLiteral("groups")
        << QStringList{QStringLiteral("2 groups of 64 leaves"), QStringLiteral("32 ports")};
    QTest::addRow("zero servers") << request(0, 64) << QStringLiteral("servers")
                                  << QStringList{QStringLiteral("got 0")};
}

void tst_DragonflyGenerator::refusals() {
    QFETCH(GeneratorParams, params);
    QFETCH(QString, field);
    QFETCH(QStringList, mentions);

    verifyRefusal(generateDragonfly, params, field, mentions);
}

QTEST_APPLESS_MAIN(tst_DragonflyGenerator)
#include "tst_DragonflyGenerator.moc"
