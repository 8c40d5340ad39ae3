// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Comparison rows that rebuild a design as another topology ("ib-ndr@fat-tree"): the row
// runs exactly the design the generator builds for that kind, is named by kind and fabric,
// and the verdict tells two topologies on one fabric apart.
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/report/FabricComparison.hpp"

#include <QtTest>

using namespace fabriclab::model;

namespace {

/// 1,024 GPUs as a dragonfly+ of 4 groups (128 servers of 8 NICs on 64-port switches).
Design dragonfly() {
    GeneratorParams p;
    p.kind = "dragonfly";
    p.servers = 128;
    p.nicSpeed = Gbps(400);
    p.extra["groups"] = 4;
    Design design;
    design.fabric = {*Catalog::builtin().findFabric("ib-ndr"), false};
    design.generator = p;
    design.topology = generate(p);
    return design;
}

ComparisonOptions quick() {
    ComparisonOptions options;
    options.run.detail = false;
    return options;
}

} // namespace

class tst_FabricComparison : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void candidateNamesFabricAndKind();
    void designAsKindKeepsTheServers();
    void designAsKindRefuses();
    void rowsOfTwoTopologiesOnOneFabric();
};

void tst_FabricComparison::candidateNamesFabricAndKind() {
    const ComparisonCandidate plain = comparisonCandidate("spectrum-x");
    QCOMPARE(plain.fabricId, std::string("spectrum-x"));
    QVERIFY(plain.kind.empty());
    const ComparisonCandidate kind = comparisonCandidate("ib-ndr@fat-tree");
    QCOMPARE(kind.fabricId, std::string("ib-ndr"));
    QCOMPARE(kind.kind, std::string("fat-tree"));
}

void tst_FabricComparison::designAsKindKeepsTheServers() {
    const Design fatTree = designAsKind(dragonfly(), "fat-tree");
    QCOMPARE(fatTree.generator->kind, std::string("fat-tree"));
    QCOMPARE(fatTree.topology.serverCount(), 128);
    QCOMPARE(fatTree.topology.gpuCount(), 1024);
    // The dragonfly's own field means nothing to a fat-tree: dropped.
    QVERIFY(!fatTree.generator->extra.contains("groups"));
    // 4 rail units of 32 servers (32 leaves) fit one pod of 32 spines: no core tier.
    QCOMPARE(fatTree.topology.switchCounts().leaf, 32);
    QCOMPARE(fatTree.topology.switchCounts().spine, 32);
}

void tst_FabricComparison::designAsKindRefuses() {
    Design drawn = dragonfly();
    drawn.generator.reset();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, designAsKind(drawn, "fat-tree"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, designAsKind(dragonfly(), "slim-fly"));
}

void tst_FabricComparison::rowsOfTwoTopologiesOnOneFabric() {
    const Design design = dragonfly();
    std::vector<ComparedFabric> rows;
    for (const char* id : {"ib-ndr@dragonfly", "ib-ndr@fat-tree"})
        rows.push_back(compareOnFabric(design, Catalog::builtin(), id, quick()));
    QVERIFY2(rows[0].ok(), rows[0].error.c_str());
    QVERIFY2(rows[1].ok(), rows[1].error.c_str());
    QCOMPARE(rows[0].outcome.fabricId, std::string("ib-ndr@dragonfly"));
    QVERIFY(rows[1].fabricName.starts_with("fat-tree on InfiniBand NDR"));
    // 4 groups of 8 leaves and 8 spines: 32 + 32; each spine's 32 global ports give 10
    // cables to each other group. The fat-tree of the same servers has 32 + 32 and no core.
    QCOMPARE(rows[0].report->switches.leaf, 32);
    QCOMPARE(rows[0].report->switches.spine, 32);
    QCOMPARE(rows[1].report->switches.spine, 32);
    // A halving of the groups crosses 4 of 6 group pairs: 4 x 8 spines x 10 x 400 Gb/s =
    // 128,000 of the 204,800 Gb/s half the NICs inject; the fat-tree is non-blocking.
    QCOMPARE(rows[0].report->bisection.minCut.value, 128000.0);
    QCOMPARE(rows[1].report->bisection.ratio, 1.0);
    const FabricVerdict verdict = comparisonVerdict(rows, design);
    QVERIFY(verdict.recommendedId == "ib-ndr@dragonfly" ||
            verdict.recommendedId == "ib-ndr@fat-tree");
}

QTEST_APPLESS_MAIN(tst_FabricComparison)
#include "tst_FabricComparison.moc"
