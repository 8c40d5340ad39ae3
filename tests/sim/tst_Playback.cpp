// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Collective playback (Playback.hpp): the frames the canvas animates. A playback must
// span the collective's whole simulated time in order, find the frame showing at any
// moment, keep utilization a share, stand for every step the collective runs, and put
// the bottleneck where max-min sharing puts it.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/design/CollectiveSpec.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/Collectives.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/Playback.hpp"
#include "model/topology/Topology.hpp"
#include "support/BuiltinCatalog.hpp"
#include "support/GeneratorRequests.hpp"

#include <cmath>
#include <string>
#include <vector>
#endif

using namespace fabriclab;
using namespace fabriclab::sim;
using model::CollectiveAlgorithm;
using model::CollectiveOp;
using model::CollectiveSpec;

using fabriclab::testing::builtinFabric;

namespace {

constexpr long long kGiB = 1LL << 30;

/// `servers` H100 servers x 8 GPUs x 8 x 400G NICs, rail-optimized, radix 64, 1:1.
model::Topology cluster(int servers) {
    return testing::generateOrFail(
        model::generateLeafSpine,
        testing::generatorRequest("leaf-spine", servers, 8, true, 64, 64, 64, 1.0, 1.0));
}

/// Two leaves under one spine, one 4-GPU server with 4 x 400G NICs on each leaf. Leaf 1
/// reaches the spine over a single 400G cable (the thin uplink); leaf 2 over one 1.6T
/// cable. Every flow of a ring between the servers crosses the thin uplink.
struct TwoLeaves {
    model::Topology topology;
    model::LinkId thinUplink;
};

TwoLeaves twoLeaves() {
    TwoLeaves f;
    auto& t = f.topology;
    const auto add = [&](const std::string& name, model::NodeKind kind, double portGbps) {
        model::Node n;
        n.name = name;
        n.kind = kind;
        n.server.gpus = 4;
        n.server.nics = 4;
        n.server.nicSpeed = model::Gbps(400);
        n.sw = model::SwitchProps{64, model::Gbps(portGbps)};
        return t.addNode(n);
    };
    const auto cable = [&](model::NodeId a, model::NodeId b, double gbps, int count) {
        return t.addLink(
            model::Link{a, b, model::Gbps(gbps), count, model::LinkMedium::Optics, 10});
    };
    const auto leaf1 = add("leaf-1", model::NodeKind::Leaf, 400);
    const auto leaf2 = add("leaf-2", model::NodeKind::Leaf, 1600);
    const auto spine = add("spine-1", model::NodeKind::Spine, 1600);
    cable(add("srv-1", model::NodeKind::Server, 0), leaf1, 400, 4);
    cable(add("srv-2", model::NodeKind::Server, 0), leaf2, 400, 4);
    f.thinUplink = cable(leaf1, spine, 400, 1);
    cable(leaf2, spine, 1600, 1);
    return f;
}

} // namespace

Q_DECLARE_METATYPE(fabriclab::model::CollectiveSpec)

class tst_Playback : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void framesSpanTheCollective_data();
    void framesSpanTheCollective();
    void frameAtFindsTheShowingFrame_data();
    void frameAtFindsTheShowingFrame();
    void bottleneckUplinkSaturates_data();
    void bottleneckUplinkSaturates();
};

void tst_Playback::framesSpanTheCollective_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<int>("servers");
    QTest::addColumn<CollectiveSpec>("spec");
    QTest::addColumn<int>("maxTiles");
    QTest::addColumn<bool>("recordLinks");

    const auto spec = [](CollectiveOp op, CollectiveAlgorithm a, long long bytes = kGiB) {
        return CollectiveSpec{op, bytes, a};
    };
    const auto ring = spec(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring);
    // A ring over 16 x 8 = 128 ranks repeats its step 2 x 127 = 254 times: more than
    // the 24 tiles drawn by default, so each tile stands for ceil(254 / 24) = 11 steps.
    QTest::addRow("ib-ndr ring, 16 servers") << QByteArray("ib-ndr") << 16 << ring << 24 << true;
    QTest::addRow("ib-ndr ring, one tile") << QByteArray("ib-ndr") << 16 << ring << 1 << true;
    QTest::addRow("ib-ndr ring, a tile per step")
        << QByteArray("ib-ndr") << 16 << ring << 1000 << true;
    QTest::addRow("roce-v2 ring, 8 B (latency-bound)")
        << QByteArray("roce-v2") << 16
        << spec(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 8) << 24 << true;
    QTest::addRow("roce-v2 ring, throughput only")
        << QByteArray("roce-v2") << 16 << ring << 24 << false;
    // Hierarchical: 2 x (16 - 1) = 30 steps of the ring between servers.
    QTest::addRow("ib-ndr hierarchical")
        << QByteArray("ib-ndr") << 16
        << spec(CollectiveOp::AllReduce, CollectiveAlgorithm::Hierarchical) << 24 << true;
    QTest::addRow("roce-v2 tree") << QByteArray("roce-v2") << 16
                                  << spec(CollectiveOp::AllReduce, CollectiveAlgorithm::Tree) << 24
                                  << true;
    QTest::addRow("spectrum-x all-to-all pxn")
        << QByteArray("spectrum-x") << 16 << spec(CollectiveOp::AllToAll, CollectiveAlgorithm::Pxn)
        << 24 << true;
    QTest::addRow("roce-v2 broadcast")
        << QByteArray("roce-v2") << 16 << spec(CollectiveOp::Broadcast, CollectiveAlgorithm::Ring)
        << 24 << true;
    // No fabric phase to show: SHARP is timed in closed form, and one server's ring
    // runs on NVLink only. The playback must still span the collective.
    QTest::addRow("ib-ndr sharp (closed form)")
        << QByteArray("ib-ndr") << 16 << spec(CollectiveOp::AllReduce, CollectiveAlgorithm::Sharp)
        << 24 << true;
    QTest::addRow("one server (scale-up only)") << QByteArray("ib-ndr") << 1 << ring << 24 << true;
}

void tst_Playback::framesSpanTheCollective() {
    QFETCH(QByteArray, fabricId);
    QFETCH(int, servers);
    QFETCH(CollectiveSpec, spec);
    QFETCH(int, maxTiles);
    QFETCH(bool, recordLinks);

    const model::Topology topology = cluster(servers);
    if (QTest::currentTestFailed())
        return;
    const FabricNetwork network(topology, builtinFabric(fabricId.constData()));
    const CollectiveGroup group{network.servers(), 8, testing::builtinGpu("h100-sxm")};
    const CollectiveResult collective = runCollective(network, group, spec, {}, recordLinks);
    const Playback p = buildPlayback(network, collective, maxTiles);

    // Frames cover [0, seconds]: the first starts at 0, the last (everything idle) at
    // the end, and none goes back in time. Exact: they are the collective's own numbers.
    QVERIFY(p.frameCount() >= 2);
    QCOMPARE(p.seconds, collective.seconds);
    QCOMPARE(p.times.front(), 0.0);
    QCOMPARE(p.times.back(), collective.seconds);
    for (std::size_t f = 1; f < p.frameCount(); ++f)
        QVERIFY2(p.times[f] >= p.times[f - 1],
                 qPrintable(QStringLiteral("frame %1 starts at %2, before frame %3 at %4")
                                .arg(f)
                                .arg(p.times[f], 0, 'g', 17)
                                .arg(f - 1)
                                .arg(p.times[f - 1], 0, 'g', 17)));
    QCOMPARE(p.throughputGbps.size(), p.frameCount());
    QCOMPARE(p.utilization.size(), p.frameCount() * p.links.size());

    // Utilization is a share of each link: 0-1 in every frame, and links appear only
    // when recorded (throughput-only phases carry none).
    QCOMPARE(p.links.empty(), !recordLinks || collective.phase.timeline.empty());
    for (const float u : p.utilization)
        QVERIFY2(u >= 0.0f && u <= 1.0f, qPrintable(QStringLiteral("utilization %1").arg(u)));
    for (const double gbps : p.throughputGbps)
        QVERIFY(gbps >= 0);

    // The tiles stand for every step the collective runs, and only just: tiles x
    // stepsPerTile >= steps, and one tile fewer would not do. Each tile repeats the
    // phase's samples, then one closing frame.
    QCOMPARE(p.steps, std::max(1, collective.phaseRepeats));
    const std::size_t samples = collective.phase.timeline.size();
    if (samples > 0) {
        QCOMPARE((p.frameCount() - 1) % samples, std::size_t{0});
        const int tiles = static_cast<int>((p.frameCount() - 1) / samples);
        QVERIFY(tiles >= 1 && tiles <= maxTiles);
        QVERIFY2(p.stepsPerTile * tiles >= p.steps && p.stepsPerTile * (tiles - 1) < p.steps,
                 qPrintable(QStringLiteral("%1 tiles x %2 steps for %3 steps")
                                .arg(tiles)
                                .arg(p.stepsPerTile)
                                .arg(p.steps)));
    }

    // frameAt() on the frames' own start times: the last frame starting there.
    for (std::size_t f = 0; f < p.frameCount(); ++f) {
        const std::size_t at = p.frameAt(p.times[f]);
        QVERIFY(at >= f && p.times[at] == p.times[f]);
        QVERIFY(at + 1 == p.frameCount() || p.times[at + 1] > p.times[f]);
    }
}

void tst_Playback::frameAtFindsTheShowingFrame_data() {
    QTest::addColumn<double>("t");
    QTest::addColumn<int>("frame");

    // Frames start at 0, 1, 1, 2 and 5 s (frame 1 lasts no time: a tile boundary where
    // a phase ends exactly on its share). The frame showing at t is the last that
    // started at or before t; before the first, the first.
    QTest::addRow("before the start") << -1.0 << 0;
    QTest::addRow("at 0") << 0.0 << 0;
    QTest::addRow("inside the first") << 0.5 << 0;
    QTest::addRow("at 1: the later of two starting there") << 1.0 << 2;
    QTest::addRow("just before 1") << std::nextafter(1.0, 0.0) << 0;
    QTest::addRow("inside the third") << 1.5 << 2;
    QTest::addRow("at 2") << 2.0 << 3;
    QTest::addRow("inside the fourth") << 4.999 << 3;
    QTest::addRow("at the end") << 5.0 << 4;
    QTest::addRow("after the end") << 100.0 << 4;
}

void tst_Playback::frameAtFindsTheShowingFrame() {
    QFETCH(double, t);
    QFETCH(int, frame);

    Playback p;
    p.seconds = 5;
    p.times = {0, 1, 1, 2, 5};
    p.throughputGbps.assign(p.times.size(), 0);
    QCOMPARE(p.frameAt(t), static_cast<std::size_t>(frame));
}

void tst_Playback::bottleneckUplinkSaturates_data() {
    QTest::addColumn<QByteArray>("fabricId");

    // Adaptive routing (leaf 1's uplink group is the one cable) and static ECMP (one
    // cable to hash onto): the bottleneck is the same.
    QTest::addRow("ib-ndr") << QByteArray("ib-ndr");
    QTest::addRow("roce-v2") << QByteArray("roce-v2");
}

void tst_Playback::bottleneckUplinkSaturates() {
    QFETCH(QByteArray, fabricId);

    const TwoLeaves f = twoLeaves();
    const model::Fabric& fabric = builtinFabric(fabricId.constData());
    const FabricNetwork network(f.topology, fabric);
    const CollectiveGroup group{network.servers(), 4, testing::builtinGpu("h100-sxm")};
    const CollectiveResult collective = runCollective(
        network, group, CollectiveSpec{CollectiveOp::AllReduce, kGiB, CollectiveAlgorithm::Ring},
        {}, true);
    const Playback p = buildPlayback(network, collective);

    // A ring step: on each of 4 rails, srv-1 sends to srv-2 and srv-2 to srv-1. With g
    // the fabric's goodput share (lineEfficiency x (1 - protocolOverhead)), the 4 flows
    // up the thin uplink share its 400g Gb/s: 100g each, and so do the 4 coming down it
    // the other way. Thin uplink: 4 x 100g / 400g = 1 in each direction. NIC cables:
    // 100g / 400g = 0.25. Fat uplink: 4 x 100g / 1600g = 0.25. Fabric throughput while
    // the step runs: 8 flows x 100g.
    const double g = fabric.lineEfficiency * (1 - fabric.protocolOverhead);
    QCOMPARE(p.links.size(), std::size_t{4}); // two NIC bundles and two uplinks
    std::size_t thin = p.links.size();
    for (std::size_t l = 0; l < p.links.size(); ++l) {
        const float peak = p.peakUtilization(l);
        if (p.links[l] == f.thinUplink) {
            thin = l;
            QVERIFY2(peak >= Playback::kSaturated,
                     qPrintable(QStringLiteral("thin uplink peaks at %1").arg(peak)));
        } else {
            // 0.25 from float sums of four doubles: 1e-6 is float rounding.
            QVERIFY2(std::abs(peak - 0.25f) <= 1e-6f,
                     qPrintable(QStringLiteral("link %1 peaks at %2, expected 0.25")
                                    .arg(p.links[l].value)
                                    .arg(peak)));
        }
    }
    QVERIFY2(thin < p.links.size(), "the thin uplink carries nothing in the playback");
    // The first frame is the step running at full rate; relative 1e-12 is summation order.
    const double expected = 8 * 100 * g;
    QVERIFY2(std::abs(p.throughputGbps.front() - expected) <= 1e-12 * expected,
             qPrintable(QStringLiteral("throughput %1 Gb/s, expected %2")
                            .arg(p.throughputGbps.front(), 0, 'g', 17)
                            .arg(expected, 0, 'g', 17)));
}

QTEST_APPLESS_MAIN(tst_Playback)
#include "tst_Playback.moc"
