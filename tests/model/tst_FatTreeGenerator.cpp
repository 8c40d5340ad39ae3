// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Three-tier generator: pods of leaves and spines under core planes. Sizing rules
// (model/fabric/FatTreeGenerator.cpp, on top of the leaf tier of LeafTier.cpp):
//   d  = floor(leafRadix * o / (1 + o)), units and uplinks u per leaf as for leaf-spine
//   sd = floor(spineRadix * so / (1 + so))   spine downlinks at spine ratio so:1
//   units per pod = serversPerPod / unit size, or floor(sd / leaves per unit)
//   spines per pod = smallest divisor of u >= max(2, ceil(Lpod * u / sd)), Lpod * (u / s) <= sd
//   su = ceil(Lpod * (u / s) / so)           spine uplinks
//   cores per plane = same divisor rule over pods, su and coreRadix; one plane per spine
//   index; a request that fits one pod gets no core tier.
#include <QStringList>
#include <QTest>

#include <map>
#include <set>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/fabric/Generators.hpp"
#include "model/topology/Topology.hpp"
#include "support/GeneratorRequests.hpp"
#include "support/TopologyCounts.hpp"
#endif

using namespace fabriclab::model;
using namespace fabriclab::testing;

namespace {

GeneratorParams request(int servers, int nics, bool rail, int leafRadix, int spineRadix,
                        int coreRadix, double oversubscription, double spineOversubscription) {
    return generatorRequest("fat-tree", servers, nics, rail, leafRadix, spineRadix, coreRadix,
                            oversubscription, spineOversubscription);
}

GeneratorParams withPodSize(GeneratorParams p, int serversPerPod) {
    p.serversPerPod = serversPerPod;
    return p;
}

GeneratorParams withPlanes(GeneratorParams p, int planes) {
    p.planes = planes;
    return p;
}

} // namespace

class tst_FatTreeGenerator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void counts_data();
    void counts();
    void singlePodHasNoCore();
    void planesNeverMeet();
    void refusals_data();
    void refusals();
};

void tst_FatTreeGenerator::counts_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<int>("pods");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("spines");
    QTest::addColumn<int>("cores");
    QTest::addColumn<int>("serverCables");
    QTest::addColumn<int>("leafSpineCables");
    QTest::addColumn<int>("spineCoreCables");
    QTest::addColumn<int>("spineCoreParallel"); // Link::count of every spine-core link

    // 16K GPUs. d = 32: 64 rail units of 32 servers x 8 leaves, u = 32.
    // sd = 32 -> 32 / 8 = 4 units (128 servers, 32 leaves) per pod -> 16 pods.
    // Spines per pod: s >= max(2, 32 x 32 / 32 = 32) -> 32, one cable to each leaf.
    // su = 32 x 1 = 32. Cores per plane: c >= max(2, 16 x 32 / 64 = 8), 8 | 32,
    // 16 x 4 = 64 <= 64 -> 8; 32 planes x 8 = 256 cores, 4 cables per spine-core pair.
    // Leaves 16 x 32 = 512, spines 16 x 32 = 512. Cables per tier:
    // 2,048 x 8 = 16,384 server; 512 x 32 = 16,384 leaf-spine; 512 x 32 = 16,384 spine-core.
    QTest::addRow("2048 srv x 8 NIC 400G, radix 64, 1:1/1:1, rail (16K GPUs)")
        << request(2048, 8, true, 64, 64, 64, 1.0, 1.0) << 16 << 512 << 512 << 256 << 16384 << 16384
        << 16384 << 4;
    // Spine 2:1 on radix 64: sd = floor(64 x 2/3) = 42 -> 42 / 8 = 5 units per pod (40 leaves)
    // -> ceil(64 / 5) = 13 pods, the last with 4 units (12 x 160 + 128 = 2,048 servers).
    // Spines per pod: s >= max(2, ceil(40 x 32 / 42) = 31); 31 does not divide 32 -> 32.
    // su = ceil(40 / 2) = 20. Cores per plane: c >= max(2, ceil(13 x 20 / 64) = 5), 5 | 20,
    // 13 x 4 = 52 <= 64 -> 5; 32 x 5 = 160 cores. Leaves 12 x 40 + 32 = 512,
    // spines 13 x 32 = 416. Cables: 16,384; 512 x 32 = 16,384; 416 x 20 = 8,320.
    QTest::addRow("2048 srv x 8 NIC, radix 64, leaf 1:1, spine 2:1")
        << request(2048, 8, true, 64, 64, 64, 1.0, 2.0) << 13 << 512 << 416 << 160 << 16384 << 16384
        << 8320 << 4;
    // Spine 2:1 on radix 48: sd = 32, so pods stay as in the 1:1 row (16 pods of 32 leaves,
    // 32 spines each); su = 32 / 2 = 16. Cores per plane: c >= max(2, 16 x 16 / 64 = 4),
    // 4 | 16, 16 x 4 = 64 <= 64 -> 4; 32 x 4 = 128 cores. Spine-core: 512 x 16 = 8,192.
    QTest::addRow("2048 srv x 8 NIC, spine radix 48 at 2:1, leaf/core radix 64")
        << request(2048, 8, true, 64, 48, 64, 1.0, 2.0) << 16 << 512 << 512 << 128 << 16384 << 16384
        << 8192 << 4;
    // d = 16: 16 units of 16 servers x 8 leaves = 128 leaves, u = 16. sd = 16 -> 2 units
    // (16 leaves) per pod -> 8 pods. s >= max(2, 16 x 16 / 16 = 16) -> 16 spines per pod,
    // 128 in all; su = 16. c >= max(2, 8 x 16 / 32 = 4), 4 | 16, 8 x 4 = 32 <= 32 -> 4 per
    // plane, 16 x 4 = 64 cores. Cables: 2,048; 128 x 16 = 2,048; 128 x 16 = 2,048.
    QTest::addRow("256 srv x 8 NIC, radix 32, 1:1/1:1, rail (8 pods)")
        << request(256, 8, true, 32, 32, 32, 1.0, 1.0) << 8 << 128 << 128 << 64 << 2048 << 2048
        << 2048 << 4;
    // serversPerPod 64 = 2 units of 32 (16 leaves) -> 4 pods. s >= max(2, 16 x 32 / 32 = 16),
    // 16 | 32, 16 x 2 = 32 <= 32 -> 16 spines per pod, 64 in all; su = 32.
    // c >= max(2, 4 x 32 / 64 = 2), 2 | 32, 4 x 16 = 64 <= 64 -> 2 per plane, 16 x 2 = 32 cores.
    // Cables: 256 x 8 = 2,048; 64 leaves x 32 = 2,048; 64 spines x 32 = 2,048.
    QTest::addRow("256 srv x 8 NIC, radix 64, serversPerPod 64")
        << withPodSize(request(256, 8, true, 64, 64, 64, 1.0, 1.0), 64) << 4 << 64 << 64 << 32
        << 2048 << 2048 << 2048 << 16;
    // ToR: d = 32 -> 16 servers per leaf, 64 leaves, u = 32. sd = 32 -> 32 leaves per pod
    // -> 2 pods. s >= max(2, 32 x 32 / 32 = 32) -> 32 spines per pod, 64 in all; su = 32.
    // c >= max(2, 2 x 32 / 64 = 1) = 2, 2 | 32, 2 x 16 = 32 <= 64 -> 2 per plane, 64 cores.
    // Cables: 1,024 x 2 = 2,048 (links of 2); 64 x 32 = 2,048; 64 x 32 = 2,048.
    QTest::addRow("1024 srv x 2 NIC, ToR, radix 64, 1:1/1:1 (2 pods)")
        << request(1024, 2, false, 64, 64, 64, 1.0, 1.0) << 2 << 64 << 64 << 64 << 2048 << 2048
        << 2048 << 16;
    // Planes: each plane is a fat-tree of its own rails. 8,192 srv x 8 NIC, radix 64, a
    // plane per rail: d = 32 -> 256 units of 32 servers, one leaf of each plane per unit;
    // sd = 32 -> 32 units per pod -> 8 pods; 32 leaves of a plane per pod, u = 32 -> 32 spines
    // of the plane per pod; su = 32; c >= 8 x 32 / 64 = 4 per spine index -> 128 cores a
    // plane. Totals 2,048 leaves, 8 x 8 x 32 = 2,048 spines, 1,024 cores: a non-blocking
    // Clos has the same counts whole or in planes (65,536 NIC ports = k^3 / 4 at k = 64).
    QTest::addRow("8192 srv x 8 NIC, rail, radix 64, 8 planes (65,536 GPUs)")
        << withPlanes(request(8192, 8, true, 64, 64, 64, 1.0, 1.0), 8) << 8 << 2048 << 2048 << 1024
        << 65536 << 65536 << 65536 << 8;
    // 2 planes of 4 rails: 4 leaves of a plane per unit -> 8 units per pod -> 4 pods; 32 leaves
    // of a plane per pod -> 32 spines; c >= 4 x 32 / 64 = 2 per index, 16 cables each.
    QTest::addRow("1024 srv x 8 NIC, rail, radix 64, 2 planes")
        << withPlanes(request(1024, 8, true, 64, 64, 64, 1.0, 1.0), 2) << 4 << 256 << 256 << 128
        << 8192 << 8192 << 8192 << 16;
}

void tst_FatTreeGenerator::counts() {
    QFETCH(GeneratorParams, params);
    QFETCH(int, pods);
    QFETCH(int, leaves);
    QFETCH(int, spines);
    QFETCH(int, cores);
    QFETCH(int, serverCables);
    QFETCH(int, leafSpineCables);
    QFETCH(int, spineCoreCables);
    QFETCH(int, spineCoreParallel);

    const Topology topology = generateOrFail(generateFatTree, params);
    if (QTest::currentTestFailed())
        return;

    QCOMPARE(topology.serverCount(), params.servers);
    const TierCounts tiers = topology.switchCounts();
    QCOMPARE(tiers.leaf, leaves);
    QCOMPARE(tiers.spine, spines);
    QCOMPARE(tiers.core, cores);

    const Census c = census(topology);
    QCOMPARE(c.pods, pods);

    for (const auto& [id, link] : topology.links()) {
        switch (linkTier(topology, link)) {
        case LinkTier::Server:
            break;
        case LinkTier::LeafSpine:
            // Leaves and spines of one pod only.
            QCOMPARE(topology.node(link.a).placement.pod, topology.node(link.b).placement.pod);
            break;
        case LinkTier::SpineCore:
            QCOMPARE(link.count, spineCoreParallel);
            break;
        case LinkTier::Other:
            QFAIL(qPrintable(QStringLiteral("unexpected link between %1 and %2")
                                 .arg(QString::fromStdString(topology.node(link.a).name),
                                      QString::fromStdString(topology.node(link.b).name))));
        }
    }
    QCOMPARE(c.serverCables, serverCables);
    QCOMPARE(c.leafSpineCables, leafSpineCables);
    QCOMPARE(c.spineCoreCables, spineCoreCables);

    const auto problems = topology.problems();
    QVERIFY2(problems.empty(), qPrintable(joined(problems)));
}

void tst_FatTreeGenerator::singlePodHasNoCore() {
    // 128 srv x 8 NIC, radix 64: d = 32, 4 units of 32; sd = 32 -> 4 units per pod -> 1 pod.
    // Spines: s >= max(2, 32 x 32 / 32 = 32) -> 32 spines, one cable to each of 32 leaves
    // (a fat-tree spine keeps half its ports for the core it would grow into).
    const Topology topology = generateFatTree(request(128, 8, true, 64, 64, 64, 1.0, 1.0));
    const TierCounts tiers = topology.switchCounts();
    QCOMPARE(tiers.leaf, 32);
    QCOMPARE(tiers.spine, 32);
    QCOMPARE(tiers.core, 0);
    QCOMPARE(census(topology).leafSpineCables, 32 * 32);
    QVERIFY(topology.problems().empty());
}

void tst_FatTreeGenerator::planesNeverMeet() {
    // 4 planes of 2 rails each: every spine serves leaves of one plane, every core spines of
    // one plane, so traffic crosses planes only inside a server.
    const Topology topology =
        generateFatTree(withPlanes(request(2048, 8, true, 64, 64, 64, 1.0, 1.0), 4));
    std::map<NodeId, std::set<int>> planesOf; // spine or core -> planes below it
    for (const auto& [id, link] : topology.links())
        if (linkTier(topology, link) == LinkTier::LeafSpine) {
            const bool aIsLeaf = topology.node(link.a).kind == NodeKind::Leaf;
            const Node& leaf = topology.node(aIsLeaf ? link.a : link.b);
            QVERIFY(leaf.placement.rail >= 0);
            planesOf[aIsLeaf ? link.b : link.a].insert(leaf.placement.rail / 2);
        }
    for (const auto& [id, link] : topology.links())
        if (linkTier(topology, link) == LinkTier::SpineCore) {
            const bool aIsSpine = topology.node(link.a).kind == NodeKind::Spine;
            const auto& below = planesOf[aIsSpine ? link.a : link.b];
            planesOf[aIsSpine ? link.b : link.a].insert(below.begin(), below.end());
        }
    QVERIFY(!planesOf.empty());
    std::set<int> seen;
    for (const auto& [node, planes] : planesOf) {
        QCOMPARE(planes.size(), std::size_t{1});
        seen.insert(*planes.begin());
        // A spine carries its plane, so the canvas draws a block of spines per plane.
        if (topology.node(node).kind == NodeKind::Spine)
            QCOMPARE(topology.node(node).placement.group, *planes.begin());
    }
    QCOMPARE(seen.size(), std::size_t{4});
    QVERIFY(topology.problems().empty());
}

void tst_FatTreeGenerator::refusals_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QStringList>("mentions");

    // 16 pods (see the 16K row) need 16 ports on each core switch; a radix-8 core has 8.
    QTest::addRow("16 pods, core radix 8")
        << request(2048, 8, true, 64, 64, 8, 1.0, 1.0) << QStringLiteral("coreRadix")
        << QStringList{QStringLiteral("needs 16 pod ports per core switch"),
                       QStringLiteral("radix is 8")};
    // sd = floor(8 / 2) = 4 downlinks, but one rail group has 8 leaves.
    QTest::addRow("spine radix 8 under 8-leaf rail groups")
        << request(256, 8, true, 64, 8, 64, 1.0, 1.0) << QStringLiteral("spineRadix")
        << QStringList{QStringLiteral("needs 8 leaf ports per spine"), QStringLiteral("radix-8"),
                       QStringLiteral("has 4 downlinks")};
    // A unit holds 32 servers (d = 32); 48 is not a whole number of units.
    QTest::addRow("serversPerPod 48 with 32-server units")
        << withPodSize(request(256, 8, true, 64, 64, 64, 1.0, 1.0), 48)
        << QStringLiteral("serversPerPod")
        << QStringList{QStringLiteral("multiple of the 32 servers"), QStringLiteral("got 48")};
    QTest::addRow("serversPerPod 0")
        << withPodSize(request(256, 8, true, 64, 64, 64, 1.0, 1.0), 0)
        << QStringLiteral("serversPerPod")
        << QStringList{QStringLiteral("between 1 and 131072"), QStringLiteral("got 0")};
    QTest::addRow("3 planes on 8 rails")
        << withPlanes(request(256, 8, true, 64, 64, 64, 1.0, 1.0), 3) << QStringLiteral("planes")
        << QStringList{QStringLiteral("3 planes cannot share 8 rails")};
    QTest::addRow("planes on a top-of-rack fat-tree")
        << withPlanes(request(256, 8, false, 64, 64, 64, 1.0, 1.0), 2) << QStringLiteral("planes")
        << QStringList{QStringLiteral("top-of-rack fabric has one plane")};
    QTest::addRow("zero servers") << request(0, 8, true, 64, 64, 64, 1.0, 1.0)
                                  << QStringLiteral("servers")
                                  << QStringList{QStringLiteral("between 1 and 131072"),
                                                 QStringLiteral("got 0")};
}

void tst_FatTreeGenerator::refusals() {
    QFETCH(GeneratorParams, params);
    QFETCH(QString, field);
    QFETCH(QStringList, mentions);

    verifyRefusal(generateFatTree, params, field, mentions);
}

QTEST_APPLESS_MAIN(tst_FatTreeGenerator)
#include "tst_FatTreeGenerator.moc"
