// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Serving from the hardware (model/workload/ServingCompute, model::estimateServing): the KV
// cache sizes every serving engineer quotes, a decode step and a memory-bound batch worked by
// hand from the catalog, the KV hand-over of disaggregated serving on the fabric against its
// physical bound, the verdict on whether the fabric matters, and every published serving
// figure (resources/validation/serving.json, sources in docs/sources.md): fit rows to their
// own tolerance (the constants solved on them, scripts/fit-serving.py), check rows to the 20%
// goal or a known miss with its finding.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "model/advice/FabricVerdict.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"
#include "model/validation/PublishedServing.hpp"
#include "model/workload/ServingCompute.hpp"
#include "support/DesignText.hpp"
#include "support/RelativeCompare.hpp"
#endif

#include <cmath>

using namespace fabriclab::model;

namespace {

// Products of the catalog's decimals: 1e-9 relative is rounding.
constexpr double kExact = 1e-9;

ServingWorkload served(const char* model, const char* gpu, Precision precision) {
    ServingWorkload w;
    w.model.spec = *Catalog::builtin().findModel(model);
    w.gpu.spec = *Catalog::builtin().findGpu(gpu);
    w.precision = precision;
    return w;
}

/// `servers` 8-GPU servers on `fabric` (a leaf-spine, rail-optimized or not, spines cut by
/// `oversubscription`), serving `serving`.
RunReport runServing(const nlohmann::json& serving, int servers, const char* fabric,
                     double oversubscription = 1.0, bool railOptimized = true) {
    auto generator = fabriclab::testing::railGenerator(servers);
    generator["oversubscription"] = oversubscription;
    generator["railOptimized"] = railOptimized;
    auto design = fabriclab::testing::generatedDesign("serving", fabric, generator);
    design["serving"] = serving;
    RunOptions options;
    options.bisection = false;
    return runDesign(parseDesign(design.dump(), "serving", Catalog::builtin()), Catalog::builtin(),
                     options);
}

/// `model` in BF16, TP8, prefill on the first 8 of 16 servers and decode on the other 8:
/// every prefill replica hands a prompt's KV cache to a decode server.
nlohmann::json disaggregated(const char* model, int prompt) {
    return {{"model", model}, {"gpu", "h100-sxm"}, {"inputTokens", prompt}, {"outputTokens", 256},
            {"batch", 16},    {"tp", 8},           {"disaggregated", true}, {"prefillServers", 8}};
}

} // namespace

class tst_Serving : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void kvCachePerToken_data();
    void kvCachePerToken();
    void decodeStepByHand();
    void batchFromMemory();
    void colocatedStaysOffTheFabric();
    void kvHandOverOnTheFabric();
    void fabricVerdictOnServing();
    void publishedServingFigures();
};

void tst_Serving::kvCachePerToken_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("bytes");
    // BF16, 2 bytes a value: layers x 2 (keys, values) x key/value heads x head width.
    // Llama 3 8B: 32 x 2 x 8 x 128 x 2 = 128 KiB, the figure vLLM's and SGLang's KV sizing
    // quotes; 70B: 80 x 2 x 8 x 128 x 2 = 320 KiB (Mooncake's 40 GB for 128K tokens of it).
    QTest::newRow("llama3-8b") << "llama3-8b" << 131072.0;
    QTest::newRow("llama3-70b") << "llama3-70b" << 327680.0;
    // GPT-3 175B, full multi-head attention: 96 x 2 x 12,288 x 2 = 4.5 MiB, DistServe's
    // "4.5 MB per token" for OPT-175B, which has the same shape.
    QTest::newRow("gpt3-175b") << "gpt3-175b" << 4718592.0;
    // DeepSeek-V3's multi-latent attention caches 512 + 64 values a layer: 61 x 576 x 2.
    QTest::newRow("deepseek-v3") << "deepseek-v3" << 70272.0;
}

void tst_Serving::kvCachePerToken() {
    QFETCH(QString, model);
    QFETCH(double, bytes);
    ServingWorkload w = served(model.toStdString().c_str(), "h100-sxm", Precision::Bf16);
    w.batch = 1;
    w.tp = 8;
    QCOMPARE(servingCompute(w).kvBytesPerToken, bytes);
}

void tst_Serving::decodeStepByHand() {
    // Llama 3 8B in BF16 on one H100, one request of 1,000 + 1,000 tokens.
    ServingWorkload w = served("llama3-8b", "h100-sxm", Precision::Bf16);
    w.inputTokens = 1000;
    w.outputTokens = 1000;
    w.batch = 1;
    const GpuSpec& h100 = w.gpu.spec;
    const ServingCompute c = servingCompute(w);
    // Every weight read once a step: 8.03e9 x 2 bytes at 3.35 TB/s x 0.8 = 5.99 ms.
    COMPARE_WITHIN(c.decodeWeightSeconds, 8.03e9 * 2 / (3.35e12 * 0.8), kExact);
    // The request's cache at its mean length, 1,500 tokens of 128 KiB, at the KV read share.
    COMPARE_WITHIN(c.decodeKvSeconds, 1500 * 131072.0 / (3.35e12 * h100.kvReadEfficiency), kExact);
    // One token's products are far below the reads: the step is the reads plus the passes'
    // overhead, 32 layers of it.
    QVERIFY(c.decodeMathSeconds < c.decodeWeightSeconds);
    COMPARE_WITHIN(c.decodeStepSeconds,
                   c.decodeWeightSeconds + c.decodeKvSeconds + 32 * h100.layerOverheadUs * 1e-6,
                   kExact);
    // The weights and the cache at full length: 16.06 GB + 2,000 x 128 KiB.
    COMPARE_WITHIN(c.memoryPerGpu, 8.03e9 * 2 + 2000 * 131072.0, kExact);
    QVERIFY(c.fits);
}

void tst_Serving::batchFromMemory() {
    // Llama 3 70B in FP8 on one 80 GB H100: 70.6 GB of weights leave 9.4 GB, of which the
    // KV cache takes 90% (8.46 GB); a request of 1,000 + 1,000 tokens holds 2,000 x 160 KiB
    // (FP8) = 327.7 MB of it, so 25 requests fit.
    ServingWorkload w = served("llama3-70b", "h100-sxm", Precision::Fp8);
    w.inputTokens = 1000;
    w.outputTokens = 1000;
    const ServingCompute one = servingCompute(w);
    QCOMPARE(one.batch, 25);
    QVERIFY(one.batchFromMemory);
    QVERIFY(one.fits);
    // Split over two GPUs each holds half the weights and half of every request's cache:
    // 0.9 x (80 - 35.3) GB / 163.84 MB = 245 requests.
    w.tp = 2;
    QCOMPARE(servingCompute(w).batch, 245);
    // A batch given is kept, and one that overflows the memory is said not to fit.
    w.tp = 1;
    w.batch = 64;
    const ServingCompute given = servingCompute(w);
    QCOMPARE(given.batch, 64);
    QVERIFY(!given.batchFromMemory);
    QVERIFY(!given.fits);
}

void tst_Serving::colocatedStaysOffTheFabric() {
    // Eight TP8 replicas of Llama 3 70B, each inside its server: the fabric carries nothing,
    // and the same design on an 8:1 Ethernet serves exactly as on InfiniBand.
    const nlohmann::json serving = {{"model", "llama3-70b"}, {"gpu", "h100-sxm"},
                                    {"inputTokens", 2048},   {"outputTokens", 256},
                                    {"batch", 32},           {"tp", 8}};
    const RunReport ib = runServing(serving, 8, "ib-ndr");
    const RunReport ethernet = runServing(serving, 8, "ethernet-tcp", 8.0);
    QVERIFY(ib.serving && ethernet.serving);
    QVERIFY(!ib.serving->usesFabric);
    QCOMPARE(ib.serving->replicas, 8);
    QCOMPARE(ethernet.serving->ttftSeconds, ib.serving->ttftSeconds);
    QCOMPARE(ethernet.serving->outputTokensPerSecondPerGpu,
             ib.serving->outputTokensPerSecondPerGpu);
}

void tst_Serving::kvHandOverOnTheFabric() {
    // Llama 3 70B, 4,096-token prompts, servers wired to one leaf per rail: GPU g of a
    // prefill server and GPU g of a decode server share a rail, so each shard stays on its
    // leaf.
    const RunReport ib = runServing(disaggregated("llama3-70b", 4096), 16, "ib-ndr");
    QVERIFY(ib.serving);
    const fabriclab::model::ServingEstimate& s = *ib.serving;
    QVERIFY(s.usesFabric);
    QCOMPARE(s.prefillReplicas, 8);
    QCOMPARE(s.decodeReplicas, 8);
    // 4,096 tokens x 320 KiB = 1.342 GB a request, an eighth from each GPU of the replica.
    COMPARE_WITHIN(s.kvBytesPerRequest, 4096 * 327680.0, kExact);
    // Physical bound: no GPU's shard crosses faster than its NIC's line rate (400 Gb/s).
    const double shard = s.kvBytesPerRequest / 8;
    QVERIFY2(s.kvTransferSeconds >= shard / 50e9,
             qPrintable(QString::number(s.kvTransferSeconds * 1e3) + " ms"));
    // Each shard has its rail to itself: within 1% of the NIC's goodput, latency included.
    COMPARE_WITHIN(s.kvTransferSeconds, s.kvTransferIdealSeconds, 0.01);
    COMPARE_WITHIN(s.ttftSeconds, s.compute.prefillSeconds + s.kvTransferSeconds, kExact);
    // Wired without rails, with the spines cut 4:1, the prefill servers' leaves reach the
    // decode servers' through a quarter of their bandwidth: the 64 shards crossing at once
    // take 4 times as long, within 5% (ECMP hashing loads the uplinks a little unevenly).
    const RunReport cut = runServing(disaggregated("llama3-70b", 4096), 16, "ib-ndr", 4.0, false);
    QVERIFY(cut.serving);
    const double slowdown = cut.serving->kvTransferSeconds / s.kvTransferSeconds;
    QVERIFY2(slowdown >= 3.9 && slowdown <= 4.2, qPrintable(QString::number(slowdown)));
    QVERIFY(cut.serving->ttftSeconds > s.ttftSeconds);
}

void tst_Serving::fabricVerdictOnServing() {
    // GPT-3 175B keeps 4.5 MiB of cache a token: handing 2,048-token prompts over host-staged
    // TCP instead of InfiniBand slows the first token past the 5% the verdict allows, and the
    // sentence names both fabrics.
    const RunReport ib = runServing(disaggregated("gpt3-175b", 2048), 16, "ib-ndr");
    const RunReport tcp = runServing(disaggregated("gpt3-175b", 2048), 16, "ethernet-tcp");
    const auto [sentence, matters] = servingVerdict({fabricOutcome(ib), fabricOutcome(tcp)});
    QVERIFY2(matters, sentence.c_str());
    QVERIFY(sentence.find("the fabric matters") != std::string::npos);
    QVERIFY(sentence.find(ib.fabric.name) != std::string::npos);
    QVERIFY(sentence.find(tcp.fabric.name) != std::string::npos);
    // Served inside each server instead, the fabric does not matter, and the verdict says
    // why.
    nlohmann::json colocated = disaggregated("gpt3-175b", 2048);
    colocated.erase("disaggregated");
    colocated.erase("prefillServers");
    const auto [quiet, mattersNot] =
        servingVerdict({fabricOutcome(runServing(colocated, 16, "ib-ndr")),
                        fabricOutcome(runServing(colocated, 16, "ethernet-tcp"))});
    QVERIFY2(!mattersNot, quiet.c_str());
    QVERIFY(quiet.find("scale-up domain") != std::string::npos);
    // Without serving there is nothing to say.
    QVERIFY(servingVerdict({FabricOutcome{}, FabricOutcome{}}).first.empty());
}

void tst_Serving::publishedServingFigures() {
    const Catalog& catalog = Catalog::builtin();
    QStringList wrong;
    double errors = 0;
    int checks = 0;
    int within = 0;
    for (const ServingFigure& figure : builtinServingFigures()) {
        const ServingCheck check = checkServingFigure(figure, catalog);
        if (!figure.fit()) {
            errors += std::abs(check.error);
            ++checks;
            within += check.withinTolerance ? 1 : 0;
        }
        // A fit row must stay on its figure; a check row within the goal unless it is a
        // known miss, and a known miss that now passes is reported too.
        if (check.withinTolerance == figure.knownMiss())
            wrong << QStringLiteral("%1 (%2): %3 %4 against %5 published, %6%%7")
                         .arg(QString::fromStdString(figure.id))
                         .arg(figure.fit() ? "fit" : "check")
                         .arg(QString::fromLatin1(toString(figure.metric).data()))
                         .arg(check.value, 0, 'f', 2)
                         .arg(figure.published, 0, 'f', 2)
                         .arg(100 * check.error, 0, 'f', 1)
                         .arg(figure.knownMiss() ? QStringLiteral(": a known miss now within")
                                                 : QString());
    }
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("\n"))));
    qInfo("serving check set: %d of %d within tolerance, mean absolute error %.1f%%", within,
          checks, 100 * errors / checks);
}

QTEST_GUILESS_MAIN(tst_Serving)
#include "tst_Serving.moc"
