// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Ranking a training job's splits on a design's fabric (model::planLayouts): every split it
// returns uses every GPU, fits in memory and comes faster first; and the fabric changes the
// answer, as a planner for a real cluster must.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/workload/LayoutPlan.hpp"
#include "support/BuiltinCatalog.hpp"
#include "support/GeneratorRequests.hpp"
#endif

#include <stdexcept>

using namespace fabriclab;
using namespace fabriclab::sim;
using namespace fabriclab::model;

namespace {

model::Topology cluster(int servers, double oversubscription, bool rails = true) {
    return testing::generateOrFail(model::generateLeafSpine,
                                   testing::generatorRequest("leaf-spine", servers, 8, rails, 64,
                                                             64, 64, oversubscription, 1.0));
}

model::Workload job(const char* modelId, long long tokens) {
    model::Workload w;
    w.model.spec = *model::Catalog::builtin().findModel(modelId);
    w.gpu.spec = *model::Catalog::builtin().findGpu("h100-sxm");
    w.globalBatchTokens = tokens;
    w.zero = 1;
    return w;
}

QString describe(const model::Workload& w) {
    return QStringLiteral("tp %1 cp %2 pp %3 vpp %4 dp %5 ep %6")
        .arg(w.tp)
        .arg(w.cp)
        .arg(w.pp)
        .arg(w.vpp)
        .arg(w.dp)
        .arg(w.ep);
}

} // namespace

class tst_LayoutPlan : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rankedSplitsFitAndUseEveryGpu();
    void theFabricChangesTheAnswer();
    void badRequestsAreRefused();
};

void tst_LayoutPlan::rankedSplitsFitAndUseEveryGpu() {
    const model::Topology topology = cluster(8, 1.0);
    if (QTest::currentTestFailed())
        return;
    const FabricNetwork network(topology, testing::builtinFabric("ib-ndr"));
    const LayoutPlan plan = planLayouts(network, job("llama3-70b", 1048576), 5);
    QVERIFY(plan.considered > plan.fitting);
    QVERIFY(plan.fitting >= 5);
    QCOMPARE(plan.ranked.size(), std::size_t(5));
    for (std::size_t i = 0; i < plan.ranked.size(); ++i) {
        const PlannedLayout& layout = plan.ranked[i];
        QCOMPARE(layout.workload.gpus(), 64LL);
        QVERIFY(layout.memory.fits);
        QVERIFY(layout.step.mfuPredicted());
        QVERIFY(!layout.workload.mfu);
        if (i > 0)
            QVERIFY(plan.ranked[i - 1].step.stepSeconds <= layout.step.stepSeconds);
        qInfo("%zu: %s  %.3f s, %.1f GB", i + 1, qPrintable(describe(layout.workload)),
              layout.step.stepSeconds, layout.memory.total / 1e9);
    }
}

void tst_LayoutPlan::theFabricChangesTheAnswer() {
    // Servers cabled to leaves by server, not by rail, so data-parallel rings cross the
    // spines, which the thin fabric has an eighth of.
    const model::Topology fast = cluster(16, 1.0, false);
    const model::Topology thin = cluster(16, 8.0, false);
    if (QTest::currentTestFailed())
        return;
    // Llama 3 8B on 2,048-token sequences fits data parallel alone. On a nonblocking
    // InfiniBand fabric its gradient exchange hides behind the backward pass; over TCP with
    // leaves 8:1 oversubscribed it does not, and a split that exchanges fewer gradient
    // bytes a GPU comes first.
    model::Workload w = job("llama3-8b", 1048576);
    w.seqLen = 2048;
    w.overlap = 0.9; // gradients reduced behind the backward pass, as Megatron does
    const LayoutPlan onFast =
        planLayouts(FabricNetwork(fast, testing::builtinFabric("ib-ndr")), w, 3);
    const LayoutPlan onThin =
        planLayouts(FabricNetwork(thin, testing::builtinFabric("ethernet-tcp")), w, 3);
    QVERIFY(!onFast.ranked.empty());
    QVERIFY(!onThin.ranked.empty());
    for (const auto* plan : {&onFast, &onThin})
        for (const PlannedLayout& layout : plan->ranked)
            qInfo("%s: %s  %.3f s", plan == &onFast ? "1:1 IB" : "8:1 TCP",
                  qPrintable(describe(layout.workload)), layout.step.stepSeconds);
    QVERIFY2(describe(onFast.ranked.front().workload) != describe(onThin.ranked.front().workload),
             "the same split ranks first on both fabrics");
}

void tst_LayoutPlan::badRequestsAreRefused() {
    const model::Topology topology = cluster(2, 1.0);
    if (QTest::currentTestFailed())
        return;
    const FabricNetwork network(topology, testing::builtinFabric("ib-ndr"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             planLayouts(network, job("llama3-8b", 1048576), 0));
}

QTEST_GUILESS_MAIN(tst_LayoutPlan)
#include "tst_LayoutPlan.moc"
