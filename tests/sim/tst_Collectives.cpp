// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Collectives (Collectives.hpp) on generated leaf-spine fabrics of H100 servers: the
// bounds physics sets (line rate, the data SHARP and PXN save, the article's volume
// arithmetic), what NCCL's choice does at two nodes, and refusals. Comparisons with
// published nccl-tests figures live in tests/validation; busbw follows nccl-tests: algbw x
// 2(n-1)/n for all-reduce, x (n-1)/n for all-gather and all-to-all.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/analysis/Connectivity.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/design/CollectiveSpec.hpp"
#include "model/design/Failures.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/Collectives.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/NcclExecution.hpp"
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
using model::CollectiveProtocol;
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
    r.nicGoodputGBps = model::toGBps(network.nicGoodput({network.servers().front(), 0})).value;
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
Q_DECLARE_METATYPE(fabriclab::model::CollectiveAlgorithm)
Q_DECLARE_METATYPE(fabriclab::model::CollectiveProtocol)

class tst_Collectives : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void article000Volume_data();
    void article000Volume();
    void article000FabricOrdering_data();
    void article000FabricOrdering();
    void sharpVersusRing_data();
    void sharpVersusRing();
    void twoNodesBeatNetworkBound_data();
    void twoNodesBeatNetworkBound();
    void refusals_data();
    void refusals();
    void busBandwidthWithinLineRate_data();
    void busBandwidthWithinLineRate();
    void everyNicCarriesTraffic_data();
    void everyNicCarriesTraffic();
    void inNetworkReductionOnlyWhenEnabled();
    void efaJobsFollowTheirTuner_data();
    void efaJobsFollowTheirTuner();
    void allToAllPxn_data();
    void allToAllPxn();
    void efaAllToAllAddsPluginTime();
    void railPlanesCarryOnlyTheirRails();
    void sendRecvMovesOneGpusShare_data();
    void sendRecvMovesOneGpusShare();
    void ecmpDrawsAverageTheHashLuck_data();
    void ecmpDrawsAverageTheHashLuck();
};

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
    // The article's bands are the fit set of tests/validation (the fabrics' line
    // efficiencies come from them); here only the order, which no constant is tuned to.
    QVERIFY2(ib > spectrumX && spectrumX > roce && roce > untuned,
             "ib-ndr > spectrum-x > roce-v2 > roce-v2-untuned");
}

void tst_Collectives::sharpVersusRing_data() {
    QTest::addColumn<int>("servers");
    QTest::addColumn<int>("gpus"); // per server, with as many NICs

    // docs/reference/published-figures.md (high, analytic): with SHARP each rank sends its data
    // once up and receives it once down; a ring sends 2(n-1)/n of it each way. With one GPU per
    // server the NIC is the only bottleneck: SHARP's algbw cannot pass the NIC's goodput (it would
    // be sending less than the data), so its busbw stays under 2(n-1)/n x goodput. Its busbw
    // must be at least 1.5 x the ring's: NCCL's CollNet model keeps 85-100% of the NIC
    // (docs/reference/nccl-cost-model.md §1.4), so anything under 1.5 at 16+ servers would mean the
    // saving was lost.
    QTest::addRow("16 servers x 1 GPU x 1 NIC") << 16 << 1;
    QTest::addRow("32 servers x 1 GPU x 1 NIC") << 32 << 1;
    // With 8 H100s per server, NVLink limits SHARP (NVLS with switch reduction): above the
    // ring, and never above what NVLink SHARP reaches on one server, where there is no
    // network at all (the same engine's single-server NVLS busbw).
    QTest::addRow("16 servers x 8 GPUs x 8 NICs") << 16 << 8;
    QTest::addRow("32 servers x 8 GPUs x 8 NICs") << 32 << 8;
}

void tst_Collectives::sharpVersusRing() {
    QFETCH(int, servers);
    QFETCH(int, gpus);

    const auto p = cluster(servers, gpus, gpus);
    const double ring = allReduceBusBw("ib-ndr", p, 8 * kGiB, CollectiveAlgorithm::Ring);
    const double sharp = allReduceBusBw("ib-ndr", p, 8 * kGiB, CollectiveAlgorithm::Sharp);
    if (QTest::currentTestFailed())
        return;
    const int n = servers * gpus;
    qInfo("ib-ndr 8 GiB: ring %.2f GB/s, sharp %.2f GB/s, ratio %.3f", ring, sharp, sharp / ring);
    if (gpus == 1) {
        const double goodput = builtinFabric("ib-ndr").lineEfficiency * 400 / 8;
        VERIFY_WITHIN("sharp busbw", sharp, 1.5 * ring, 2.0 * (n - 1) / n * goodput);
        return;
    }
    const double oneServer =
        allReduceBusBw("ib-ndr", cluster(1, gpus, gpus), 8 * kGiB, CollectiveAlgorithm::Nvls);
    VERIFY_WITHIN("sharp busbw", sharp, ring * 1.05, oneServer * (1 + 1e-9));
}

void tst_Collectives::twoNodesBeatNetworkBound_data() {
    QTest::addColumn<QByteArray>("fabricId");

    // docs/reference/published-figures.md (high, nccl-tests results on several clouds): two-node
    // runs beat the network bound, because NCCL switches algorithm at 2 nodes. The bound is what a
    // ring can reach: busbw = the server's 8 NICs' goodput (8 x 48 = 384 GB/s on ib-ndr). The
    // figure is not fabric specific, so each fabric family is a row.
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
    QTest::addRow("ring for send/recv") << QByteArray("ib-ndr") << 2 << 8
                                        << spec(CollectiveOp::SendRecv, CollectiveAlgorithm::Ring);
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

void tst_Collectives::busBandwidthWithinLineRate_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<int>("servers");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("nics");
    QTest::addColumn<double>("nicGbps");
    QTest::addColumn<double>("oversubscription");

    // The physical bound: with SHARP off, every byte of an all-reduce leaves each server at
    // least 2(n-1)/n times over its NICs on a ring of n GPUs, and as often as the busiest
    // server of NCCL's double binary tree does on a tree: 1.5 times on 3 servers, twice from
    // 4 on. busbw counts 2(n-1)/n, so it cannot pass the servers' NIC line rate (nics x Gb/s
    // / 8) x 2(n-1)/n over the lesser of the two: the line rate from 4 servers on (nccl-tests
    // #290, #319), 1.28 times it on 3 servers of 8 GPUs (three GB200 trays reach 1.17 times,
    // NVIDIA/nccl#1801). Checked at every size from 8 B to 8 GiB.
    QTest::addRow("ib-ndr 3 x 8 x 8") << QByteArray("ib-ndr") << 3 << 8 << 8 << 400.0 << 1.0;
    QTest::addRow("ib-ndr 4 x 8 x 8") << QByteArray("ib-ndr") << 4 << 8 << 8 << 400.0 << 1.0;
    QTest::addRow("ib-ndr 16 x 8 x 8, 2:1") << QByteArray("ib-ndr") << 16 << 8 << 8 << 400.0 << 2.0;
    QTest::addRow("ib-ndr 4 x 8 x 4") << QByteArray("ib-ndr") << 4 << 8 << 4 << 400.0 << 1.0;
    QTest::addRow("ib-ndr 4 x 8 x 2") << QByteArray("ib-ndr") << 4 << 8 << 2 << 400.0 << 1.0;
    QTest::addRow("ib-ndr 8 x 4 x 4") << QByteArray("ib-ndr") << 8 << 4 << 4 << 400.0 << 1.0;
    QTest::addRow("ib-hdr 4 x 8 x 8") << QByteArray("ib-hdr") << 4 << 8 << 8 << 200.0 << 1.0;
    QTest::addRow("roce-v2 4 x 8 x 8") << QByteArray("roce-v2") << 4 << 8 << 8 << 400.0 << 1.0;
    QTest::addRow("spectrum-x 8 x 8 x 8")
        << QByteArray("spectrum-x") << 8 << 8 << 8 << 400.0 << 1.0;
    QTest::addRow("ib-ndr 4 x 8 x 16 (200G)")
        << QByteArray("ib-ndr") << 4 << 8 << 16 << 200.0 << 1.0;
}

void tst_Collectives::busBandwidthWithinLineRate() {
    QFETCH(QByteArray, fabricId);
    QFETCH(int, servers);
    QFETCH(int, gpus);
    QFETCH(int, nics);
    QFETCH(double, nicGbps);
    QFETCH(double, oversubscription);

    const model::Topology topology = testing::generateOrFail(
        model::generateLeafSpine, cluster(servers, gpus, nics, nicGbps, oversubscription));
    if (QTest::currentTestFailed())
        return;
    const FabricNetwork network(topology, builtinFabric(fabricId.constData()));
    const CollectiveGroup group{network.servers(), gpus, h100()};
    const double ranks = servers * gpus;
    const double ringLoad = 2 * (ranks - 1) / ranks;
    const double treeLoad = servers == 3 ? 1.5 : 2.0; // worked in tst_NcclExecution
    const double lineRate = nics * nicGbps / 8 * ringLoad / std::min(ringLoad, treeLoad);
    PhaseCache cache;
    // NCCL's own choice and every algorithm a user may force without SHARP; those that do
    // not apply to the group (PAT with several GPUs per server) are refused, not timed.
    const CollectiveAlgorithm algorithms[] = {
        CollectiveAlgorithm::Auto, CollectiveAlgorithm::Ring,
        CollectiveAlgorithm::Tree, CollectiveAlgorithm::NvlsTree,
        CollectiveAlgorithm::Pat,  CollectiveAlgorithm::Hierarchical};
    int timed = 0;
    for (const CollectiveAlgorithm algorithm : algorithms)
        for (double bytes = 8; bytes <= 8.0 * kGiB; bytes *= 4) {
            CollectiveResult r;
            try {
                r = runCollective(network, group,
                                  CollectiveSpec{CollectiveOp::AllReduce,
                                                 static_cast<long long>(bytes), algorithm},
                                  {}, false, &cache);
            } catch (const std::invalid_argument&) {
                continue;
            }
            ++timed;
            QVERIFY2(
                r.busBwGBps <= lineRate,
                qPrintable(QStringLiteral("%1 B, asked %2: %3 %4 busbw %5 GB/s above the %6 GB/s "
                                          "line rate")
                               .arg(bytes)
                               .arg(QLatin1String(model::toString(algorithm).data()))
                               .arg(QLatin1String(model::toString(r.algorithm).data()))
                               .arg(QLatin1String(model::toString(r.protocol).data()))
                               .arg(r.busBwGBps)
                               .arg(lineRate)));
        }
    // Auto, ring, tree and hierarchical apply to every group here, at all 14 sizes.
    QVERIFY2(timed >= 4 * 14, qPrintable(QStringLiteral("only %1 runs were timed").arg(timed)));
}

void tst_Collectives::everyNicCarriesTraffic_data() {
    QTest::addColumn<int>("nics");
    QTest::addColumn<double>("nicGbps");

    // 8 GPUs per server with 3.2 Tb/s of NICs in three shapes: 8 x 400G (HGX with
    // ConnectX-7), 16 x 200G, 32 x 100G (AWS p5's EFA count). Each must reach what the
    // other shapes reach: NCCL spreads channels over every NIC (docs/reference/nccl-cost-model.md
    // §4.1), the EFA plugin stripes over four NICs per GPU (aws-ofi-nccl #890). The reference is 8
    // x 400G.
    QTest::addRow("16 x 200G") << 16 << 200.0;
    QTest::addRow("32 x 100G") << 32 << 100.0;
}

void tst_Collectives::everyNicCarriesTraffic() {
    QFETCH(int, nics);
    QFETCH(double, nicGbps);

    const auto shape = [&](int count, double gbps) {
        auto p = cluster(4, 8, count, gbps);
        p.leafRadix = 128;
        p.spineRadix = 128;
        return allReduceBusBw("ib-ndr", p, 8 * kGiB, CollectiveAlgorithm::Ring);
    };
    const double reference = shape(8, 400);
    const double busBw = shape(nics, nicGbps);
    if (QTest::currentTestFailed())
        return;
    qInfo("%d x %gG: busbw %.1f GB/s; 8 x 400G: %.1f GB/s", nics, nicGbps, busBw, reference);
    // Within 5%: NCCL's per-channel speeds differ by shape (24 GB/s for a 200G NIC is 96%
    // of its line rate, 48 of 50 for 400G), nothing else may.
    VERIFY_WITHIN("busbw / 8 x 400G busbw", busBw / reference, 0.95, 1.05);
}

void tst_Collectives::inNetworkReductionOnlyWhenEnabled() {
    // NCCL runs CollNet/SHARP only with NCCL_COLLNET_ENABLE=1 (docs/reference/nccl-cost-model.md
    // §2.9): on an InfiniBand fabric whose switches can reduce, auto must not pick it unless the
    // group enables it, and then it must.
    const model::Topology topology =
        testing::generateOrFail(model::generateLeafSpine, cluster(16, 1, 1));
    if (QTest::currentTestFailed())
        return;
    const FabricNetwork network(topology, builtinFabric("ib-ndr"));
    CollectiveGroup group{network.servers(), 1, h100()};
    const CollectiveSpec spec{CollectiveOp::AllReduce, 8 * kGiB};
    const auto isReduction = [](CollectiveAlgorithm a) {
        return a == CollectiveAlgorithm::CollNetDirect || a == CollectiveAlgorithm::CollNetChain ||
               a == CollectiveAlgorithm::Nvls;
    };
    QVERIFY(!isReduction(runCollective(network, group, spec).algorithm));
    group.inNetworkReduction = true;
    QVERIFY(isReduction(runCollective(network, group, spec).algorithm));
}

void tst_Collectives::efaJobsFollowTheirTuner_data() {
    QTest::addColumn<int>("servers");
    QTest::addColumn<long long>("bytes");
    QTest::addColumn<CollectiveAlgorithm>("asked");
    QTest::addColumn<QString>("failed");
    QTest::addColumn<QByteArray>("chosenBy");
    QTest::addColumn<CollectiveAlgorithm>("ran");
    QTest::addColumn<CollectiveProtocol>("protocol");
    // p5 servers (8 H100, 32 x 100G EFA) running an all-reduce. From 3 servers aws-ofi-nccl's
    // polygons pick ring Simple at 8 GiB on 4 servers (tst_AwsOfiTuner), where NCCL's model
    // runs NVLS-tree.
    QTest::addRow("4 servers: the tuner")
        << 4 << 8 * kGiB << CollectiveAlgorithm::Auto << QString() << QByteArray("aws-ofi-nccl")
        << CollectiveAlgorithm::Ring << CollectiveProtocol::Simple;
    // The plugin reads the instance type: a failed rail leaves the servers p5s.
    QTest::addRow("4 servers, a rail down: still the tuner")
        << 4 << 8 * kGiB << CollectiveAlgorithm::Auto << QStringLiteral("rail-1")
        << QByteArray("aws-ofi-nccl") << CollectiveAlgorithm::Ring << CollectiveProtocol::Simple;
    // Two servers are left to NCCL by the plugin.
    QTest::addRow("2 servers: NCCL")
        << 2 << 8 * kGiB << CollectiveAlgorithm::Auto << QString() << QByteArray("nccl")
        << CollectiveAlgorithm::NvlsTree << CollectiveProtocol::Simple;
    // NCCL_ALGO=ring takes the other algorithms out of the table the plugin reads; it still
    // picks the protocol: its ring LL128 polygon holds 1 GiB on 64 ranks, where NCCL's own
    // model would run ring Simple.
    QTest::addRow("NCCL_ALGO=ring: the tuner's protocol")
        << 8 << 1 * kGiB << CollectiveAlgorithm::Ring << QString() << QByteArray("aws-ofi-nccl")
        << CollectiveAlgorithm::Ring << CollectiveProtocol::LL128;
}

void tst_Collectives::efaJobsFollowTheirTuner() {
    QFETCH(int, servers);
    QFETCH(long long, bytes);
    QFETCH(CollectiveAlgorithm, asked);
    QFETCH(QString, failed);
    QFETCH(QByteArray, chosenBy);
    QFETCH(CollectiveAlgorithm, ran);
    QFETCH(CollectiveProtocol, protocol);
    model::Topology topology =
        testing::generateOrFail(model::generateLeafSpine, cluster(servers, 8, 32, 100));
    if (QTest::currentTestFailed())
        return;
    if (!failed.isEmpty()) {
        const std::size_t built = topology.nodes().size();
        topology = model::afterFailures(
            topology, {model::Failure{failed.toStdString(), model::FailureKind::Down, 0, 1}});
        QCOMPARE(topology.nodes().size(), built - 1); // it did fail
    }
    const FabricNetwork network(topology, builtinFabric("efa"));
    const CollectiveGroup group{network.servers(), 8, h100()};
    const CollectiveResult r =
        runCollective(network, group, CollectiveSpec{CollectiveOp::AllReduce, bytes, asked});
    QCOMPARE(QByteArray::fromStdString(r.chosenBy), chosenBy);
    QCOMPARE(model::toString(r.algorithm), model::toString(ran));
    QCOMPARE(model::toString(r.protocol), model::toString(protocol));
}

void tst_Collectives::allToAllPxn_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<double>("oversubscription");

    // docs/reference/published-figures.md (medium, NVIDIA NCCL 2.12 blog): PXN all-to-all on
    // rail-optimized fabrics, "up to 2x". With PXN the fabric carries only same-rail traffic, which
    // stays under a rail leaf or crosses the spines once; direct sends cross-rail pairs through the
    // spines. So pxn >= direct, and not above 2x. 16 servers x 8 GPUs x 8 NICs, rail-optimized, 1
    // GiB per rank.
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

void tst_Collectives::efaAllToAllAddsPluginTime() {
    // 8 p5 servers (8 H100, 32 x 100G EFA), 32 MiB all-to-all: each GPU sends 32 MiB / 64 =
    // 512 KiB to each of its 56 peers on other servers. The same fabric without the plugin's
    // software time runs the same transfers; the difference is exactly p2pOverheadSeconds:
    // 512 KiB pieces go in 256 KiB chunks (NCCL's rule for the 512 KiB setting), 2 per peer.
    const auto p = cluster(8, 8, 32, 100);
    const auto topology = testing::generateOrFail(model::generateLeafSpine, p);
    if (QTest::currentTestFailed())
        return;
    const model::Fabric efa = builtinFabric("efa");
    model::Fabric bare = efa;
    bare.p2p = model::P2pExecution{efa.p2p.chunkBytes, 0, 0, 0};
    const auto time = [&](const model::Fabric& fabric) {
        const FabricNetwork network(topology, fabric);
        const CollectiveGroup group{network.servers(), 8, h100()};
        return runCollective(network, group,
                             CollectiveSpec{CollectiveOp::AllToAll, 32 * 1024 * 1024,
                                            CollectiveAlgorithm::Auto})
            .seconds;
    };
    const double piece = 32.0 * 1024 * 1024 / 64;
    const double plugin = nccl::p2pOverheadSeconds(efa.p2p, piece, 56);
    QCOMPARE(plugin, (efa.p2p.startUs + 56 * (efa.p2p.peerUs + 2 * efa.p2p.chunkUs)) * 1e-6);
    QVERIFY(plugin > 0);
    const double withPlugin = time(efa);
    const double transfers = time(bare);
    QVERIFY2(std::abs(withPlugin - transfers - plugin) <= 1e-12 * withPlugin,
             qPrintable(QStringLiteral("%1 s with the plugin, %2 s without, plugin %3 s")
                            .arg(withPlugin)
                            .arg(transfers)
                            .arg(plugin)));
}

void tst_Collectives::railPlanesCarryOnlyTheirRails() {
    // 24 servers of 8 NICs on radix-16 switches: 3 units x 8 = 24 rail leaves, more than a
    // spine's 16 ports, so the generator gives rails 1-4 and 5-8 spines of their own.
    const model::GeneratorParams p =
        testing::generatorRequest("leaf-spine", 24, 8, true, 16, 16, 16, 1.0, 1.0);
    const Run pxn = run("ib-ndr", p, CollectiveOp::AllToAll, kGiB, CollectiveAlgorithm::Auto);
    if (QTest::currentTestFailed())
        return;
    // Same-rail traffic runs across the planes' spines; what crosses rails goes by NVLink.
    // Both fabrics are non-blocking for it, so the planes deliver what one plane of
    // radix-32 spines over the same leaves does (1e-6: the same flows, solved apart).
    QVERIFY(pxn.result.algorithm == CollectiveAlgorithm::Pxn);
    model::GeneratorParams onePlane = p;
    onePlane.spineRadix = 32;
    const Run single =
        run("ib-ndr", onePlane, CollectiveOp::AllToAll, kGiB, CollectiveAlgorithm::Auto);
    QCOMPARE(model::switchPlanes(single.topology), 1);
    QCOMPARE(model::switchPlanes(pxn.topology), 2);
    QVERIFY2(std::abs(pxn.result.busBwGBps / single.result.busBwGBps - 1) < 1e-6,
             qPrintable(QStringLiteral("planes %1, one plane %2 GB/s")
                            .arg(pxn.result.busBwGBps)
                            .arg(single.result.busBwGBps)));
    // A lost NIC shifts that server's NICs onto other rails, some in the other plane: its
    // peers take that data on a NIC the sender's plane reaches, and the run goes on, never
    // faster than the whole fabric.
    const double whole = allReduceBusBw("ib-ndr", p, kGiB, CollectiveAlgorithm::Ring);
    model::Topology damaged = pxn.topology;
    damaged.removeLink(damaged.linksOf(*damaged.findNode("srv-1")).front());
    const FabricNetwork lostNic(damaged, builtinFabric("ib-ndr"));
    const CollectiveGroup all{lostNic.servers(), 8, h100()};
    const double degraded =
        runCollective(lostNic, all,
                      CollectiveSpec{CollectiveOp::AllReduce, kGiB, CollectiveAlgorithm::Ring})
            .busBwGBps;
    QVERIFY2(degraded > 0 && degraded <= whole,
             qPrintable(QStringLiteral("%1 of %2 GB/s").arg(degraded).arg(whole)));
    // Direct sends would need a switch path between rails of different planes: refused, and
    // the message says why and what to use.
    const FabricNetwork network(pxn.topology, builtinFabric("ib-ndr"));
    const CollectiveGroup group{network.servers(), 8, h100()};
    try {
        runCollective(network, group,
                      CollectiveSpec{CollectiveOp::AllToAll, kGiB, CollectiveAlgorithm::Direct});
        QFAIL("a direct all-to-all across rail planes ran");
    } catch (const std::invalid_argument& refusal) {
        const QString message = QString::fromStdString(refusal.what());
        QVERIFY2(message.contains(QStringLiteral("rail planes")) &&
                     message.contains(QStringLiteral("use pxn")),
                 qPrintable(message));
    }
}

void tst_Collectives::sendRecvMovesOneGpusShare_data() {
    QTest::addColumn<int>("servers");
    QTest::addColumn<int>("nics");
    QTest::addColumn<double>("nicGbps");

    // nccl-tests' sendrecv: each rank sends its 8 GiB to the next rank. Between servers only
    // the last GPU of a server sends across, over the NICs next to one GPU, so busbw (= algbw)
    // is one GPU's share of the NICs' goodput: 1 x 400G or 4 x 100G (p5's shape) per GPU.
    // On one server every send is an NVLink transfer: the GPU's achievable scale-up rate.
    QTest::addRow("2 servers, 8 x 400G") << 2 << 8 << 400.0;
    QTest::addRow("4 servers, 32 x 100G") << 4 << 32 << 100.0;
    QTest::addRow("1 server (NVLink)") << 1 << 8 << 400.0;
}

void tst_Collectives::sendRecvMovesOneGpusShare() {
    QFETCH(int, servers);
    QFETCH(int, nics);
    QFETCH(double, nicGbps);

    auto params = cluster(servers, 8, nics, nicGbps);
    params.leafRadix = params.spineRadix = 128;
    const Run r =
        run("ib-ndr", params, CollectiveOp::SendRecv, 8 * kGiB, CollectiveAlgorithm::Auto);
    if (QTest::currentTestFailed())
        return;
    const double expected =
        servers > 1 ? r.nicGoodputGBps * nics / 8 : h100().scaleUpGBps * h100().scaleUpEfficiency;
    qInfo("send/recv busbw %.2f GB/s, hand-worked %.2f", r.result.busBwGBps, expected);
    QCOMPARE(r.result.busBwGBps, r.result.algBwGBps); // nccl-tests' factor for sendrecv is 1
    // Within 1% below: 8 GiB at ~48 GB/s takes 179 ms, against some 10 us of start-up.
    VERIFY_WITHIN("busbw / hand-worked rate", r.result.busBwGBps / expected, 0.99, 1.0 + 1e-9);
}

void tst_Collectives::ecmpDrawsAverageTheHashLuck_data() {
    QTest::addColumn<CollectiveOp>("op");
    QTest::addColumn<int>("draws");
    // 128 ring flows: 32 draws. The all-to-all's 1,920 PXN flows also stay under the 2K
    // below which a pattern gets all 32.
    QTest::newRow("all-reduce") << CollectiveOp::AllReduce << 32;
    QTest::newRow("all-to-all") << CollectiveOp::AllToAll << 32;
}

void tst_Collectives::ecmpDrawsAverageTheHashLuck() {
    // 16 top-of-rack servers at 2:1 on static ECMP: each server's flows hash onto the leaf's
    // uplinks, so one set of hash keys can be lucky or unlucky (a single draw of the
    // all-reduce ran 69 to 91 GB/s busbw across network seeds). Every operation is timed over
    // draws of flow keys and reports their mean with the slowest and fastest.
    QFETCH(CollectiveOp, op);
    QFETCH(int, draws);
    const auto params = testing::generatorRequest("leaf-spine", 16, 8, false, 64, 64, 64, 2.0, 1.0);
    const model::Topology topology = testing::generateOrFail(model::generateLeafSpine, params);
    if (QTest::currentTestFailed())
        return;
    const CollectiveSpec spec{op, kGiB};
    double lowestMean = 1e300;
    double highestMean = 0;
    double narrowestDraws = 1e300;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        const FabricNetwork network(topology, builtinFabric("roce-v2"), seed);
        const CollectiveResult r =
            runCollective(network, CollectiveGroup{network.servers(), 8, h100()}, spec);
        QCOMPARE(r.ecmpDraws, draws);
        QVERIFY2(r.busBwMinGBps <= r.busBwGBps && r.busBwGBps <= r.busBwMaxGBps,
                 qPrintable(describe("busbw", r.busBwGBps, r.busBwMinGBps, r.busBwMaxGBps)));
        lowestMean = std::min(lowestMean, r.busBwGBps);
        highestMean = std::max(highestMean, r.busBwGBps);
        narrowestDraws = std::min(narrowestDraws, r.busBwMaxGBps - r.busBwMinGBps);
    }
    qInfo("means %.1f to %.1f GB/s across seeds; narrowest spread of draws %.1f GB/s", lowestMean,
          highestMean, narrowestDraws);
    // The means agree far more closely than the draws behind any one of them: the reported
    // figure no longer rides on one seed's luck.
    QVERIFY(narrowestDraws > 0);
    QVERIFY2(highestMean - lowestMean < 0.5 * narrowestDraws,
             qPrintable(QStringLiteral("means %1..%2, draws spread %3")
                            .arg(lowestMean)
                            .arg(highestMean)
                            .arg(narrowestDraws)));

    // Adaptive routing spreads by load, not by hash: one draw, no spread.
    const FabricNetwork adaptive(topology, builtinFabric("ib-ndr"), 1);
    const CollectiveResult a =
        runCollective(adaptive, CollectiveGroup{adaptive.servers(), 8, h100()}, spec);
    QCOMPARE(a.ecmpDraws, 1);
    QCOMPARE(a.busBwMinGBps, a.busBwGBps);
    QCOMPARE(a.busBwMaxGBps, a.busBwGBps);
}

QTEST_APPLESS_MAIN(tst_Collectives)
#include "tst_Collectives.moc"
