// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Two-tier generator: how many servers, leaves, spines and cables a request becomes, and
// which requests are refused with the limit named. Sizing rules (model/fabric/LeafTier.cpp):
//   d  = floor(radix * o / (1 + o))                    downlinks per leaf at o:1
//   rail-optimized: units of ceil(S / ceil(S / d)) servers, nics leaves per unit, one cable
//                   from each server to each leaf of its unit
//   top-of-rack:    floor(d / nics) servers per leaf, one link of count nics per server
//   u  = ceil(downUsed / o)                            uplinks per leaf
//   s  = smallest divisor of u >= max(2, ceil(L * u / spineRadix)) with L * (u / s) <= spineRadix
//   every NIC on one switch (no spine) when servers * nics <= leafRadix.
//   rail planes: when no spine can reach every leaf (L > spineRadix), a rail-optimized fabric
//                splits its rails into the fewest P equal groups whose L / P leaves fit, and
//                each group gets s spines of its own by the rule above; a request's `planes`
//                sets P instead.
#include <map>
#include <set>

#include <QStringList>
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/analysis/Connectivity.hpp"
#include "model/fabric/Generators.hpp"
#include "model/topology/Topology.hpp"
#include "support/GeneratorRequests.hpp"
#include "support/TopologyCounts.hpp"
#endif

using namespace fabriclab::model;
using namespace fabriclab::testing;

namespace {

GeneratorParams withPlanes(GeneratorParams params, int planes) {
    params.planes = planes;
    return params;
}

GeneratorParams request(int servers, int nics, bool rail, int leafRadix, int spineRadix,
                        double oversubscription) {
    // Core radix and spine ratio are fat-tree only; leave them at their defaults.
    const GeneratorParams defaults;
    return generatorRequest("leaf-spine", servers, nics, rail, leafRadix, spineRadix,
                            defaults.coreRadix, oversubscription, defaults.spineOversubscription);
}

} // namespace

class tst_LeafSpineGenerator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void counts_data();
    void counts();
    void railPlanes_data();
    void railPlanes();
    void refusals_data();
    void refusals();
};

void tst_LeafSpineGenerator::counts_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("spines");
    QTest::addColumn<int>("serverCables");
    QTest::addColumn<int>("leafSpineCables");
    QTest::addColumn<int>("serverLinkCount"); // Link::count of every server link
    QTest::addColumn<int>("uplinkParallel");  // Link::count of every leaf-spine link, 0 if none

    // d = 32; 128 servers in 4 units of 32; 4 x 8 = 32 leaves; u = 32;
    // s >= max(2, 32 * 32 / 64 = 16), 16 | 32, 32 * 2 = 64 <= 64 -> 16 spines, 2 cables each.
    // Cables: 128 x 8 = 1,024 server; 32 leaves x 32 = 1,024 leaf-spine.
    QTest::addRow("128 srv x 8 NIC, radix 64, 1:1, rail")
        << request(128, 8, true, 64, 64, 1.0) << 32 << 16 << 1024 << 1024 << 1 << 2;
    // 8 x 8 = 64 NICs <= 64 ports: one leaf, no spine; each server one link of 8 cables.
    QTest::addRow("8 srv x 8 NIC (64 GPUs), radix 64: single leaf")
        << request(8, 8, true, 64, 64, 1.0) << 1 << 0 << 64 << 0 << 8 << 0;
    // Article 004's 256-GPU cluster: 32 servers x 2 NICs = 64 NICs <= 64 ports, so the
    // single-switch rule applies before any leaf/spine sizing: 1 leaf, 32 links of 2.
    // (The article's two leaves and two spines are the radix-40 4:1 row below.)
    QTest::addRow("article 004: 32 srv x 2 NIC, ToR, radix 64, 1:1: fits one switch")
        << request(32, 2, false, 64, 64, 1.0) << 1 << 0 << 64 << 0 << 2 << 0;
    // Article 004's shape ("one leaf per 16 servers ... a pair of spine switches", 3.2 Tb/s
    // bisection = 8 x 400G up per leaf): d = floor(40 x 4/5) = 32 -> 16 servers per leaf,
    // 2 leaves; u = ceil(32 / 4) = 8; s >= max(2, 2 x 8 / 64 -> 1) = 2, 2 | 8, 2 x 4 <= 64 -> 2.
    // Cables: 32 x 2 = 64 server; 2 leaves x 8 = 16 leaf-spine, 4 per leaf-spine pair.
    QTest::addRow("article 004 shape: 32 srv x 2 NIC, ToR, radix 40, 4:1")
        << request(32, 2, false, 40, 64, 4.0) << 2 << 2 << 64 << 16 << 2 << 4;
    // d = floor(64 x 2/3) = 42; ceil(128 / 42) = 4 units of 32; 32 leaves; u = ceil(32 / 2) = 16;
    // s >= max(2, 32 x 16 / 64 = 8), 8 | 16, 32 x 2 = 64 <= 64 -> 8 spines, 2 each.
    // Cables: 1,024 server; 32 x 16 = 512 leaf-spine.
    QTest::addRow("128 srv x 8 NIC, radix 64, 2:1, rail")
        << request(128, 8, true, 64, 64, 2.0) << 32 << 8 << 1024 << 512 << 1 << 2;
    // d = floor(64 x 3/4) = 48; 2 units of 48; 16 leaves; u = 48 / 3 = 16;
    // s >= max(2, 16 x 16 / 64 = 4), 4 | 16, 16 x 4 = 64 <= 64 -> 4 spines, 4 each.
    // Cables: 96 x 8 = 768 server; 16 x 16 = 256 leaf-spine.
    QTest::addRow("96 srv x 8 NIC, radix 64, 3:1, rail")
        << request(96, 8, true, 64, 64, 3.0) << 16 << 4 << 768 << 256 << 1 << 4;
    // d = 48; ceil(128 / 48) = 3 units of ceil(128 / 3) = 43 (43 + 43 + 42); 24 leaves;
    // u = ceil(43 / 3) = 15; s >= max(2, ceil(24 x 15 / 64) = 6); divisors of 15 from 6: 15
    // -> 15 spines of 1 cable each. The leaf has 64 - 43 = 21 ports free, so uplinks 16-21
    // are tried too: 16 gives s >= 6, 8 | 16, 24 x 2 = 48 <= 64 -> 8 spines, the fewest
    // (17: 17, 18: 9, 19: 19, 20: 10, 21: 21). Cables: 1,024 server; 24 x 16 = 384.
    QTest::addRow("128 srv x 8 NIC, radix 64, 3:1, rail: uneven units")
        << request(128, 8, true, 64, 64, 3.0) << 24 << 8 << 1024 << 384 << 1 << 2;
    // ToR: d = 32 -> 8 servers per leaf, 8 leaves; downUsed = 8 x 4 = 32, u = 32;
    // s >= max(2, 8 x 32 / 64 = 4), 4 | 32, 8 x 8 = 64 <= 64 -> 4 spines, 8 each.
    // Cables: 64 x 4 = 256 server (64 links of 4); 8 x 32 = 256 leaf-spine.
    QTest::addRow("64 srv x 4 NIC, ToR, radix 64, 1:1")
        << request(64, 4, false, 64, 64, 1.0) << 8 << 4 << 256 << 256 << 4 << 8;
    // ToR 2:1: d = 42 -> floor(42 / 4) = 10 per leaf; ceil(64 / 10) = 7 leaves of ceil(64 / 7)
    // = 10 (6 x 10 + 4); downUsed = 40, u = 20; s >= max(2, ceil(7 x 20 / 64) = 3); 3 does not
    // divide 20, 4 does -> 4 spines. One more uplink (24 ports are free): u = 21,
    // s >= 3, 3 | 21, 7 x 7 = 49 <= 64 -> 3 spines, 7 each, one switch fewer for 7 cables.
    // Cables: 256; 7 x 21 = 147.
    QTest::addRow("64 srv x 4 NIC, ToR, radix 64, 2:1")
        << request(64, 4, false, 64, 64, 2.0) << 7 << 3 << 256 << 147 << 4 << 7;
    // Bigger spines: d = 32, 16 units of 32, 128 leaves, u = 32;
    // s >= max(2, 128 x 32 / 128 = 32), 32 | 32, 128 x 1 = 128 <= 128 -> 32 spines, 1 each.
    // Cables: 512 x 8 = 4,096 server; 128 x 32 = 4,096 leaf-spine.
    QTest::addRow("512 srv x 8 NIC, leaf 64, spine 128, 1:1, rail")
        << request(512, 8, true, 64, 128, 1.0) << 128 << 32 << 4096 << 4096 << 1 << 1;
    // 1 server x 36 NICs = 36 <= 64 ports: the single-switch rule ("a single leaf when every
    // NIC fits on one switch", Generators.hpp) gives 1 leaf with one link of 36, even though
    // a top-of-rack leaf at 1:1 would only offer d = 32 downlinks.
    QTest::addRow("1 srv x 36 NIC, ToR, radix 64, 1:1: fits one switch")
        << request(1, 36, false, 64, 64, 1.0) << 1 << 0 << 36 << 0 << 36 << 0;
    // Rail-optimized servers of 8 NICs keep a leaf per rail however few they are: d = 32,
    // one unit of 16, 8 leaves of 16 down; u = 16; s >= max(2, 8 x 16 / 64 = 2), 2 | 16,
    // 8 x 8 = 64 <= 64 -> 2 spines, 8 each. Cables: 128 server; 8 x 16 = 128 leaf-spine.
    QTest::addRow("16 srv x 8 NIC, radix 64, 1:1, rail: a leaf per rail")
        << request(16, 8, true, 64, 64, 1.0) << 8 << 2 << 128 << 128 << 1 << 8;
    // 32 NICs (p5's shape): a leaf takes up to 32 / 8 = 4 neighbouring NICs, and 16 servers
    // leave room for floor(32 / 16) = 2 each: 16 leaves of 16 x 2 = 32 down; u = 32;
    // s >= max(2, 16 x 32 / 64 = 8), 8 | 32, 16 x 4 = 64 <= 64 -> 8 spines, 4 each (no free
    // port for more uplinks). Cables: 512 server; 16 x 32 = 512 leaf-spine.
    QTest::addRow("16 srv x 32 NIC, radix 64, 1:1, rail: 2 NICs per leaf")
        << request(16, 32, true, 64, 64, 1.0) << 16 << 8 << 512 << 512 << 2 << 4;
    // One NVL72 rack's 72 NICs: 72 > 64 ports, so two tiers. A leaf takes up to 72 / 8 = 9
    // NICs (9 | 72): 8 leaves with one link of 9; u = 9 would need 3 spines (3 | 9), but 55
    // ports are free and u = 10 spreads over 2 (2 | 10, 8 x 5 = 40 <= 64): 2 spines, 5 each.
    // Cables: 72 server; 8 x 10 = 80 leaf-spine.
    GeneratorParams rack = request(1, 72, true, 64, 64, 1.0);
    rack.gpusPerServer = 72;
    QTest::addRow("1 NVL72 rack x 72 NIC, radix 64, 1:1, rail: 8 leaves of 9")
        << rack << 8 << 2 << 72 << 80 << 9 << 5;
}

void tst_LeafSpineGenerator::counts() {
    QFETCH(GeneratorParams, params);
    QFETCH(int, leaves);
    QFETCH(int, spines);
    QFETCH(int, serverCables);
    QFETCH(int, leafSpineCables);
    QFETCH(int, serverLinkCount);
    QFETCH(int, uplinkParallel);

    const Topology topology = generateOrFail(generateLeafSpine, params);
    if (QTest::currentTestFailed())
        return;
    const Census c = census(topology);

    QCOMPARE(c.servers, params.servers);
    QCOMPARE(topology.gpuCount(), params.servers * params.gpusPerServer);
    QCOMPARE(c.leaves, leaves);
    QCOMPARE(c.spines, spines);
    QCOMPARE(c.cores, 0);
    QCOMPARE(c.spineCoreLinks, 0);
    QCOMPARE(c.otherLinks, 0);
    QCOMPARE(c.serverCables, serverCables);
    QCOMPARE(c.leafSpineCables, leafSpineCables);
    // Every NIC is cabled exactly once.
    QCOMPARE(c.serverCables, params.servers * params.nicsPerServer);
    // One plane of switches (model::switchPlanes), or none on a single leaf: every leaf
    // reaches every spine.
    QCOMPARE(switchPlanes(topology), 1);
    // Each leaf reaches every spine (the uplinks spread evenly).
    QCOMPARE(c.leafSpineLinks, leaves * spines);

    for (const auto& [id, link] : topology.links()) {
        const bool server = linkTier(topology, link) == LinkTier::Server;
        QCOMPARE(link.count, server ? serverLinkCount : uplinkParallel);
        QCOMPARE(link.speed.value, params.nicSpeed.value);
    }
    // Every switch within its radix, every server attached, no NIC used twice.
    const auto problems = topology.problems();
    QVERIFY2(problems.empty(), qPrintable(joined(problems)));
}

void tst_LeafSpineGenerator::railPlanes_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<int>("planes");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("spines");

    // d = 32: 16 units of 32, 128 leaves, u = 32. One plane needs 128 ports per spine > 64.
    // Two planes (rails 0-3, 4-7): 64 leaves each; s >= max(2, 64 x 32 / 64 = 32), 32 | 32,
    // 64 x 1 <= 64 -> 32 spines per plane, 64 in all (NVIDIA's B300 Spectrum-4, 8 units).
    QTest::addRow("512 srv x 8 NIC, radix 64, 1:1: 2 planes")
        << request(512, 8, true, 64, 64, 1.0) << 2 << 128 << 64;
    // 32 units, 256 leaves: two planes of 128 still too many; four planes (2 rails each) of
    // 64 leaves -> 32 spines each, 128 in all (the same table, 16 units).
    QTest::addRow("1024 srv x 8 NIC, radix 64, 1:1: 4 planes")
        << request(1024, 8, true, 64, 64, 1.0) << 4 << 256 << 128;
    // 2:1: d = 42, 1,000 servers in 24 units of 42 (ceil(1000/24) = 42), 192 leaves,
    // u = 21. Two planes: 96 leaves > 64; four planes of 48: s >= max(2, 48 x 21 / 64 = 16),
    // the smallest divisor of 21 from 16 is 21, 48 x 1 <= 64 -> 21 spines each, 84 in all.
    QTest::addRow("1000 srv x 8 NIC, radix 64, 2:1: 4 planes")
        << request(1000, 8, true, 64, 64, 2.0) << 4 << 192 << 84;
    // DeepSeek's multi-plane two-layer fat-tree at its largest (check figures, never tuned
    // to: docs/reference/design-space.md section 1, Table 3 of Zhao et al., ISCA '25): 16,384
    // endpoints on 64-port switches in 8 planes, 768 switches. d = 32: 64 units, 512 leaves;
    // 1, 2 and 4 planes leave 512, 256 and 128 leaves per plane, over 64; 8 planes of 64
    // leaves -> s = 32, 256 spines. 512 + 256 = 768.
    QTest::addRow("DeepSeek MPFT: 2048 srv x 8 NIC, radix 64, 1:1: 8 planes, 768 switches")
        << request(2048, 8, true, 64, 64, 1.0) << 8 << 512 << 256;
    // Planes asked for. 128 servers: 4 units, 32 leaves, u = 32; one plane would do
    // (16 spines). 8 planes of 4 leaves: s >= max(2, 4 x 32 / 64 = 2) = 2, 4 x 16 <= 64 ->
    // 2 spines each, 16 in all; 2 planes of 16 leaves: s >= 8, 16 x 4 <= 64 -> 8 each.
    QTest::addRow("128 srv x 8 NIC, radix 64, 1:1, planes 8: a plane per rail")
        << withPlanes(request(128, 8, true, 64, 64, 1.0), 8) << 8 << 32 << 16;
    QTest::addRow("128 srv x 8 NIC, radix 64, 1:1, planes 2")
        << withPlanes(request(128, 8, true, 64, 64, 1.0), 2) << 2 << 32 << 16;
    // The fewest that fit are asked for in so many words: the same fabric as unasked.
    QTest::addRow("1024 srv x 8 NIC, radix 64, 1:1, planes 4")
        << withPlanes(request(1024, 8, true, 64, 64, 1.0), 4) << 4 << 256 << 128;
}

void tst_LeafSpineGenerator::railPlanes() {
    QFETCH(GeneratorParams, params);
    QFETCH(int, planes);
    QFETCH(int, leaves);
    QFETCH(int, spines);

    const Topology topology = generateOrFail(generateLeafSpine, params);
    if (QTest::currentTestFailed())
        return;
    const Census c = census(topology);
    QCOMPARE(c.leaves, leaves);
    QCOMPARE(c.spines, spines);
    QCOMPARE(c.cores, 0);
    // Each spine serves the leaves of one plane's rails, each of them once or more; each
    // leaf reaches exactly its plane's spines.
    const int railsPerPlane = params.nicsPerServer / planes;
    std::map<NodeId, std::set<int>> planesOfSpine;
    std::map<NodeId, int> spinesOfLeaf;
    for (const auto& [id, link] : topology.links()) {
        const Node& a = topology.node(link.a);
        const Node& b = topology.node(link.b);
        if (a.kind != NodeKind::Leaf || b.kind != NodeKind::Spine)
            continue;
        planesOfSpine[link.b].insert(a.placement.rail / railsPerPlane);
        ++spinesOfLeaf[link.a];
    }
    QCOMPARE(int(planesOfSpine.size()), spines);
    for (const auto& [spine, served] : planesOfSpine)
        QCOMPARE(int(served.size()), 1);
    for (const auto& [leaf, count] : spinesOfLeaf)
        QCOMPARE(count, spines / planes);
    // The report names the planes (model::switchPlanes); a one-plane fabric has one.
    QCOMPARE(switchPlanes(topology), planes);
    // Every leaf keeps its full uplink count, and every switch stays within its radix.
    const auto problems = topology.problems();
    QVERIFY2(problems.empty(), qPrintable(joined(problems)));
}

void tst_LeafSpineGenerator::refusals_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<QString>("field");        // GeneratorError::field()
    QTest::addColumn<QStringList>("mentions"); // the message names the limit and the numbers

    // d = 32 -> 72 units x 8 = 576 leaves; even a plane of spines per rail would need 72
    // ports per spine.
    QTest::addRow("2304 srv x 8 NIC, radix 64: spine radix too small even per rail")
        << request(2304, 8, true, 64, 64, 1.0) << QStringLiteral("spineRadix")
        << QStringList{QStringLiteral("needs 72 leaf ports per spine even with a plane of "
                                      "spines per rail"),
                       QStringLiteral("radix is 64")};
    // Top-of-rack: 4 servers of 8 NICs per leaf, 256 leaves; no rails to split by.
    QTest::addRow("1024 srv x 8 NIC, ToR, radix 64: spine radix too small")
        << request(1024, 8, false, 64, 64, 1.0) << QStringLiteral("spineRadix")
        << QStringList{QStringLiteral("needs 256 leaf ports per spine"),
                       QStringLiteral("radix is 64")};
    QTest::addRow("zero servers") << request(0, 8, true, 64, 64, 1.0) << QStringLiteral("servers")
                                  << QStringList{QStringLiteral("between 1 and 131072"),
                                                 QStringLiteral("got 0")};
    QTest::addRow("131073 servers (over the 131072 limit)")
        << request(131073, 8, true, 64, 64, 1.0) << QStringLiteral("servers")
        << QStringList{QStringLiteral("131072"), QStringLiteral("got 131073")};
    GeneratorParams negativeSpeed = request(8, 8, true, 64, 64, 1.0);
    negativeSpeed.nicSpeed = Gbps(-400);
    QTest::addRow("negative NIC speed")
        << negativeSpeed << QStringLiteral("nicGbps")
        << QStringList{QStringLiteral("nicGbps must be between 1 and 3200"),
                       QStringLiteral("got -400")};
    // 2 x 80 = 160 NICs > 64 ports, so a leaf tier is needed; a ToR leaf has d = 32 downlinks.
    QTest::addRow("ToR server with 80 NICs on radix-64 leaves")
        << request(2, 80, false, 64, 64, 1.0) << QStringLiteral("leafRadix")
        << QStringList{QStringLiteral("needs 80 ports"), QStringLiteral("radix-64"),
                       QStringLiteral("only 32 downlinks")};
    // 16,384 servers x 128 GPUs = 2,097,152 GPUs > 2^20.
    GeneratorParams tooManyGpus = request(16384, 8, true, 64, 64, 1.0);
    tooManyGpus.gpusPerServer = 128;
    QTest::addRow("2M GPUs (over the 1,048,576 limit)")
        << tooManyGpus << QStringLiteral("servers")
        << QStringList{QStringLiteral("2097152 GPUs"), QStringLiteral("1048576")};
    QTest::addRow("3 planes on 8 rails")
        << withPlanes(request(128, 8, true, 64, 64, 1.0), 3) << QStringLiteral("planes")
        << QStringList{QStringLiteral("3 planes cannot share 8 rails equally"),
                       QStringLiteral("use a divisor of 8")};
    QTest::addRow("2 planes on a top-of-rack fabric")
        << withPlanes(request(256, 8, false, 64, 64, 1.0), 2) << QStringLiteral("planes")
        << QStringList{QStringLiteral("rail-optimized")};
    // 2048 servers, 512 leaves: a plane of 2 rails still has 128 leaves per spine.
    QTest::addRow("2048 srv x 8 NIC, radix 64, planes 4: too few planes")
        << withPlanes(request(2048, 8, true, 64, 64, 1.0), 4) << QStringLiteral("planes")
        << QStringList{QStringLiteral("needs 128 leaf ports per spine with 4 planes"),
                       QStringLiteral("radix is 64"), QStringLiteral("use more planes")};
    QTest::addRow("0 planes") << withPlanes(request(128, 8, true, 64, 64, 1.0), 0)
                              << QStringLiteral("planes")
                              << QStringList{QStringLiteral("planes must be between 1 and 1024"),
                                             QStringLiteral("got 0")};
    QTest::addRow("oversubscription 0")
        << request(128, 8, true, 64, 64, 0.0) << QStringLiteral("oversubscription")
        << QStringList{QStringLiteral("oversubscription must be between"), QStringLiteral("got 0")};
}

void tst_LeafSpineGenerator::refusals() {
    QFETCH(GeneratorParams, params);
    QFETCH(QString, field);
    QFETCH(QStringList, mentions);

    verifyRefusal(generateLeafSpine, params, field, mentions);
}

QTEST_APPLESS_MAIN(tst_LeafSpineGenerator)
#include "tst_LeafSpineGenerator.moc"
