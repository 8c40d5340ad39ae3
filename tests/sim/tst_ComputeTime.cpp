// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The training step worked out from the hardware, with no MFU given (model/workload/
// ComputeTime, model::estimateStep). One split is worked by hand from the catalog's figures
// (resources/catalog/gpus.json, models.json); then every published step time of the
// validation set (resources/validation/step-time.json, sources in docs/sources.md) is run
// with its MFU removed. Rows that say "calibrates": "gemmEfficiency" are the fit set the
// GPUs' efficiencies were fitted on (scripts/fit-compute-efficiency.py); the rest are the
// check set, never fitted to. Both are held to the 15% goal, each miss listed with why, so a
// change that moves a fitted or a checked figure past it fails here.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/validation/PublishedStepTimes.hpp"
#include "model/workload/ComputeTime.hpp"
#include "support/RelativeCompare.hpp"
#endif

#include <cmath>
#include <map>
#include <string>

using namespace fabriclab::model;

namespace {

// Products of the catalog's decimals: 1e-9 relative is rounding.
constexpr double kExact = 1e-9;
/// The step-time goal: within 15% of the published step without an MFU given.
constexpr double kGoal = 0.15;

Workload llama8bOn8H100() {
    Workload w;
    w.model.spec = *Catalog::builtin().findModel("llama3-8b");
    w.gpu.spec = *Catalog::builtin().findGpu("h100-sxm");
    w.dp = 8;
    w.zero = 1;
    return w;
}

} // namespace

class tst_ComputeTime : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void llama8bByHand();
    void recomputationAndBubble();
    void publishedStepsWithoutMfu();
};

void tst_ComputeTime::llama8bByHand() {
    // Llama 3 8B, 8 H100s, data parallel, BF16, 4,194,304 tokens of 8,192 a step.
    const Workload w = llama8bOn8H100();
    const GpuSpec& h100 = w.gpu.spec;
    const ComputeTime c = computeTime(w, 0);
    // Matrix products: 6 x (8.03e9 - 128,256 x 4,096 input embedding) x 4,194,304 / 8 GPUs,
    // at 989 TFLOP/s x the fitted BF16 efficiency x the products' shape factor. Each
    // dimension d counts d / (d + 128). Per layer, with 8,192 rows: QKV 4,096 -> 6,144
    // (8 of 32 heads carry keys and values), output 4,096 -> 4,096, the MLP's up 4,096 ->
    // 2 x 14,336 and down 14,336 -> 4,096 (its width from its parameters: (7.5047e9 -
    // 5.2534e8) / 32 - 4.1943e7 = 3 x 4,096 x 14,336), and the output layer's 1/32 share,
    // 4,096 -> 128,256; weighted by their parameters.
    const auto edge = [](double d) { return d / (d + 128); };
    const auto shape = [&](double m, double n, double k) { return edge(m) * edge(n) * edge(k); };
    const double width =
        ((8.03e9 - 128256.0 * 4096 - 128256.0 * 4096) / 32 - (4096.0 * 6144 + 4096.0 * 4096)) /
        (3 * 4096);
    const double products[][4] = {{4096.0 * 6144, 8192, 6144, 4096},
                                  {4096.0 * 4096, 8192, 4096, 4096},
                                  {2 * 4096 * width, 8192, 2 * width, 4096},
                                  {4096 * width, 8192, 4096, width},
                                  {128256.0 * 4096 / 32, 8192, 128256, 4096}};
    double flops = 0;
    double scaled = 0;
    for (const auto& p : products) {
        flops += p[0];
        scaled += p[0] / shape(p[1], p[2], p[3]);
    }
    const double factor = flops / scaled;
    const double weights = 8.03e9 - 128256.0 * 4096;
    COMPARE_WITHIN(c.gemmSeconds,
                   6 * weights * 524288 / (989e12 * h100.gemmEfficiencyBf16 * factor), kExact);
    // Attention: 6 x 32 layers x 4,096 x 8,192 x 524,288 tokens a GPU, at BF16 x 0.5 x the
    // shape of 8,192 rows by 8,192 keys over 128-wide heads.
    COMPARE_WITHIN(c.attentionSeconds,
                   6 * 32 * 4096.0 * 8192 * 524288 /
                       (989e12 * h100.attentionEfficiency * shape(8192, 8192, 128)),
                   kExact);
    // Elementwise: 3 x 34 bytes x 4,096 x 524,288 tokens x 32 layers, at 3.35 TB/s x 0.8.
    COMPARE_WITHIN(c.elementwiseSeconds,
                   102 * 4096.0 * 524288 * 32 / (3.35e12 * h100.memoryEfficiency), kExact);
    // Adam over 8.03e9 / 8 ranks (ZeRO-1) parameters, 30 bytes each.
    COMPARE_WITHIN(c.optimizerSeconds, 8.03e9 / 8 * 30 / (3.35e12 * h100.memoryEfficiency), kExact);
    QCOMPARE(c.bubbleSeconds, 0.0);
    QCOMPARE(c.recomputeSeconds, 0.0);
    COMPARE_WITHIN(c.seconds,
                   c.gemmSeconds + c.attentionSeconds + c.elementwiseSeconds + c.optimizerSeconds,
                   kExact);
    COMPARE_WITHIN(c.gemmSecondsAtPeak, 6 * weights * 524288 / (989e12 * factor), kExact);
}

void tst_ComputeTime::recomputationAndBubble() {
    Workload w = llama8bOn8H100();
    const ComputeTime plain = computeTime(w, 0);
    // Full recomputation runs the forward pass again: a third of products, attention and
    // elementwise work.
    w.recompute = Recompute::Full;
    const ComputeTime full = computeTime(w, 0);
    COMPARE_WITHIN(full.recomputeSeconds,
                   (plain.gemmSeconds + plain.attentionSeconds + plain.elementwiseSeconds) / 3,
                   kExact);
    // Selective recomputes the attention core only.
    w.recompute = Recompute::Selective;
    COMPARE_WITHIN(computeTime(w, 0).recomputeSeconds, plain.attentionSeconds / 3, kExact);
    // Two stages, four data-parallel replicas: 1,048,576 tokens a replica, 128 micro-batches
    // of 8,192; bubble (2 - 1) / 128 of the per-micro-batch work.
    w.recompute = Recompute::None;
    w.pp = 2;
    w.dp = 4;
    const ComputeTime staged = computeTime(w, 0);
    const double perMicroBatch =
        staged.gemmSeconds + staged.attentionSeconds + staged.elementwiseSeconds;
    COMPARE_WITHIN(staged.bubbleSeconds, perMicroBatch / 128, kExact);
    // Tensor-parallel traffic on scale-up: overlap hides its share.
    w.overlap = 0.25;
    COMPARE_WITHIN(computeTime(w, 2.0).tensorParallelSeconds, 1.5, kExact);
}

void tst_ComputeTime::publishedStepsWithoutMfu() {
    // Where the hardware model misses by more than the goal, and why.
    const std::map<std::string, const char*> knownMisses = {
        // Llama 3.1 405B in FP8 runs faster than its shapes say on H100 and slower on GB200:
        // not yet explained.
        {"llama31-405b-fp8-1152", "+15.1%: 405B in FP8"},
        {"l31-405b-fp8-512-h100-pp8", "+19.1%: 405B in FP8"},
        {"l31-405b-fp8-512-gb200", "-17.3%: 405B in FP8"},
        // Routed experts: one share of the dense efficiency cannot hold fine-grained
        // (DeepSeek-V3, 256 experts of 2,048) and coarse (Mixtral, 8 of 14,336) experts alike,
        // and the tokens' permutation and uneven expert load are not modelled.
        {"grok1-bf16-2048-h100", "-16%: experts' permutation and load"},
        {"dsv3-bf16-1024-h100", "-36%: fine-grained experts"},
        {"dsv3-bf16-256-gb200", "-51%: fine-grained experts"},
        {"dsv3-fp8-256-b200-mb", "-67%: fine-grained experts"},
        {"mixtral-8x7b-fp8-64-b200", "-30%: experts' permutation and load"},
        {"mixtral-8x7b-fp8-64-gb200", "-28%: experts' permutation and load"},
        // Fit rows the one share per GPU and precision cannot hold all at once.
        {"grok1-fp8-2048-h100", "fit set, -29%: experts' permutation and load"},
        {"dsv3-bf16-1024-h100-mb", "fit set, +30%: fine-grained experts"},
        {"mixtral-8x22b-fp8-256-b200-64k", "fit set, +15.1%: experts at 64K sequences"},
        {"n4-340b-fp8-128-b200", "fit set, +15.2%: B200's FP8 fit from two rows that pull apart"},
    };
    const Catalog& catalog = Catalog::builtin();
    double checkErrors = 0;
    int checks = 0;
    QStringList wrong;
    for (StepFigure figure : builtinStepFigures()) {
        figure.workload.erase("mfu");
        const StepCheck check = checkStepFigure(figure, catalog);
        const bool within = std::abs(check.error) <= kGoal;
        const bool known = knownMisses.count(figure.id) > 0;
        if (figure.calibrates.empty()) {
            checkErrors += std::abs(check.error);
            ++checks;
        }
        if (within == known)
            wrong << (QStringLiteral("%1 (%2 set): predicted %3 s against %4 s published, "
                                     "%5%%6")
                          .arg(QString::fromStdString(figure.id))
                          .arg(figure.calibrates.empty() ? "check" : "fit")
                          .arg(check.stepSeconds, 0, 'f', 3)
                          .arg(figure.publishedSeconds, 0, 'f', 3)
                          .arg(100 * check.error, 0, 'f', 1)
                          .arg(known ? QStringLiteral(": a known miss now within the goal")
                                     : QString()));
    }
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("\n"))));
    qInfo("check set: mean absolute error %.1f%% over %d rows", 100 * checkErrors / checks, checks);
}

QTEST_GUILESS_MAIN(tst_ComputeTime)
#include "tst_ComputeTime.moc"
