// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Memory per GPU against published accounting (sources in docs/sources.md, "Memory per
// GPU"): Megatron-LM's distributed-optimizer table (18 bytes a parameter, 6 + 12/d with the
// optimizer sharded), the ZeRO paper's figure 1 (a 7.5B model on 64 GPUs: 120, 31.4, 16.6
// and 1.9 GB), and Korthikanti et al. 2022's table 2 of activation bytes per layer. Every
// expected figure is worked out by hand beside its case.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/validation/PublishedStepTimes.hpp"
#include "model/workload/MemoryPerGpu.hpp"
#include "support/RelativeCompare.hpp"
#endif

#include <map>
#include <stdexcept>
#include <string>

using namespace fabriclab::model;

namespace {

// Products of exact inputs: 1e-9 relative is rounding. The ZeRO paper prints one decimal
// (31.4 for 31.40625 GB): 0.3% covers its rounding.
constexpr double kExact = 1e-9;
constexpr double kPrinted = 3e-3;

/// A dense model with `params` parameters and no vocabulary (no logits), on an H100.
Workload dense(double paramsB, int layers, int hidden, int seqLen) {
    Workload w;
    w.model.spec.id = "test";
    w.model.spec.paramsB = paramsB;
    w.model.spec.activeParamsB = paramsB;
    w.model.spec.layers = layers;
    w.model.spec.hiddenSize = hidden;
    w.model.spec.seqLen = seqLen;
    w.gpu.spec = *Catalog::builtin().findGpu("h100-sxm");
    return w;
}

double stateBytes(const MemoryPerGpu& m) {
    return m.weights + m.gradients + m.optimizer;
}

} // namespace

class tst_MemoryPerGpu : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void megatronBytesPerParameter_data();
    void megatronBytesPerParameter();
    void zeroPaperFigureOne_data();
    void zeroPaperFigureOne();
    void activationsPerLayer_data();
    void activationsPerLayer();
    void pipelineFirstStageHoldsTheMicroBatchesInFlight();
    void expertsSplitOverExpertParallelism();
    void logitsOnTheLastStage();
    void fitsAgainstTheGpusMemory();
    void impossibleSplitsAreRefused();
    void publishedRunsFit();
};

void tst_MemoryPerGpu::megatronBytesPerParameter_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<int>("dp");
    QTest::addColumn<double>("bytesPerParameter");
    // Megatron-LM's distributed optimizer guide: bf16 parameters with fp32 gradients take
    // 18 bytes a parameter, 6 + 12/d when the optimizer is sharded over d ranks.
    QTest::newRow("no sharding, 8 ranks") << 0 << 8 << 18.0;
    QTest::newRow("distributed optimizer, 8 ranks") << 1 << 8 << 6 + 12.0 / 8;
    QTest::newRow("distributed optimizer, 64 ranks") << 1 << 64 << 6 + 12.0 / 64;
    // ZeRO-2 shards the 4 gradient bytes too, ZeRO-3 the 2 weight bytes as well.
    QTest::newRow("ZeRO-2, 8 ranks") << 2 << 8 << 2 + 16.0 / 8;
    QTest::newRow("ZeRO-3, 8 ranks") << 3 << 8 << 18.0 / 8;
}

void tst_MemoryPerGpu::megatronBytesPerParameter() {
    QFETCH(int, zero);
    QFETCH(int, dp);
    QFETCH(double, bytesPerParameter);
    Workload w = dense(1, 16, 2048, 2048);
    w.zero = zero;
    w.dp = dp;
    const MemoryPerGpu m = memoryPerGpu(w);
    COMPARE_WITHIN(m.parameters, 1e9, kExact);
    COMPARE_WITHIN(stateBytes(m), bytesPerParameter * 1e9, kExact);
}

void tst_MemoryPerGpu::zeroPaperFigureOne_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("gigabytes");
    // Rajbhandari et al. 2020, figure 1: a 7.5B model, 64 data-parallel ranks, fp16
    // weights and gradients (2 + 2 bytes) and K = 12 bytes of optimizer state.
    QTest::newRow("baseline: (2 + 2 + 12) x 7.5") << 0 << 120.0;
    QTest::newRow("Pos: 4 x 7.5 + 12 x 7.5 / 64") << 1 << 31.4;
    QTest::newRow("Pos+g: 2 x 7.5 + 14 x 7.5 / 64") << 2 << 16.6;
    QTest::newRow("Pos+g+p: 16 x 7.5 / 64") << 3 << 1.9;
}

void tst_MemoryPerGpu::zeroPaperFigureOne() {
    QFETCH(int, zero);
    QFETCH(double, gigabytes);
    Workload w = dense(7.5, 32, 4096, 1024);
    w.dp = 64;
    w.zero = zero;
    const MemoryPerGpu m = memoryPerGpu(w, StateBytes{2, 2, 12});
    // The paper rounds to one decimal: 1.875 GB prints as 1.9, 16.64 as 16.6.
    const double tolerance = zero == 3 ? 0.03 : kPrinted;
    COMPARE_WITHIN(stateBytes(m) / 1e9, gigabytes, tolerance);
}

void tst_MemoryPerGpu::activationsPerLayer_data() {
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("cp");
    QTest::addColumn<int>("recompute");
    QTest::addColumn<double>("bytesPerLayer");
    // Korthikanti et al. 2022, table 2, with no score matrices kept (flash attention, or
    // selective recomputation): 34 x s x b x h / t. s = 2048, h = 12288 (GPT-3 175B), b = 1.
    const double sbh = 2048.0 * 12288;
    QTest::newRow("t = 1") << 1 << 1 << 0 << 34 * sbh;
    QTest::newRow("t = 8, sequence parallel") << 8 << 1 << 0 << 34 * sbh / 8;
    QTest::newRow("t = 8, selective") << 8 << 1 << 1 << 34 * sbh / 8;
    // Context parallelism splits the sequence: s / 2.
    QTest::newRow("t = 8, cp = 2") << 8 << 2 << 0 << 34 * sbh / 16;
    // Full recomputation keeps each layer's bf16 input, 2 x s x b x h / t.
    QTest::newRow("t = 8, full") << 8 << 1 << 2 << 2 * sbh / 8;
}

void tst_MemoryPerGpu::activationsPerLayer() {
    QFETCH(int, tp);
    QFETCH(int, cp);
    QFETCH(int, recompute);
    QFETCH(double, bytesPerLayer);
    Workload w = dense(175, 96, 12288, 2048);
    w.tp = tp;
    w.cp = cp;
    w.recompute = static_cast<Recompute>(recompute);
    const MemoryPerGpu m = memoryPerGpu(w);
    // Full recomputation also holds the one layer being recomputed: 34 x s x b x h / t / cp.
    const double working = w.recompute == Recompute::Full ? 34 * 2048.0 * 12288 / (tp * cp) : 0;
    COMPARE_WITHIN(m.activations, 96 * bytesPerLayer + working, kExact);
}

void tst_MemoryPerGpu::pipelineFirstStageHoldsTheMicroBatchesInFlight() {
    // 1F1B: the first of 8 stages holds 8 micro-batches of its 12 layers, as much as all 96
    // layers of one; interleaving 4 virtual stages adds 7 / 32 of that.
    Workload w = dense(175, 96, 12288, 2048);
    w.tp = 8;
    w.pp = 8;
    const double perLayer = 34 * 2048.0 * 12288 / 8;
    COMPARE_WITHIN(memoryPerGpu(w).activations, 96 * perLayer, kExact);
    w.vpp = 4;
    COMPARE_WITHIN(memoryPerGpu(w).activations, 96 * perLayer * (1 + 7.0 / 32), kExact);
    // Weights and state: 175B over 8 x 8 GPUs.
    COMPARE_WITHIN(memoryPerGpu(w).parameters, 175e9 / 64, kExact);
}

void tst_MemoryPerGpu::expertsSplitOverExpertParallelism() {
    // 8 experts, 2 routed per token; 47B parameters of which 13B active (Mixtral 8x7B's
    // shape). Experts: (47 - 13) / (1 - 2/8) = 45.33B, dense 1.67B. With ep = 8 each GPU
    // holds 1.67 + 45.33 / 8 = 7.33B.
    Workload w = dense(47, 32, 4096, 4096);
    w.model.spec.activeParamsB = 13;
    w.model.spec.experts = 8;
    w.model.spec.expertsPerToken = 2;
    w.dp = 8;
    w.ep = 8;
    const double experts = 34e9 / 0.75;
    COMPARE_WITHIN(memoryPerGpu(w).parameters, 47e9 - experts + experts / 8, kExact);
    // Two routed experts' MLPs keep their activations: (11 + 2 x 19 + 4) x s x h a layer.
    COMPARE_WITHIN(memoryPerGpu(w).activations, 32 * 53 * 4096.0 * 4096, kExact);
}

void tst_MemoryPerGpu::logitsOnTheLastStage() {
    // A 128,256-token vocabulary at 8,192 tokens: 4 x 8192 x 128256 bytes of fp32 logits,
    // over tp = 2. Without pipelining the one GPU holds them and every layer's activations.
    Workload w = dense(8, 32, 4096, 8192);
    w.model.spec.vocabSize = 128256;
    w.tp = 2;
    const double logits = 4 * 8192.0 * 128256 / 2;
    const MemoryPerGpu m = memoryPerGpu(w);
    COMPARE_WITHIN(m.logits, logits, kExact);
    COMPARE_WITHIN(m.activations, 32 * 34 * 8192.0 * 4096 / 2, kExact);
    // With 4 stages the first holds 4 micro-batches of 8 layers (32 layers' worth), the last
    // one micro-batch of 8 layers and the logits: 8 x 34 x s x h / 2 + logits = 4.6 GB
    // against 18.3 GB, so the first stage is the one reported, without logits.
    w.pp = 4;
    const MemoryPerGpu staged = memoryPerGpu(w);
    QCOMPARE(staged.logits, 0.0);
    COMPARE_WITHIN(staged.activations, 32 * 34 * 8192.0 * 4096 / 2, kExact);
}

void tst_MemoryPerGpu::fitsAgainstTheGpusMemory() {
    // Llama 3 70B's shape on 8 H100s (80 GB): tp = 8 leaves 8.75B parameters a GPU, and at
    // 18 bytes a parameter the state alone is 157.5 GB: it cannot fit. Sharding the optimizer
    // over 8 more data-parallel ranks leaves 8.75 x (6 + 12/8) = 65.6 GB of state, plus
    // 80 layers x 34 x 8192 x 8192 / 8 = 22.8 GB of activations: 88.4 GB, still too much.
    // pp = 2 halves the state; the first stage still keeps 80 layers' worth of activations
    // (2 micro-batches of 40 layers): 32.8 + 22.8 = 55.6 GB fits.
    Workload w = dense(70, 80, 8192, 8192);
    w.tp = 8;
    const MemoryPerGpu alone = memoryPerGpu(w);
    COMPARE_WITHIN(stateBytes(alone), 157.5e9, kExact);
    QVERIFY(!alone.fits);
    COMPARE_WITHIN(alone.hbm, 80e9, kExact);
    w.dp = 8;
    w.zero = 1;
    const MemoryPerGpu sharded = memoryPerGpu(w);
    COMPARE_WITHIN(sharded.total, 8.75e9 * 7.5 + 80 * 34 * 8192.0 * 8192 / 8, kExact);
    QVERIFY(!sharded.fits);
    w.pp = 2;
    const MemoryPerGpu staged = memoryPerGpu(w);
    COMPARE_WITHIN(staged.total, 8.75e9 * 7.5 / 2 + 80 * 34 * 8192.0 * 8192 / 8, kExact);
    QVERIFY(staged.fits);
}

void tst_MemoryPerGpu::impossibleSplitsAreRefused() {
    Workload w = dense(8, 32, 4096, 8192);
    w.tp = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, memoryPerGpu(w));
    w = dense(8, 0, 4096, 8192);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, memoryPerGpu(w));
    w = dense(8, 32, 4096, 8192);
    w.zero = 4;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, memoryPerGpu(w));
}

void tst_MemoryPerGpu::publishedRunsFit() {
    // Every published step time in the validation set ran, so its layout fitted its GPUs:
    // the estimate may exceed the GPU's memory by no more than the 10% the memory goal
    // allows. Runs the model does not yet describe are listed with why; one of them that
    // starts to fit fails too, so the list cannot go stale.
    const std::map<std::string, const char*> knownMisses = {
        // The catalog has no expert FFN width: each of the 8 routed experts is counted as a
        // dense 4h MLP, where DeepSeek-V3's are 2,048 wide against a hidden size of 7,168.
        {"dsv3-bf16-1024-h100", "fine-grained experts counted as dense MLPs"},
        {"dsv3-bf16-1024-h100-mb", "fine-grained experts counted as dense MLPs"},
        {"dsv3-fp8-256-b200-mb", "fine-grained experts counted as dense MLPs"},
        // Over by 21%, 26% and 11%: recipes that offload or recompute part of a layer, or
        // keep bf16 gradients, which the design file cannot say yet.
        {"n4-340b-bf16-128-h100", "over by 21%: the recipe's memory savings are not described"},
        {"l31-405b-fp8-256-gb200-pp16",
         "over by 26%: the recipe's memory savings are not described"},
        {"l3-70b-fp8-64-gb200-fsdp", "over by 11%: the recipe's memory savings are not described"},
    };
    constexpr double kMemoryGoal = 1.10;
    for (const StepFigure& figure : builtinStepFigures()) {
        const Design design = parseDesign(stepFigureDesign(figure), figure.id, Catalog::builtin());
        const MemoryPerGpu m = memoryPerGpu(*design.workload);
        const bool withinGoal = m.total <= kMemoryGoal * m.hbm;
        const bool known = knownMisses.count(figure.id) > 0;
        if (withinGoal == known)
            QFAIL(qPrintable(
                QStringLiteral("%1: %2 GB of %3 GB (weights %4, gradients %5, "
                               "optimizer %6, activations %7, logits %8 GB)%9")
                    .arg(QString::fromStdString(figure.id))
                    .arg(m.total / 1e9, 0, 'f', 1)
                    .arg(m.hbm / 1e9, 0, 'f', 0)
                    .arg(m.weights / 1e9, 0, 'f', 1)
                    .arg(m.gradients / 1e9, 0, 'f', 1)
                    .arg(m.optimizer / 1e9, 0, 'f', 1)
                    .arg(m.activations / 1e9, 0, 'f', 1)
                    .arg(m.logits / 1e9, 0, 'f', 1)
                    .arg(known ? QStringLiteral(": a known miss now fits; drop it") : QString())));
    }
}

QTEST_GUILESS_MAIN(tst_MemoryPerGpu)
#include "tst_MemoryPerGpu.moc"
