// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Training step time (StepTime.hpp): compute from FLOPs, communication from the flow
// simulator, and the quantities derived from them. Compute is the closed form
//   (6 x active parameters + 12 x layers x hidden x sequence) x tokens / (GPUs x peak x MFU)
// (PaLM's count, attention included); gradient bytes, recomputation, bubbles and context
// traffic are worked out by hand below; the rest are identities of the result or
// comparisons between fabrics.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/design/Workload.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/IdealNetwork.hpp"
#include "model/workload/StepTime.hpp"
#include "support/BuiltinCatalog.hpp"
#include "support/GeneratorRequests.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#endif

using namespace fabriclab;
using namespace fabriclab::sim;
using namespace fabriclab::model;

using fabriclab::testing::builtinFabric;

namespace {

// Every identity below is the same arithmetic the engine does, possibly in another
// order: 1e-12 relative is far above double rounding and far below any real error.
constexpr double kRelTol = 1e-12;

bool fuzzyEqual(double actual, double expected) {
    return std::abs(actual - expected) <= kRelTol * std::max(std::abs(actual), std::abs(expected));
}

#define COMPARE_REL(actual, expected)                                                              \
    QVERIFY2(fuzzyEqual((actual), (expected)), qPrintable(QStringLiteral("%1 = %2, expected %3")   \
                                                              .arg(QLatin1String(#actual))         \
                                                              .arg((actual), 0, 'g', 17)           \
                                                              .arg((expected), 0, 'g', 17)))

const model::Catalog& catalog() {
    return model::Catalog::builtin();
}

/// A job on the built-in catalog's model and GPU. mfu < 0: the GPU's default.
struct Job {
    QByteArray modelId;
    QByteArray gpuId = "h100-sxm";
    long long tokens = 4194304;
    int tp = 1;
    int pp = 1;
    int dp = 1;
    int ep = 1;
    double mfu = -1;
    bool fp8 = false;
    double overlap = 0;
    int cp = 1;
    int vpp = 1;
    int seqLen = 0;      ///< 0: the model's context length
    bool causal = false; ///< attention counted with a causal mask
    model::Recompute recompute = model::Recompute::None;

    static Job of(const char* model, int tp, int pp, int dp) {
        Job j;
        j.modelId = model;
        j.tp = tp;
        j.pp = pp;
        j.dp = dp;
        return j;
    }
};

model::Workload workload(const Job& job) {
    const model::ModelSpec* m = catalog().findModel(job.modelId.constData());
    const model::GpuSpec* g = catalog().findGpu(job.gpuId.constData());
    if (!m || !g)
        throw std::logic_error("job names a model or GPU the built-in catalog lacks");
    model::Workload w;
    w.model = {*m, false};
    w.gpu = {*g, false};
    w.globalBatchTokens = job.tokens;
    w.tp = job.tp;
    w.pp = job.pp;
    w.dp = job.dp;
    w.ep = job.ep;
    w.cp = job.cp;
    w.vpp = job.vpp;
    w.recompute = job.recompute;
    w.precision = job.fp8 ? model::Precision::Fp8 : model::Precision::Bf16;
    if (job.mfu > 0)
        w.mfu = job.mfu;
    w.overlap = job.overlap;
    if (job.seqLen > 0)
        w.seqLen = job.seqLen;
    if (job.causal)
        w.attentionFlops = model::AttentionFlops::Causal;
    return w;
}

/// `servers` 8-GPU servers with 8 x 400G NICs, rail-optimized, 1:1, radix 64.
model::Topology cluster(int servers) {
    return testing::generateOrFail(
        model::generateLeafSpine,
        testing::generatorRequest("leaf-spine", servers, 8, true, 64, 64, 64, 1.0, 1.0));
}

StepTime step(const model::Topology& topology, const char* fabricId, const Job& job) {
    const FabricNetwork network(topology, builtinFabric(fabricId));
    return estimateStep(network, workload(job));
}

} // namespace

Q_DECLARE_METATYPE(Job)

class tst_StepTime : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void computeSeconds_data();
    void computeSeconds();
    void splitMustMatchGpus_data();
    void splitMustMatchGpus();
    void overlapHidesDataParallel_data();
    void overlapHidesDataParallel();
    void derivedQuantities_data();
    void derivedQuantities();
    void infinibandNotSlowerThanRoce_data();
    void infinibandNotSlowerThanRoce();
    void partsAddUp_data();
    void partsAddUp();
    void expertGradientsShardedByEp();
    void expertAllToAllCarriesOwnTokens();
    void recomputationRaisesHfuNotTime_data();
    void recomputationRaisesHfuNotTime();
    void pipelineBubble();
    void contextParallelAcrossServers();
    void assumptionsAreListed();
    void idealNetworkIsOneLineRateSwitch();
    void fabricChargedBeyondIdeal();
    void oversubscriptionIsCharged();
    void trafficInsideServersIsNotFabric();
    void idealDoesNotDependOnTheFabric();
    void mfuCannotHideMoreThanTheStep();
};

void tst_StepTime::computeSeconds_data() {
    QTest::addColumn<int>("servers");
    QTest::addColumn<Job>("job");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<double>("mfu");

    Job j70 = Job::of("llama3-70b", 8, 1, 8);
    j70.mfu = 0.4;
    // The input embedding (128,256 x 8,192 untied, Llama 3's config) is a lookup, not a
    // product: (6 x (70.6e9 - 1.0507e9) + 12 x 80 x 8192 x 8192) x 4,194,304
    // = 2.02048e18 FLOP; 64 x 989e12 x 0.4 = 2.53184e16 FLOP/s -> 79.8029 s.
    QTest::addRow("llama3-70b, 64 H100, MFU 0.4") << 8 << j70 << 79.80291394469921 << 0.4;

    Job j8 = Job::of("llama3-8b", 1, 1, 8);
    j8.mfu = 0.4;
    // (6 x (8.03e9 - 128,256 x 4,096) + 12 x 32 x 4096 x 8192) x 4,194,304
    // / (8 x 989e12 x 0.4) = 76.7518 s.
    QTest::addRow("llama3-8b, 8 H100, MFU 0.4") << 1 << j8 << 76.75184354021339 << 0.4;

    // Counted as Megatron-Bridge counts it, with a causal mask: half the attention term,
    // (6 x (8.03e9 - 5.2533e8) + 6 x 32 x 4096 x 8192) x 4,194,304 / (8 x 989e12 x 0.4)
    // = 68.2137 s.
    Job causal = j8;
    causal.causal = true;
    QTest::addRow("llama3-8b, causal attention count") << 1 << causal << 68.21367437811058 << 0.4;

    Job moe = Job::of("mixtral-8x7b", 8, 1, 8);
    moe.mfu = 0.4;
    // MoE counts active parameters (12.9B of 46.7B), and attention over its 32K context:
    // Less its input embedding (32,000 x 4,096, untied):
    // (6 x (12.9e9 - 1.31072e8) + 12 x 32 x 4096 x 32768) x 4,194,304 / (64 x 989e12 x 0.4)
    // = 21.2301 s.
    QTest::addRow("mixtral-8x7b, 64 H100, active params") << 8 << moe << 21.23014790944356 << 0.4;

    // The same job trained on 4K sequences (as NeMo's Mixtral benchmarks are): attention
    // over 4,096 tokens, not the 32K context:
    // (6 x (12.9e9 - 1.31072e8) + 12 x 32 x 4096 x 4096) x 4,194,304 / (64 x 989e12 x 0.4)
    // = 13.7592 s.
    moe.seqLen = 4096;
    QTest::addRow("mixtral-8x7b on 4K sequences") << 8 << moe << 13.7592498926036 << 0.4;

    Job fp8 = Job::of("llama3-405b", 8, 1, 16);
    fp8.tokens = 4 * 4194304LL;
    fp8.fp8 = true;
    fp8.mfu = 0.3;
    // FP8 peak 1,979 TFLOP/s and an MFU of 0.3:
    // (6 x (405e9 - 128,256 x 16,384) + 12 x 126 x 16384 x 8192) x 16,777,216
    // / (128 x 1979e12 x 0.3) = 578.4938 s.
    QTest::addRow("llama3-405b FP8, 128 H100, MFU 0.3") << 16 << fp8 << 578.4938172858509 << 0.3;
}

void tst_StepTime::computeSeconds() {
    QFETCH(int, servers);
    QFETCH(Job, job);
    QFETCH(double, seconds);
    QFETCH(double, mfu);

    const model::Topology topology = cluster(servers);
    if (QTest::currentTestFailed())
        return;
    const StepTime t = step(topology, "ib-ndr", job);
    COMPARE_REL(t.computeSeconds, seconds);
    QCOMPARE(t.mfu, mfu);
}

void tst_StepTime::splitMustMatchGpus_data() {
    QTest::addColumn<Job>("job");

    // 8 servers x 8 GPUs = 64 GPUs.
    const auto split = [](int tp, int pp, int dp) { return Job::of("llama3-70b", tp, pp, dp); };
    QTest::addRow("8 x 1 x 4 = 32") << split(8, 1, 4);
    QTest::addRow("8 x 2 x 8 = 128") << split(8, 2, 8);
    QTest::addRow("1 x 1 x 65 = 65") << split(1, 1, 65);
}

void tst_StepTime::splitMustMatchGpus() {
    QFETCH(Job, job);

    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    const FabricNetwork network(topology, builtinFabric("ib-ndr"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimateStep(network, workload(job)));
}

void tst_StepTime::overlapHidesDataParallel_data() {
    QTest::addColumn<Job>("job");

    // llama3-70b on 64 GPUs, three splits; each run with overlap 0 and 1.
    const auto split = [](int tp, int pp, int dp) { return Job::of("llama3-70b", tp, pp, dp); };
    QTest::addRow("tp 1, pp 1, dp 64") << split(1, 1, 64);
    QTest::addRow("tp 8, pp 1, dp 8") << split(8, 1, 8);
    QTest::addRow("tp 8, pp 2, dp 4") << split(8, 2, 4);
}

void tst_StepTime::overlapHidesDataParallel() {
    QFETCH(Job, job);

    // exposed = (dp + ep beyond the ideal fabric) x (1 - overlap) + (tensor- and
    // pipeline-parallel time beyond it, on the critical path). With overlap 1 the
    // data-parallel excess is hidden entirely: what stays exposed is exactly what overlap 0
    // exposed minus the data part, and it is no more than tpSeconds + ppSeconds.
    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    Job hidden = job;
    hidden.overlap = 1;
    const StepTime none = step(topology, "ib-ndr", job);
    const StepTime all = step(topology, "ib-ndr", hidden);

    QVERIFY(none.dpSeconds > 0);
    QCOMPARE(all.dpSeconds, none.dpSeconds); // overlap hides time, it does not change it
    QCOMPARE(none.epSeconds, 0.0);           // dense model, ep 1
    const double slack = 1e-12 * none.exposedCommSeconds;
    const double dataExposed = none.part(Parallelism::Data).exposedSeconds;
    QVERIFY(dataExposed > 0);
    QVERIFY2(std::abs(all.exposedCommSeconds - (none.exposedCommSeconds - dataExposed)) <= slack,
             qPrintable(QStringLiteral("exposed %1 with overlap 1, %2 - %3 with overlap 0")
                            .arg(all.exposedCommSeconds)
                            .arg(none.exposedCommSeconds)
                            .arg(dataExposed)));
    QVERIFY(all.exposedCommSeconds <= all.tpSeconds + all.ppSeconds + slack);
    COMPARE_REL(all.stepSeconds, all.computeSeconds + all.exposedCommSeconds);
}

void tst_StepTime::derivedQuantities_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<int>("servers");
    QTest::addColumn<Job>("job");

    const Job dense = Job::of("llama3-70b", 8, 1, 8);
    Job pipeline = Job::of("llama3-405b", 8, 2, 8);
    pipeline.overlap = 0.5;
    Job experts = Job::of("mixtral-8x7b", 1, 1, 64);
    experts.ep = 8;
    experts.overlap = 0.3;
    QTest::addRow("llama3-70b on ib-ndr, 64 GPUs") << QByteArray("ib-ndr") << 8 << dense;
    QTest::addRow("llama3-70b on roce-v2, 64 GPUs") << QByteArray("roce-v2") << 8 << dense;
    QTest::addRow("llama3-405b pp 2 on spectrum-x, 128 GPUs")
        << QByteArray("spectrum-x") << 16 << pipeline;
    QTest::addRow("mixtral ep 8 on roce-v2, 64 GPUs") << QByteArray("roce-v2") << 8 << experts;
}

void tst_StepTime::derivedQuantities() {
    QFETCH(QByteArray, fabricId);
    QFETCH(int, servers);
    QFETCH(Job, job);

    const model::Topology topology = cluster(servers);
    if (QTest::currentTestFailed())
        return;
    const StepTime t = step(topology, fabricId.constData(), job);
    // step = compute + exposed; tokens/s = tokens / step; comm:compute = comm / compute.
    COMPARE_REL(t.stepSeconds, t.computeSeconds + t.exposedCommSeconds);
    COMPARE_REL(t.tokensPerSecond, static_cast<double>(job.tokens) / t.stepSeconds);
    COMPARE_REL(t.commToCompute, t.commSeconds / t.computeSeconds);
    QVERIFY(t.commSeconds > 0);
}

void tst_StepTime::infinibandNotSlowerThanRoce_data() {
    QTest::addColumn<int>("servers");
    QTest::addColumn<Job>("job");

    // The same design on both fabrics: IB NDR has tuned RoCE's goodput per NIC (0.96 of
    // line rate) with adaptive routing, no incast loss and a lower latency, so no part of a
    // step can be slower; on one leaf only the latency sets them apart.
    const Job dense = Job::of("llama3-70b", 8, 1, 8);
    const Job flat = Job::of("llama3-8b", 1, 1, 128);
    Job pipeline = Job::of("llama3-405b", 8, 2, 8);
    Job experts = Job::of("mixtral-8x7b", 1, 1, 64);
    experts.ep = 8;
    QTest::addRow("llama3-70b tp 8 dp 8, 64 GPUs") << 8 << dense;
    QTest::addRow("llama3-8b dp 128, 128 GPUs (leaf-spine)") << 16 << flat;
    QTest::addRow("llama3-405b tp 8 pp 2 dp 8, 128 GPUs") << 16 << pipeline;
    QTest::addRow("mixtral ep 8 dp 64, 64 GPUs") << 8 << experts;
}

void tst_StepTime::infinibandNotSlowerThanRoce() {
    QFETCH(int, servers);
    QFETCH(Job, job);

    const model::Topology topology = cluster(servers);
    if (QTest::currentTestFailed())
        return;
    const StepTime ib = step(topology, "ib-ndr", job);
    const StepTime roce = step(topology, "roce-v2", job);
    qInfo("step: ib-ndr %.3f s (comm %.3f), roce-v2 %.3f s (comm %.3f)", ib.stepSeconds,
          ib.commSeconds, roce.stepSeconds, roce.commSeconds);
    QCOMPARE(ib.computeSeconds, roce.computeSeconds); // compute does not depend on the fabric
    QVERIFY(ib.stepSeconds <= roce.stepSeconds);
    QVERIFY(ib.commSeconds <= roce.commSeconds);
    QVERIFY(ib.tokensPerSecond >= roce.tokensPerSecond);
}

void tst_StepTime::partsAddUp_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<int>("servers");
    QTest::addColumn<Job>("job");
    QTest::addColumn<QByteArray>("present"); // parts that must be > 0: d, t, p, e

    // One row per kind of traffic, each making its part non-zero (the "present" column),
    // with overlap between 0 and 1 so hidden and exposed time differ.
    Job dpOnly = Job::of("llama3-8b", 1, 1, 64);
    dpOnly.overlap = 0.5;
    Job tpInside = Job::of("llama3-70b", 8, 1, 8);
    tpInside.overlap = 0.4;
    Job tpSpanning = Job::of("llama3-70b", 16, 1, 4); // tp 16 over two 8-GPU servers
    tpSpanning.overlap = 0.3;
    Job pipeline = Job::of("llama3-405b", 8, 2, 8);
    pipeline.overlap = 0.5;
    Job experts = Job::of("mixtral-8x7b", 1, 1, 64);
    experts.ep = 8;
    experts.overlap = 0.3;
    Job everything = Job::of("mixtral-8x7b", 16, 2, 4);
    everything.ep = 2;
    everything.overlap = 0.7;
    QTest::addRow("dp 64 only, roce-v2") << QByteArray("roce-v2") << 8 << dpOnly << QByteArray("d");
    QTest::addRow("tp 8 inside servers, ib-ndr")
        << QByteArray("ib-ndr") << 8 << tpInside << QByteArray("dt");
    QTest::addRow("tp 16 spanning servers, ib-ndr")
        << QByteArray("ib-ndr") << 8 << tpSpanning << QByteArray("dt");
    QTest::addRow("pp 2, spectrum-x")
        << QByteArray("spectrum-x") << 16 << pipeline << QByteArray("dtp");
    QTest::addRow("ep 8 MoE, roce-v2") << QByteArray("roce-v2") << 8 << experts << QByteArray("de");
    QTest::addRow("tp 16, pp 2, ep 2 MoE, ib-ndr")
        << QByteArray("ib-ndr") << 16 << everything << QByteArray("dtpe");
}

void tst_StepTime::partsAddUp() {
    QFETCH(QByteArray, fabricId);
    QFETCH(int, servers);
    QFETCH(Job, job);
    QFETCH(QByteArray, present);

    const model::Topology topology = cluster(servers);
    if (QTest::currentTestFailed())
        return;
    const StepTime t = step(topology, fabricId.constData(), job);

    // Each part is the figure it breaks down, unchanged.
    QCOMPARE(t.part(Parallelism::Data).seconds, t.dpSeconds);
    QCOMPARE(t.part(Parallelism::Tensor).seconds, t.tpSeconds);
    QCOMPARE(t.part(Parallelism::Pipeline).seconds, t.ppSeconds);
    QCOMPARE(t.part(Parallelism::Expert).seconds, t.epSeconds);
    QCOMPARE(t.part(Parallelism::Context).seconds, t.cpSeconds);
    const char letters[] = {'d', 't', 'p', 'e', 'c'};
    static_assert(std::size(letters) == kParallelismCount);
    for (int i = 0; i < kParallelismCount; ++i) {
        const CommPart& part = t.parts[static_cast<std::size_t>(i)];
        const auto name = toString(static_cast<Parallelism>(i));
        QVERIFY2((part.seconds > 0) == present.contains(letters[i]),
                 qPrintable(QStringLiteral("%1 part: %2 s").arg(name.data()).arg(part.seconds)));
        QVERIFY2(part.exposedSeconds >= 0 && part.exposedSeconds <= part.seconds,
                 qPrintable(QStringLiteral("%1 part exposes %2 of %3 s")
                                .arg(name.data())
                                .arg(part.exposedSeconds)
                                .arg(part.seconds)));
        // Bound: no fabric moves the traffic faster than one nonblocking switch at every
        // NIC's line rate (or NVLink, for tensor parallelism), so what the MFU holds is
        // never more than the part's own time.
        QVERIFY2(part.idealSeconds <= part.seconds,
                 qPrintable(QStringLiteral("%1 part: %2 s on the ideal fabric, %3 s here")
                                .arg(name.data())
                                .arg(part.idealSeconds)
                                .arg(part.seconds)));
        // Off the fabric a part is inside MFU whole; on it, its time splits into what the
        // MFU holds, what the step waits on and what overlap hides.
        if (!part.onFabric) {
            QCOMPARE(part.exposedSeconds + part.idealSeconds + part.hiddenSeconds, 0.0);
            continue;
        }
        COMPARE_REL(part.idealSeconds + part.exposedSeconds + part.hiddenSeconds, part.seconds);
    }
    // Tensor parallelism inside a server runs on NVLink, inside MFU: not on the fabric
    // and not exposed. Spanning servers it is both: all it takes beyond NVLink is
    // exposed (nothing overlaps it), and that is most of it.
    const bool tpOnFabric = job.tp > 8;
    const CommPart& tensor = t.part(Parallelism::Tensor);
    QCOMPARE(tensor.onFabric, tpOnFabric);
    QCOMPARE(tensor.exposedSeconds, tpOnFabric ? t.tpSeconds - tensor.idealSeconds : 0.0);
    if (tpOnFabric)
        QVERIFY(tensor.exposedSeconds > 0.5 * t.tpSeconds);
    // Overlap hides a share of data- and expert-parallel time beyond the ideal fabric;
    // pipeline sends beyond it are exposed. (A part inside the servers has none of either.)
    const auto beyondIdeal = [&](Parallelism p) {
        return t.part(p).onFabric ? t.part(p).seconds - t.part(p).idealSeconds : 0.0;
    };
    COMPARE_REL(t.part(Parallelism::Data).exposedSeconds,
                beyondIdeal(Parallelism::Data) * (1 - job.overlap));
    QCOMPARE(t.part(Parallelism::Expert).exposedSeconds,
             beyondIdeal(Parallelism::Expert) * (1 - job.overlap));
    COMPARE_REL(t.part(Parallelism::Pipeline).exposedSeconds, beyondIdeal(Parallelism::Pipeline));

    // The breakdown adds up to the totals: exposed parts to exposedCommSeconds, the
    // fabric parts' time to commSeconds (to kRelTol: the same terms, summed in another
    // order).
    double exposed = 0;
    double onFabric = 0;
    for (const CommPart& part : t.parts) {
        exposed += part.exposedSeconds;
        if (part.onFabric)
            onFabric += part.seconds;
    }
    COMPARE_REL(exposed, t.exposedCommSeconds);
    COMPARE_REL(onFabric, t.commSeconds);
    QVERIFY(t.commSeconds > 0);
}

void tst_StepTime::expertGradientsShardedByEp() {
    // DeepSeek-V3 (catalog: 671B total, 37B active, 256 experts, 8 per token) on 64
    // servers, tp 1, pp 8, dp 64, ep 64. One expert: (671 - 37) / (256 - 8) = 2.556452B;
    // experts 256 x that = 654.4516B; dense 671 - 654.4516 = 16.5484B. Per GPU in BF16:
    //   dense 16.5484e9 / 8 x 2 = 4.137097e9 B; experts 654.4516e9 / (8 x 64) x 2 = 2.556452e9 B
    //   -> 6.693548e9 B, where all 671B / 8 x 2 = 167.75e9 B would ignore the sharding.
    const model::Topology topology = cluster(64);
    if (QTest::currentTestFailed())
        return;
    Job job = Job::of("deepseek-v3", 1, 8, 64);
    job.ep = 64;
    const StepTime t = step(topology, "ib-ndr", job);
    const double expert = (671.0 - 37.0) / (256 - 8) * 1e9;
    const double expected = (671e9 - 256 * expert) / 8 * 2 + 256 * expert / (8 * 64) * 2;
    COMPARE_REL(t.dpBytesPerGpu, expected);
    QVERIFY(std::abs(t.dpBytesPerGpu - 6.693548e9) < 1e3);
}

void tst_StepTime::expertAllToAllCarriesOwnTokens() {
    // mixtral-8x7b, tp 2, cp 2, dp 16, ep 8 on 8 servers: 4,194,304 tokens / 16 replicas =
    // 262,144 per replica, split over 2 tensor (sequence-parallel) x 2 context ranks = 65,536
    // tokens per GPU, each sent to its 2 experts as 4,096 BF16 values:
    // 65,536 x 2 x 4,096 x 2 B = 1,073,741,824 B per all-to-all.
    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    Job job = Job::of("mixtral-8x7b", 2, 1, 16);
    job.cp = 2;
    job.ep = 8;
    const StepTime t = step(topology, "ib-ndr", job);
    QCOMPARE(t.epBytesPerGpu, 1073741824.0);
    // Splitting the sequence (cp 2, dp 16) or the batch (cp 1, dp 32) leaves each GPU the
    // same 65,536 tokens to route.
    job.cp = 1;
    job.dp = 32;
    QCOMPARE(step(topology, "ib-ndr", job).epBytesPerGpu, 1073741824.0);
}

void tst_StepTime::recomputationRaisesHfuNotTime_data() {
    QTest::addColumn<int>("recompute");
    QTest::addColumn<double>("hfuOverMfu");

    // llama3-70b: model FLOPs per token 6 x (70.6e9 - 128,256 x 8,192) + 12 x 80 x 8192 x
    // 8192 = 4.172960e11 + 6.442451e10 = 4.817205e11. Full recomputation runs the forward
    // again, a third of that; selective only the attention core's forward, a third of
    // 6.442451e10.
    QTest::addRow("none") << int(model::Recompute::None) << 1.0;
    QTest::addRow("selective") << int(model::Recompute::Selective)
                               << 1 + 6.442450944e10 / 3 / 4.81720470528e11;
    QTest::addRow("full") << int(model::Recompute::Full) << 4.0 / 3.0;
}

void tst_StepTime::recomputationRaisesHfuNotTime() {
    QFETCH(int, recompute);
    QFETCH(double, hfuOverMfu);

    // Published MFU is end to end: recomputation is inside it. It changes what the GPUs
    // execute (HFU), not the step a given MFU implies.
    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    Job job = Job::of("llama3-70b", 8, 1, 8);
    job.mfu = 0.4;
    const StepTime plain = step(topology, "ib-ndr", job);
    job.recompute = static_cast<model::Recompute>(recompute);
    const StepTime t = step(topology, "ib-ndr", job);
    QCOMPARE(t.computeSeconds, plain.computeSeconds);
    COMPARE_REL(t.hfu / t.mfu, hfuOverMfu);
}

void tst_StepTime::pipelineBubble() {
    // llama3-405b, tp 8, pp 4, dp 4 on 16 servers; 4,194,304 tokens / 4 replicas = 128
    // sequences of 8,192 = 128 micro-batches: bubble (4 - 1) / (vpp x 128):
    // 2.34375% with vpp 1, 0.5859375% with vpp 4.
    const model::Topology topology = cluster(16);
    if (QTest::currentTestFailed())
        return;
    Job job = Job::of("llama3-405b", 8, 4, 4);
    COMPARE_REL(step(topology, "ib-ndr", job).bubbleFraction, 3.0 / 128);
    job.vpp = 4;
    COMPARE_REL(step(topology, "ib-ndr", job).bubbleFraction, 3.0 / 512);
}

void tst_StepTime::contextParallelAcrossServers() {
    // llama3-70b, tp 8, cp 2, dp 4 on 8 servers: a context-parallel pair spans two servers,
    // so its keys and values cross the fabric. Grouped-query attention keeps keys and values
    // for 8 of its 64 heads (Llama 3 paper, Table 3). Per GPU and layer: 1,048,576 tokens per
    // replica x 2 x 8192 x 8/64 x 2 B / 8 = 5.368709e8 B, x (2 - 1) / 2, x 3 passes, x 80
    // layers = 6.442451e10 B at one ib-ndr NIC's goodput (48 GB/s) = 1.3422 s. The ideal
    // fabric carries it at line rate (50 GB/s): 1.2885 s, held in the MFU. Half of the
    // 0.0537 s between them is hidden by overlap 0.5: 0.0268 s exposed.
    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    Job job = Job::of("llama3-70b", 8, 1, 4);
    job.cp = 2;
    job.overlap = 0.5;
    const StepTime t = step(topology, "ib-ndr", job);
    const double goodput = builtinFabric("ib-ndr").lineEfficiency * 400e9 / 8;
    COMPARE_REL(t.cpSeconds, 1048576.0 * 2 * 8192 * (8.0 / 64) * 2 / 8 * 0.5 * 3 * 80 / goodput);
    QVERIFY(t.part(Parallelism::Context).onFabric);
    const double bytes = 1048576.0 * 2 * 8192 * (8.0 / 64) * 2 / 8 * 0.5 * 3 * 80;
    COMPARE_REL(t.part(Parallelism::Context).idealSeconds, bytes / 50e9);
    COMPARE_REL(t.part(Parallelism::Context).exposedSeconds, (t.cpSeconds - bytes / 50e9) * 0.5);
    // The same split with cp 1 has no context traffic.
    job.cp = 1;
    job.dp = 8;
    QCOMPARE(step(topology, "ib-ndr", job).cpSeconds, 0.0);
}

void tst_StepTime::assumptionsAreListed() {
    // The report says what it takes as given: the MFU and where it came from (predicted
    // from the hardware when none is given), and the recomputation when there is one.
    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    Job job = Job::of("llama3-70b", 8, 1, 8);
    job.recompute = model::Recompute::Full;
    const StepTime t = step(topology, "ib-ndr", job);
    const auto says = [&](const char* words) {
        for (const auto& line : t.assumptions)
            if (line.find(words) != std::string::npos)
                return true;
        return false;
    };
    QVERIFY(says("predicted from the hardware (no MFU given)"));
    QVERIFY(t.mfuPredicted());
    QVERIFY(says("full recomputation: HFU"));
    job.mfu = 0.4;
    const StepTime given = step(topology, "ib-ndr", job);
    QVERIFY(!given.mfuPredicted());
    QVERIFY(std::any_of(given.assumptions.begin(), given.assumptions.end(), [](const auto& line) {
        return line.find("MFU 40.0% as given") != std::string::npos;
    }));
    QVERIFY(std::any_of(given.assumptions.begin(), given.assumptions.end(), [](const auto& line) {
        return line.find("full recomputation: HFU 53.3%") != std::string::npos;
    }));
}

QTEST_APPLESS_MAIN(tst_StepTime)
void tst_StepTime::idealNetworkIsOneLineRateSwitch() {
    // The ideal fabric for 4 servers of a RoCE cluster (0.96 line efficiency) with one NIC
    // cable failed: every server keeps all 8 NICs at the full 400 Gb/s, and every route
    // crosses the one switch.
    model::Topology topology = cluster(4);
    if (QTest::currentTestFailed())
        return;
    const auto server =
        std::find_if(topology.nodes().begin(), topology.nodes().end(),
                     [](const auto& n) { return n.second.kind == model::NodeKind::Server; });
    QVERIFY(server != topology.nodes().end());
    // Four servers fit one switch: each server is one link of 8 cables. Fail one cable.
    const model::LinkId cables = topology.linksOf(server->first).front();
    model::Link fewer = topology.link(cables);
    QCOMPARE(fewer.count, 8);
    fewer.count = 7;
    topology.replaceLink(cables, fewer);
    // A server may carry the name the ideal switch would take.
    model::Node renamed = server->second;
    renamed.name = "ideal-switch";
    topology.replaceNode(server->first, renamed);
    const FabricNetwork actual(topology, builtinFabric("roce-v2"));
    QCOMPARE(actual.nicCount(server->first), 7);
    const IdealNetwork ideal(actual);
    const FabricNetwork& best = ideal.network();
    QCOMPARE(best.servers().size(), actual.servers().size());
    for (const model::NodeId s : best.servers()) {
        QCOMPARE(best.nicCount(s), 8);
        QCOMPARE(best.nicGoodput({s, 7}).value, 400.0);
    }
    const Route route = best.route({best.servers().front(), 0}, {best.servers().back(), 5}, 1);
    QCOMPARE(route.switchHops, 1);
}

void tst_StepTime::fabricChargedBeyondIdeal() {
    // llama3-70b, tp 8, dp 8 on 8 servers of a 1:1 rail-optimized InfiniBand fabric: the
    // gradient rings stay on their rail leaves, so the only thing between this fabric and
    // the ideal one is NDR's line efficiency (0.96). The rings are bandwidth bound (0.6 s
    // against microseconds of latency), so the time beyond the ideal is 1 - 0.96 = 4% of
    // the exchange; latency and the flow solver move it by far less than 0.1 point.
    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    const StepTime t = step(topology, "ib-ndr", Job::of("llama3-70b", 8, 1, 8));
    const CommPart& data = t.part(Parallelism::Data);
    QVERIFY(data.seconds > 0.1);
    const double share = (data.seconds - data.idealSeconds) / data.seconds;
    const double expected = 1 - builtinFabric("ib-ndr").lineEfficiency;
    QVERIFY2(std::abs(share - expected) < 1e-3,
             qPrintable(QStringLiteral("%1 of the exchange beyond the ideal fabric, expected %2")
                            .arg(share)
                            .arg(expected)));
    COMPARE_REL(t.exposedCommSeconds, data.exposedSeconds);
    COMPARE_REL(t.stepSeconds, t.computeSeconds + data.exposedSeconds);
    COMPARE_REL(t.idealCommSeconds, data.idealSeconds);
}

void tst_StepTime::oversubscriptionIsCharged() {
    // The same job on 16 servers that are not rail-optimized, so gradient rings cross the
    // spines: at 8:1 the spines carry an eighth of what the servers inject, the exchange
    // slows, and the step grows by exactly the extra exposed exchange. Compute and the ideal
    // fabric's time, which depend on the servers alone, stay put.
    const auto build = [](double oversubscription) {
        return testing::generateOrFail(model::generateLeafSpine,
                                       testing::generatorRequest("leaf-spine", 16, 8, false, 32, 64,
                                                                 64, oversubscription, 1.0));
    };
    const model::Topology open = build(1.0);
    const model::Topology tight = build(8.0);
    if (QTest::currentTestFailed())
        return;
    const Job job = Job::of("llama3-70b", 8, 1, 16);
    const StepTime wide = step(open, "ib-ndr", job);
    const StepTime narrow = step(tight, "ib-ndr", job);
    qInfo("data-parallel exchange: 1:1 %.4f s (ideal %.4f), 8:1 %.4f s (ideal %.4f)",
          wide.dpSeconds, wide.part(Parallelism::Data).idealSeconds, narrow.dpSeconds,
          narrow.part(Parallelism::Data).idealSeconds);
    QCOMPARE(narrow.computeSeconds, wide.computeSeconds);
    COMPARE_REL(narrow.part(Parallelism::Data).idealSeconds,
                wide.part(Parallelism::Data).idealSeconds);
    QVERIFY(narrow.dpSeconds > 1.5 * wide.dpSeconds);
    const CommPart& charged = narrow.part(Parallelism::Data);
    COMPARE_REL(charged.exposedSeconds, narrow.dpSeconds - charged.idealSeconds);
    QVERIFY(charged.exposedSeconds > 10 * wide.part(Parallelism::Data).exposedSeconds);
    COMPARE_REL(narrow.stepSeconds - wide.stepSeconds,
                narrow.exposedCommSeconds - wide.exposedCommSeconds);
}

void tst_StepTime::trafficInsideServersIsNotFabric() {
    // mixtral-8x7b, tp 1, ep 8 on 8-GPU servers: each expert group is one server, so its
    // all-to-all runs on NVLink, inside MFU like tensor parallelism there. At ep 16 a group
    // spans two servers and the all-to-all is fabric traffic.
    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    Job job = Job::of("mixtral-8x7b", 1, 1, 64);
    job.ep = 8;
    const StepTime inside = step(topology, "roce-v2", job);
    const CommPart& local = inside.part(Parallelism::Expert);
    QVERIFY(local.seconds > 0);
    QVERIFY(!local.onFabric);
    QCOMPARE(local.exposedSeconds, 0.0);
    COMPARE_REL(inside.commSeconds, inside.dpSeconds);
    job.ep = 16;
    const StepTime across = step(topology, "roce-v2", job);
    QVERIFY(across.part(Parallelism::Expert).onFabric);
    QVERIFY(across.part(Parallelism::Expert).exposedSeconds > 0);
}

void tst_StepTime::mfuCannotHideMoreThanTheStep() {
    // llama3-70b, tp 8, dp 8, on 32,768 tokens a step at MFU 0.6: compute is (6 x (70.6e9 -
    // 1.0507e9) + 6.442e10) x 32,768 / (64 x 989e12 x 0.6) = 0.4155 s, while each GPU
    // reduces 70.6e9 / 8 x 2 B = 17.65 GB of gradients in a ring of 8 servers on its own
    // 400G rail: 2 x 7/8 x 17.65e9 / 50e9 = 0.6178 s even at line rate, with nothing
    // overlapped. Bound: the step is never shorter than the traffic it waits on over the
    // ideal fabric, so when that outlasts the compute the MFU implies, the communication
    // sets the step and the report says so.
    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    Job job = Job::of("llama3-70b", 8, 1, 8);
    job.tokens = 32768;
    job.mfu = 0.6;
    const StepTime t = step(topology, "ib-ndr", job);
    const double idealWait = t.part(Parallelism::Data).idealSeconds;
    QVERIFY(std::abs(t.computeSeconds - 0.4155) < 1e-3);
    // The ring simulated on the ideal fabric: bandwidth alone, to the flow solver's rounding.
    QVERIFY2(std::abs(idealWait / (2 * 7.0 / 8 * 17.65e9 / 50e9) - 1) < 1e-3,
             qPrintable(QStringLiteral("ideal exchange %1 s").arg(idealWait)));
    QVERIFY(t.communicationBound);
    COMPARE_REL(t.stepSeconds, idealWait + t.exposedCommSeconds);
    QVERIFY(t.stepSeconds > t.computeSeconds);
    const bool said = std::any_of(t.assumptions.begin(), t.assumptions.end(), [](const auto& a) {
        return a.find("communication sets the step") != std::string::npos;
    });
    QVERIFY(said);
    // Half of it overlapped: the MFU's compute covers the rest again.
    job.overlap = 0.5;
    const StepTime overlapped = step(topology, "ib-ndr", job);
    QVERIFY(!overlapped.communicationBound);
    COMPARE_REL(overlapped.stepSeconds, overlapped.computeSeconds + overlapped.exposedCommSeconds);
}

void tst_StepTime::idealDoesNotDependOnTheFabric() {
    // What the MFU holds is the servers' traffic on the ideal fabric: the same whichever
    // fabric is evaluated (latency and line efficiency included), so comparing fabrics
    // compares what each adds. The slower the fabric, the more it adds.
    const model::Topology topology = cluster(8);
    if (QTest::currentTestFailed())
        return;
    const Job job = Job::of("llama3-70b", 8, 1, 8);
    const StepTime ib = step(topology, "ib-ndr", job);
    double previous = ib.exposedCommSeconds;
    for (const char* fabric : {"roce-v2", "ethernet-tcp"}) {
        const StepTime t = step(topology, fabric, job);
        COMPARE_REL(t.part(Parallelism::Data).idealSeconds,
                    ib.part(Parallelism::Data).idealSeconds);
        QVERIFY2(t.exposedCommSeconds > previous, fabric);
        previous = t.exposedCommSeconds;
    }
}

#include "tst_StepTime.moc"
