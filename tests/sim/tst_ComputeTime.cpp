// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The training step worked out from the hardware, with no MFU given (model/workload/
// ComputeTime, sim::estimateStep). One split is worked by hand from the catalog's figures
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
    // at 989 TFLOP/s x the fitted BF16 efficiency.
    const double weights = 8.03e9 - 128256.0 * 4096;
    COMPARE_WITHIN(c.gemmSeconds, 6 * weights * 524288 / (989e12 * h100.gemmEfficiencyBf16),
                   kExact);
    // Attention: 6 x 32 layers x 4,096 x 8,192 x 524,288 tokens a GPU, at BF16 x 0.5.
    COMPARE_WITHIN(c.attentionSeconds,
                   6 * 32 * 4096.0 * 8192 * 524288 / (989e12 * h100.attentionEfficiency), kExact);
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
    COMPARE_WITHIN(c.gemmSecondsAtPeak, 6 * weights * 524288 / 989e12, kExact);
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
        // One efficiency per GPU and precision has no GEMM shape: Llama 3.1 405B's 16,384-wide
        // FP8 products run at a larger share of peak than the fit set's 8,192-wide ones.
        {"llama31-405b-fp8-1152", "+17.5%: FP8 products of a 16K-wide model"},
        {"l31-405b-fp8-512-h100-pp8", "+21.7%: FP8 products of a 16K-wide model"},
        {"l31-405b-fp8-512-gb200", "-18.6%: not yet explained"},
        {"l3-70b-fp8-64-gb200-fsdp", "-15.8%: FSDP's parameter gathers are not in the compute"},
        // Routed experts: one share of the dense efficiency cannot hold fine-grained
        // (DeepSeek-V3, 256 experts of 2,048) and coarse (Mixtral, 8 of 14,336) experts alike,
        // and the tokens' permutation and uneven expert load are not modelled.
        {"dsv3-bf16-1024-h100", "-36%: fine-grained experts"},
        {"dsv3-bf16-256-gb200", "-51%: fine-grained experts"},
        {"dsv3-fp8-256-b200-mb", "-69%: fine-grained experts"},
        {"mixtral-8x7b-fp8-64-b200", "-28%: experts' permutation and load"},
        {"mixtral-8x7b-fp8-64-gb200", "-28%: experts' permutation and load"},
        {"grok1-fp8-2048-h100", "fit set, -25%: experts' permutation and load"},
        {"dsv3-bf16-1024-h100-mb", "fit set, +28%: fine-grained experts"},
        // B200's FP8 efficiency is fitted on two rows that pull apart: Llama 3 70B's 8K-wide
        // products and Nemotron-4 340B's 18K-wide ones, the GEMM shape again.
        {"l3-70b-fp8-64-b200-nemo", "fit set, -18.6%: GEMM shape"},
        {"n4-340b-fp8-128-b200", "fit set, +19.2%: GEMM shape"},
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
