// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Collectives (Collectives.hpp) calibrated against published figures. Every band below
// names its source (figures.md row or article 000) and why the tolerance is what it is;
// busbw follows nccl-tests: algbw x 2(n-1)/n for all-reduce, x (n-1)/n for all-to-all.
// Clusters are H100 servers on generated leaf-spine fabrics; the measured numbers are
// printed with qInfo so a calibration run can be read off the test log.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/design/CollectiveSpec.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/Collectives.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "support/BuiltinCatalog.hpp"
#include "support/GeneratorRequests.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#endif

using namespace fabriclab;
using namespace fabriclab::sim;
using model::CollectiveAlgorithm;
using model::CollectiveOp;
using model::CollectiveSpec;

using fabriclab::testing::builtinFabric;

namespace {

constexpr long long kGiB = 1LL << 30;

const model::GpuSpec& h100() {
    return fabriclab::testing::builtinGpu("h100-sxm");
}

/// A rail-optimized leaf-spine of `servers` H100 servers, 1:1, radix 64 (a single leaf
/// when every NIC fits on one: then copper, 2 m per server cable).
model::GeneratorParams cluster(int servers, int gpus, int nics, double nicGbps = 400,
                               double oversubscription = 1) {
    model::GeneratorParams p = testing::generatorRequest("leaf-spine", servers, nics, true, 64, 64,
                                                         64, oversubscription, 1.0);
    p.gpusPerServer = gpus;
    p.nicSpeed = model::Gbps(nicGbps);
    return p;
}

/// Generates the cluster, puts every GPU in the group (servers in topology order) and runs
/// the collective. Generator refusals fail the test at the caller (generateOrFail).
struct Run {
    model::Topology topology;
    CollectiveResult result;
    double nicGoodputGBps = 0; ///< one NIC, GB/s
};

Run run(const char* fabricId, const model::GeneratorParams& params, CollectiveOp op,
        long long bytes, CollectiveAlgorithm algorithm) {
    Run r;
    r.topology = testing::generateOrFail(model::generateLeafSpine, params);
    if (QTest::currentTestFailed())
        return r;
    const FabricNetwork network(r.topology, builtinFabric(fabricId));
    const CollectiveGroup group{network.servers(), params.gpusPerServer, h100()};
    r.result = runCollective(network, group, CollectiveSpec{op, bytes, algorithm});
    r.nicGoodputGBps = network.nicGoodputGbps({network.servers().front(), 0}) / 8;
    return r;
}

double allReduceBusBw(const char* fabricId, const model::GeneratorParams& params, long long bytes,
                      CollectiveAlgorithm algorithm) {
    return run(fabricId, params, CollectiveOp::AllReduce, bytes, algorithm).result.busBwGBps;
}

QString describe(const char* what, double value, double lo, double hi) {
    return QStringLiteral("%1 = %2, expected %3 .. %4")
        .arg(QLatin1String(what))
        .arg(value, 0, 'f', 3)
        .arg(lo)
        .arg(hi);
}

#define VERIFY_WITHIN(what, value, lo, hi)                                                         \
    QVERIFY2((value) >= (lo) && (value) <= (hi), qPrintable(describe(what, value, lo, hi)))

} // namespace

Q_DECLARE_METATYPE(fabriclab::model::CollectiveSpec)

class tst_Collectives : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void perNicBusBandwidth_data();
    void perNicBusBandwidth();
    void multiNodeRing_data();
    void multiNodeRing();
    void article000Volume_data();
    void article000Volume();
    void article000FabricOrdering_data();
    void article000FabricOrdering();
    void sharpVersusRing_data();
    void sharpVersusRing();
    void smallMessageLatency_data();
    void smallMessageLatency();
    void twoNodesBeatNetworkBound_data();
    void twoNodesBeatNetworkBound();
    void refusals_data();
    void refusals();
    void allToAllPxn_data();
    void allToAllPxn();
};

void tst_Collectives::perNicBusBandwidth_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<double>("nicGbps");
    QTest::addColumn<int>("leafRadix");
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");

    // figures.md (high, nccl-tests #290/#267/#319, maintainer): 46-49 GB/s busbw per
    // 400G NDR NIC. The band is the published range itself. 4 servers x 8 x 8 = 32 NICs,
    // one radix-64 leaf.
    QTest::addRow("ib-ndr 400G, 4 servers x 8 GPUs x 8 NICs")
        << QByteArray("ib-ndr") << 400.0 << 64 << 46.0 << 49.0;
    // figures.md (high, nccl-tests #119, nccl #412, maintainer): ~24 GB/s per 200G HDR
    // NIC. "~" read as +-5% (the NDR range spans 47.5 +-3%): 22.8-25.2. 32 NICs fit one
    // radix-40 QM8700.
    QTest::addRow("ib-hdr 200G, 4 servers x 8 GPUs x 8 NICs")
        << QByteArray("ib-hdr") << 200.0 << 40 << 22.8 << 25.2;
}

void tst_Collectives::perNicBusBandwidth() {
    QFETCH(QByteArray, fabricId);
    QFETCH(double, nicGbps);
    QFETCH(int, leafRadix);
    QFETCH(double, lo);
    QFETCH(double, hi);

    // Ring all-reduce of 8 GiB over 32 ranks, non-blocking; busbw of the server / 8 NICs.
    model::GeneratorParams p = cluster(4, 8, 8, nicGbps);
    p.leafRadix = leafRadix;
    const double busBw =
        allReduceBusBw(fabricId.constData(), p, 8 * kGiB, CollectiveAlgorithm::Ring);
    if (QTest::currentTestFailed())
        return;
    qInfo("%s: busbw %.2f GB/s per server, %.2f GB/s per NIC", fabricId.constData(), busBw,
          busBw / 8);
    VERIFY_WITHIN("busbw per NIC", busBw / 8, lo, hi);
}

void tst_Collectives::multiNodeRing_data() {
    QTest::addColumn<int>("servers");

    // figures.md (high, nccl-tests #319, maintainer): multi-node ring all-reduce with
    // 8 x 400G NICs per node reaches ~396 GB/s busbw. Tolerance 5% (376.2-415.8): the
    // maintainer's number is one measurement quoted as "~", and the catalog's
    // lineEfficiency 0.96 (48 of 50 GB/s, the 46-49 row) already puts the network bound
    // at 384, 3% under it; per-step latency takes a little more.
    QTest::addRow("4 servers (one leaf)") << 4;
    QTest::addRow("8 servers (one leaf)") << 8;
    QTest::addRow("16 servers (leaf-spine)") << 16;
}

void tst_Collectives::multiNodeRing() {
    QFETCH(int, servers);

    const double busBw =
        allReduceBusBw("ib-ndr", cluster(servers, 8, 8), 8 * kGiB, CollectiveAlgorithm::Ring);
    if (QTest::currentTestFailed())
        return;
    qInfo("ib-ndr ring, %d servers, 8 GiB: busbw %.2f GB/s (figure ~396)", servers, busBw);
    VERIFY_WITHIN("busbw", busBw, 396 * 0.95, 396 * 1.05);
}

void tst_Collectives::article000Volume_data() {
    QTest::addColumn<double>("nicGbps");
    QTest::addColumn<double>("seconds");

    // Article 000: 405B parameters in BF16 = 810 GB; a ring over N = 8 nodes moves
    // 2(N-1)/N x 810 GB = 1.75 x 810 GB = 1,417.5 GB per node.
    //   400 Gb/s = 50 GB/s:   1,417.5 / 50   = 28.35 s  (article: "roughly 28 seconds")
    //   100 Gb/s = 12.5 GB/s: 1,417.5 / 12.5 = 113.4 s  (article: "~112 seconds")
    // Tolerance 3%: the article rounds (28 vs 28.35 and 112 vs 113.4 are 1.2% apart);
    // latency adds 14 steps x ~5 us, nothing at this size.
    QTest::addRow("400 Gb/s per node") << 400.0 << 28.35;
    QTest::addRow("100 Gb/s per node") << 100.0 << 113.4;
}

void tst_Collectives::article000Volume() {
    QFETCH(double, nicGbps);
    QFETCH(double, seconds);

    // The article's figure is line rate: 8 servers x 1 GPU x 1 NIC on ib-ndr, with the
    // fabric's lineEfficiency taken back out (seconds x lineEfficiency).
    QCOMPARE(busBandwidthFactor(CollectiveOp::AllReduce, 8), 1.75);
    const Run r = run("ib-ndr", cluster(8, 1, 1, nicGbps), CollectiveOp::AllReduce,
                      810'000'000'000LL, CollectiveAlgorithm::Ring);
    if (QTest::currentTestFailed())
        return;
    const double lineRateSeconds = r.result.seconds * builtinFabric("ib-ndr").lineEfficiency;
    qInfo("%g Gb/s: %.4f s simulated, %.4f s at line rate (article %.2f s)", nicGbps,
          r.result.seconds, lineRateSeconds, seconds);
    VERIFY_WITHIN("seconds at line rate", lineRateSeconds, seconds * 0.97, seconds * 1.03);
}

void tst_Collectives::article000FabricOrdering_data() {
    QTest::addColumn<long long>("bytes");

    // Article 000's 8-node, 64-GPU cluster (8 x 8 NICs on one radix-64 switch), busbw at
    // nccl-tests' -b 1G -e 8G sizes.
    QTest::addRow("1 GiB") << kGiB;
    QTest::addRow("2 GiB") << 2 * kGiB;
    QTest::addRow("4 GiB") << 4 * kGiB;
    QTest::addRow("8 GiB") << 8 * kGiB;
}

void tst_Collectives::article000FabricOrdering() {
    QFETCH(long long, bytes);

    // NCCL's own algorithm choice (auto), as all_reduce_perf runs.
    const auto p = cluster(8, 8, 8);
    const double ib = allReduceBusBw("ib-ndr", p, bytes, CollectiveAlgorithm::Auto);
    const double spectrumX = allReduceBusBw("spectrum-x", p, bytes, CollectiveAlgorithm::Auto);
    const double roce = allReduceBusBw("roce-v2", p, bytes, CollectiveAlgorithm::Auto);
    const double untuned = allReduceBusBw("roce-v2-untuned", p, bytes, CollectiveAlgorithm::Auto);
    if (QTest::currentTestFailed())
        return;
    qInfo("busbw GB/s: ib-ndr %.1f, spectrum-x %.1f, roce-v2 %.1f, roce-v2-untuned %.1f", ib,
          spectrumX, roce, untuned);

    // Article 000's ordering: IB NDR highest, Spectrum-X "~85-90% of IB", RoCEv2 "70-80%".
    QVERIFY2(ib > spectrumX && spectrumX > roce && roce > untuned,
             "ib-ndr > spectrum-x > roce-v2 > roce-v2-untuned");
    // The article's own ranges (figures.md: medium for RoCEv2, low for Spectrum-X), used
    // as the bands without extra slack since they are already ranges:
    //   Spectrum-X 800GbE, 8 nodes: 340-360 GB/s
    //   RoCEv2 400GbE well tuned: 270-290 GB/s; poorly tuned: < 200 GB/s.
    // IB NDR has no band here: the article's ~350 (medium) sits below the nccl-tests
    // maintainers' ~396 (high), which multiNodeRing checks; the log shows where it lands.
    VERIFY_WITHIN("spectrum-x busbw", spectrumX, 340.0, 360.0);
    VERIFY_WITHIN("roce-v2 busbw", roce, 270.0, 290.0);
    QVERIFY2(untuned < 200.0,
             qPrintable(QStringLiteral("roce-v2-untuned busbw = %1, expected < 200").arg(untuned)));
}

void tst_Collectives::sharpVersusRing_data() {
    QTest::addColumn<int>("servers");
    QTest::addColumn<int>("gpus"); // per server, with as many NICs
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");

    // figures.md (high, analytic): with SHARP each rank sends its data once up and
    // receives it once down; a ring sends 2(n-1)/n of it each way, so SHARP's busbw
    // approaches 2x the ring's at large sizes: 2(n-1)/n = 1.875 at n = 16, 1.94 at 32.
    // Band 1.6-2.1 where the NIC is the bottleneck (1 GPU per server): the lower end
    // leaves 15% under 2(n-1)/n for latency; the analytic ceiling is 2(n-1)/n < 2, so
    // above 2.1 SHARP would be sending less than the data.
    QTest::addRow("16 servers x 1 GPU x 1 NIC") << 16 << 1 << 1.6 << 2.1;
    QTest::addRow("32 servers x 1 GPU x 1 NIC") << 32 << 1 << 1.6 << 2.1;
    // With 8 H100s per server the reduce-scatter and all-gather inside the server run
    // on NVLink (450 GB/s x 0.82 achievable, figures.md) and take longer than the
    // network stage, so the gain shrinks to about ring-on-NVLink vs ring-on-NICs. Band
    // 1.05-1.35: above ring (SHARP must help) and below the ~1.3x that NVLink SHARP,
    // which FabricLab does not model, reaches on one node (figures.md: 480 vs 370 GB/s).
    QTest::addRow("16 servers x 8 GPUs x 8 NICs") << 16 << 8 << 1.05 << 1.35;
    QTest::addRow("32 servers x 8 GPUs x 8 NICs") << 32 << 8 << 1.05 << 1.35;
}

void tst_Collectives::sharpVersusRing() {
    QFETCH(int, servers);
    QFETCH(int, gpus);
    QFETCH(double, low);
    QFETCH(double, high);

    const auto p = cluster(servers, gpus, gpus);
    const double ring = allReduceBusBw("ib-ndr", p, 8 * kGiB, CollectiveAlgorithm::Ring);
    const double sharp = allReduceBusBw("ib-ndr", p, 8 * kGiB, CollectiveAlgorithm::Sharp);
    if (QTest::currentTestFailed())
        return;
    qInfo("ib-ndr 8 GiB: ring %.2f GB/s, sharp %.2f GB/s, ratio %.3f", ring, sharp, sharp / ring);
    VERIFY_WITHIN("sharp / ring busbw", sharp / ring, low, high);
}

void tst_Collectives::smallMessageLatency_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<int>("servers");
    QTest::addColumn<int>("gpus"); // per server, with as many NICs

    // An 8-byte ring all-reduce over n ranks is 2(n-1) steps of latency. Of those, the
    // 2(s-1) steps that cross between the s servers pay the network step
    //   2 x nicLatency + 1 switch + 4.5 ns/m x (2 x 2 m copper) + NCCL stepLatency
    //   ib-ndr:  650 + 230 + 18 + 4,000 = 4,898 ns;  roce-v2: 1,680 + 700 + 18 + 4,000 = 6,398 ns
    // and the other 2(n-1) - 2(s-1) the scale-up step (h100-sxm: 1.25 us). E.g.
    //   ib-ndr 8 x 1: 14 x 4.898 = 68.6 us;  8 x 8: 14 x 4.898 + 112 x 1.25 = 208.6 us.
    // Tolerance 10%: the bandwidth term (8 B / n per step at >= 35 GB/s) is below 1e-6
    // of the total; the band leaves room for how a step's latency is split, not for a
    // missing or double-counted step (1/14 = 7% at the smallest ring here).
    QTest::addRow("ib-ndr, 2 servers x 1 GPU") << QByteArray("ib-ndr") << 2 << 1;
    QTest::addRow("ib-ndr, 8 servers x 1 GPU") << QByteArray("ib-ndr") << 8 << 1;
    QTest::addRow("ib-ndr, 16 servers x 1 GPU") << QByteArray("ib-ndr") << 16 << 1;
    QTest::addRow("ib-ndr, 2 servers x 8 GPUs") << QByteArray("ib-ndr") << 2 << 8;
    QTest::addRow("ib-ndr, 8 servers x 8 GPUs") << QByteArray("ib-ndr") << 8 << 8;
    QTest::addRow("roce-v2, 8 servers x 1 GPU") << QByteArray("roce-v2") << 8 << 1;
}

void tst_Collectives::smallMessageLatency() {
    QFETCH(QByteArray, fabricId);
    QFETCH(int, servers);
    QFETCH(int, gpus);

    const model::Fabric& f = builtinFabric(fabricId.constData());
    // Every case fits one leaf: one switch and two 2 m copper cables per network step.
    const double networkStep =
        (2 * f.nicLatencyNs + f.switchLatencyNs + 4.5 * 2 * 2) * 1e-9 + f.stepLatencyUs * 1e-6;
    const int n = servers * gpus;
    const int steps = 2 * (n - 1);
    const int crossings = 2 * (servers - 1);
    const double expected =
        crossings * networkStep + (steps - crossings) * h100().scaleUpStepLatencyUs * 1e-6;

    const Run r = run(fabricId.constData(), cluster(servers, gpus, gpus), CollectiveOp::AllReduce,
                      8, CollectiveAlgorithm::Ring);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(r.topology.switchCounts().total(), 1);
    qInfo("%s %d x %d, 8 B: %.3f us, expected %.3f us", fabricId.constData(), servers, gpus,
          r.result.seconds * 1e6, expected * 1e6);
    VERIFY_WITHIN("seconds", r.result.seconds, expected * 0.9, expected * 1.1);
}

void tst_Collectives::twoNodesBeatNetworkBound_data() {
    QTest::addColumn<QByteArray>("fabricId");

    // figures.md (high, nccl-tests results on several clouds): two-node runs beat the
    // network bound, because NCCL switches algorithm at 2 nodes. The bound is what a ring
    // can reach: busbw = the server's 8 NICs' goodput (8 x 48 = 384 GB/s on ib-ndr).
    // The figure is not fabric specific, so each fabric family is a row.
    QTest::addRow("ib-ndr") << QByteArray("ib-ndr");
    QTest::addRow("spectrum-x") << QByteArray("spectrum-x");
    QTest::addRow("roce-v2") << QByteArray("roce-v2");
}

void tst_Collectives::twoNodesBeatNetworkBound() {
    QFETCH(QByteArray, fabricId);

    const Run r = run(fabricId.constData(), cluster(2, 8, 8), CollectiveOp::AllReduce, 8 * kGiB,
                      CollectiveAlgorithm::Auto);
    if (QTest::currentTestFailed())
        return;
    const double bound = 8 * r.nicGoodputGBps;
    qInfo("%s, 2 servers, 8 GiB, auto: %s, busbw %.2f GB/s, network bound %.2f GB/s",
          fabricId.constData(), model::toString(r.result.algorithm).data(), r.result.busBwGBps,
          bound);
    QVERIFY2(r.result.algorithm != CollectiveAlgorithm::Ring,
             qPrintable(QStringLiteral("auto picked %1")
                            .arg(QLatin1String(model::toString(r.result.algorithm).data()))));
    QVERIFY2(r.result.busBwGBps > bound,
             qPrintable(QStringLiteral("busbw %1 <= bound %2").arg(r.result.busBwGBps).arg(bound)));
}

void tst_Collectives::refusals_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<int>("servers");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<CollectiveSpec>("spec");

    const auto spec = [](CollectiveOp op, CollectiveAlgorithm a, long long bytes = kGiB) {
        return CollectiveSpec{op, bytes, a};
    };
    QTest::addRow("all-reduce over 1 rank")
        << QByteArray("ib-ndr") << 1 << 1
        << spec(CollectiveOp::AllReduce, CollectiveAlgorithm::Auto);
    QTest::addRow("all-gather over 1 rank")
        << QByteArray("ib-ndr") << 1 << 1
        << spec(CollectiveOp::AllGather, CollectiveAlgorithm::Ring);
    // roce-v2 has no in-network reduction (inNetworkReduction false).
    QTest::addRow("sharp on roce-v2") << QByteArray("roce-v2") << 4 << 8
                                      << spec(CollectiveOp::AllReduce, CollectiveAlgorithm::Sharp);
    QTest::addRow("tree for all-to-all") << QByteArray("ib-ndr") << 4 << 8
                                         << spec(CollectiveOp::AllToAll, CollectiveAlgorithm::Tree);
    QTest::addRow("ring for all-to-all") << QByteArray("ib-ndr") << 4 << 8
                                         << spec(CollectiveOp::AllToAll, CollectiveAlgorithm::Ring);
    QTest::addRow("pxn for all-reduce") << QByteArray("ib-ndr") << 4 << 8
                                        << spec(CollectiveOp::AllReduce, CollectiveAlgorithm::Pxn);
    QTest::addRow("zero bytes") << QByteArray("ib-ndr") << 4 << 8
                                << spec(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 0);
}

void tst_Collectives::refusals() {
    QFETCH(QByteArray, fabricId);
    QFETCH(int, servers);
    QFETCH(int, gpus);
    QFETCH(CollectiveSpec, spec);

    const model::Topology topology =
        testing::generateOrFail(model::generateLeafSpine, cluster(servers, gpus, gpus));
    if (QTest::currentTestFailed())
        return;
    const FabricNetwork network(topology, builtinFabric(fabricId.constData()));
    const CollectiveGroup group{network.servers(), gpus, h100()};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runCollective(network, group, spec));
}

void tst_Collectives::allToAllPxn_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<double>("oversubscription");

    // figures.md (medium, NVIDIA NCCL 2.12 blog): PXN all-to-all on rail-optimized
    // fabrics, "up to 2x". With PXN the fabric carries only same-rail traffic, which stays
    // under a rail leaf or crosses the spines once; direct sends cross-rail pairs through
    // the spines. So pxn >= direct, and not above 2x. 16 servers x 8 GPUs x 8 NICs,
    // rail-optimized, 1 GiB per rank.
    QTest::addRow("ib-ndr, 1:1") << QByteArray("ib-ndr") << 1.0;
    QTest::addRow("ib-ndr, 2:1") << QByteArray("ib-ndr") << 2.0;
    QTest::addRow("spectrum-x, 2:1") << QByteArray("spectrum-x") << 2.0;
    QTest::addRow("roce-v2 (static ECMP), 1:1") << QByteArray("roce-v2") << 1.0;
    QTest::addRow("roce-v2 (static ECMP), 2:1") << QByteArray("roce-v2") << 2.0;
}

void tst_Collectives::allToAllPxn() {
    QFETCH(QByteArray, fabricId);
    QFETCH(double, oversubscription);

    const auto p = cluster(16, 8, 8, 400, oversubscription);
    const Run direct =
        run(fabricId.constData(), p, CollectiveOp::AllToAll, kGiB, CollectiveAlgorithm::Direct);
    const Run pxn =
        run(fabricId.constData(), p, CollectiveOp::AllToAll, kGiB, CollectiveAlgorithm::Pxn);
    const Run chosen =
        run(fabricId.constData(), p, CollectiveOp::AllToAll, kGiB, CollectiveAlgorithm::Auto);
    if (QTest::currentTestFailed())
        return;
    const double ratio = pxn.result.busBwGBps / direct.result.busBwGBps;
    qInfo("%s %g:1 all-to-all busbw: direct %.2f, pxn %.2f GB/s (x%.3f)", fabricId.constData(),
          oversubscription, direct.result.busBwGBps, pxn.result.busBwGBps, ratio);
    // Equal when the fabric is non-blocking for both: same bytes, same NICs; 1e-9 for
    // the different order of summation in the two simulations.
    QVERIFY2(ratio >= 1 - 1e-9, qPrintable(describe("pxn / direct", ratio, 1, 2)));
    QVERIFY2(ratio <= 2, qPrintable(describe("pxn / direct", ratio, 1, 2)));
    // NCCL enables PXN by default where servers have a NIC per rail.
    QVERIFY2(chosen.result.algorithm == CollectiveAlgorithm::Pxn,
             qPrintable(QStringLiteral("auto picked %1")
                            .arg(QLatin1String(model::toString(chosen.result.algorithm).data()))));
}

QTEST_APPLESS_MAIN(tst_Collectives)
#include "tst_Collectives.moc"
