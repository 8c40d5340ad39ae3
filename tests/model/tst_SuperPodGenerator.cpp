// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Rack-scale SuperPOD generator (model/fabric/SuperPodGenerator.cpp) against the compute
// fabric of NVIDIA's DGX SuperPOD with DGX GB200 reference architecture, as its prose
// describes it (docs/reference/rack-scale-domains.md §2): scalable units of 8 NVL72 racks;
// 4 rails (GPUs per tray); a spine-leaf group (SLG) per rail of each unit with a leaf per
// rack and 6 spines; core groups joining spine g of every SLG. The RA's Table 3 was not
// readable, so the counts below are worked out by hand from that prose (rs-su-switches,
// rs-su-cables, rs-core-16su), not copied from a table:
//   leaf: 18 NICs of a full rack down, 18 up (1:1), so 18 / 6 = 3 cables to each spine;
//   spine: 8 leaves x 3 = 24 down, 24 up; its 64 ports keep 32 down for the core tier, so
//          spines per SLG = smallest divisor of 18 >= ceil(8 x 18 / 32) = 5, that is 6;
//   cores per group over U units: smallest divisor c of 24 with 4U x 24 / c <= 64.
#include <QStringList>
#include <QTest>

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

/// GB200 NVL72 racks on 64-port NDR switches, 1:1, as in the reference architecture.
GeneratorParams racks(int count, int gpusPerRack = 72) {
    GeneratorParams p = generatorRequest("superpod", count, gpusPerRack, true, 64, 64, 64, 1, 1);
    p.gpusPerServer = gpusPerRack;
    return p;
}

/// A kind's own field set in `extra`.
GeneratorParams with(GeneratorParams p, const char* key, double value) {
    p.extra.insert_or_assign(key, value);
    return p;
}

/// A shared field changed.
template <typename T> GeneratorParams with(GeneratorParams p, T GeneratorParams::*member, T value) {
    p.*member = value;
    return p;
}

} // namespace

class tst_SuperPodGenerator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void countsFollowTheReferenceArchitecture_data();
    void countsFollowTheReferenceArchitecture();
    void railsMeetOnlyAboveTheUnit();
    void partialRackIsCabledAsAFullOne();
    void refusals_data();
    void refusals();
};

void tst_SuperPodGenerator::countsFollowTheReferenceArchitecture_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("spines");
    QTest::addColumn<int>("cores");
    QTest::addColumn<int>("serverCables");
    QTest::addColumn<int>("leafSpineCables");
    QTest::addColumn<int>("spineCoreCables");

    // One SU (rs-su-switches, rs-su-cables): 8 racks x 4 rails = 32 leaves, 4 SLGs x 6 = 24
    // spines, no core. Cables: 576 NICs; 32 leaves x 18 = 576 leaf-spine.
    QTest::addRow("1 SU, 576 GPUs") << racks(8) << 32 << 24 << 0 << 576 << 576 << 0;
    // Two SUs: 64 leaves, 48 spines; a core group joins 2 x 4 = 8 spines of 24 uplinks:
    // c = 3 (8 x 8 = 64 <= 64), 6 groups x 3 = 18 cores; 48 spines x 24 = 1,152 spine-core.
    QTest::addRow("2 SUs, 1,152 GPUs") << racks(16) << 64 << 48 << 18 << 1152 << 1152 << 1152;
    // Sixteen SUs, the RA's largest (rs-su-max, rs-core-16su): 512 leaves, 384 spines; a core
    // group joins 64 spines: c = 24 (64 x 1 = 64), 6 x 24 = 144 cores; 384 x 24 = 9,216.
    QTest::addRow("16 SUs, 9,216 GPUs") << racks(128) << 512 << 384 << 144 << 9216 << 9216 << 9216;
    // A partial last SU (12 racks): leaves for the 12 racks present (48), a full unit's
    // spines in both units (48); cores as for two units (18). Leaf-spine: 48 x 18 = 864;
    // spine-core 48 x 24 = 1,152, since the second unit's spines are cabled for 8 racks.
    QTest::addRow("1.5 SUs, 864 GPUs") << racks(12) << 48 << 48 << 18 << 864 << 864 << 1152;
    // GB300 with 800G per GPU on 64-port XDR-class switches at 800G: the same counts.
    QTest::addRow("1 SU of GB300, 800G") << with(racks(8), &GeneratorParams::nicSpeed, Gbps(800))
                                         << 32 << 24 << 0 << 576 << 576 << 0;
}

void tst_SuperPodGenerator::countsFollowTheReferenceArchitecture() {
    QFETCH(GeneratorParams, params);
    QFETCH(int, leaves);
    QFETCH(int, spines);
    QFETCH(int, cores);
    QFETCH(int, serverCables);
    QFETCH(int, leafSpineCables);
    QFETCH(int, spineCoreCables);

    const Topology topology = generateOrFail(generateSuperPod, params);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(topology.serverCount(), params.servers);
    const TierCounts tiers = topology.switchCounts();
    QCOMPARE(tiers.leaf, leaves);
    QCOMPARE(tiers.spine, spines);
    QCOMPARE(tiers.core, cores);
    const Census c = census(topology);
    QCOMPARE(c.serverCables, serverCables);
    QCOMPARE(c.leafSpineCables, leafSpineCables);
    QCOMPARE(c.spineCoreCables, spineCoreCables);
    QCOMPARE(c.otherLinks, 0);
    const auto problems = topology.problems();
    QVERIFY2(problems.empty(), qPrintable(joined(problems)));
}

void tst_SuperPodGenerator::railsMeetOnlyAboveTheUnit() {
    // In one SU each rail's leaves reach only their own SLG's spines: a leaf's spines all
    // carry its rail as their group, and every rack has one leaf per rail.
    const Topology topology = generateSuperPod(racks(8));
    for (const auto& [id, link] : topology.links()) {
        if (linkTier(topology, link) != LinkTier::LeafSpine)
            continue;
        const Node& a = topology.node(link.a);
        const Node& b = topology.node(link.b);
        const Node& leaf = a.kind == NodeKind::Leaf ? a : b;
        const Node& spine = a.kind == NodeKind::Leaf ? b : a;
        QCOMPARE(spine.placement.group, leaf.placement.rail);
        QCOMPARE(link.count, 3);
    }
}

void tst_SuperPodGenerator::partialRackIsCabledAsAFullOne() {
    // 64 GPUs per rack (16 of 18 trays, as OCI's racks): 16 NICs per rail leaf, but 18
    // uplinks, as for a full rack (rs-su-partial), so the same 6 spines of 3 cables.
    const Topology topology = generateSuperPod(racks(8, 64));
    const Census c = census(topology);
    QCOMPARE(c.serverCables, 8 * 64);
    QCOMPARE(c.leafSpineCables, 32 * 18);
    QCOMPARE(topology.switchCounts().spine, 24);
}

void tst_SuperPodGenerator::refusals_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QStringList>("mentions");

    QTest::addRow("GPUs not whole trays")
        << racks(8, 70) << QStringLiteral("gpusPerServer")
        << QStringList{QStringLiteral("whole trays of 4"), QStringLiteral("70")};
    QTest::addRow("more GPUs than the rack holds")
        << racks(8, 76) << QStringLiteral("gpusPerServer")
        << QStringList{QStringLiteral("at most 72 GPUs"), QStringLiteral("got 76")};
    QTest::addRow("NICs uneven over GPUs")
        << with(racks(8), &GeneratorParams::nicsPerServer, 100) << QStringLiteral("nicsPerServer")
        << QStringList{QStringLiteral("100 NICs"), QStringLiteral("72 GPUs")};
    QTest::addRow("zero GPUs per tray")
        << with(racks(8), "gpusPerTray", 0) << QStringLiteral("gpusPerTray")
        << QStringList{QStringLiteral("between 1 and 64")};
    QTest::addRow("fractional racks per unit")
        << with(racks(8), "racksPerUnit", 2.5) << QStringLiteral("racksPerUnit")
        << QStringList{QStringLiteral("whole number")};
    // 18 NICs of a rail leaf, but a radix-32 leaf at 1:1 has 16 downlinks.
    QTest::addRow("leaf too small for a rack's rail")
        << with(racks(8), &GeneratorParams::leafRadix, 32) << QStringLiteral("leafRadix")
        << QStringList{QStringLiteral("takes 18 NICs"), QStringLiteral("16 downlinks")};
    // 17 units: a core group joins 68 spines, a radix-64 core has 64 ports.
    QTest::addRow("beyond 16 units on 64-port cores")
        << racks(136) << QStringLiteral("coreRadix")
        << QStringList{QStringLiteral("joins 68 spines"), QStringLiteral("radix is 64")};
    QTest::addRow("zero racks") << racks(0) << QStringLiteral("servers")
                                << QStringList{QStringLiteral("got 0")};
}

void tst_SuperPodGenerator::refusals() {
    QFETCH(GeneratorParams, params);
    QFETCH(QString, field);
    QFETCH(QStringList, mentions);

    verifyRefusal(generateSuperPod, params, field, mentions);
}

QTEST_APPLESS_MAIN(tst_SuperPodGenerator)
#include "tst_SuperPodGenerator.moc"
