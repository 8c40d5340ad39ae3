// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// What-if failures: what each kind of failure takes out of a fabric, worked out by hand on a
// small rail-optimized leaf-spine, how the design file keeps them, and that a run honours
// them while counting and costing the fabric as built.
#include <QTest>

#ifndef Q_MOC_RUN
#include "model/analysis/Bisection.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/design/Failures.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"
#include "support/DesignText.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>
#endif

using namespace fabriclab::model;

namespace {

/// 64 servers x 8 NICs at 400G, radix 64, 1:1: two units of 32 servers, each on 8 rail
/// leaves of 32 down and 32 up; 16 x 32 = 512 uplinks over 8 spines, 4 cables from each
/// leaf to each spine. The worst halving splits the units, so everything between the
/// halves crosses the spines: 8 leaves x 32 x 400G = 102.4 Tb/s each way.
Topology railFabric() {
    GeneratorParams p;
    p.servers = 64;
    return generateLeafSpine(p);
}

nlohmann::json designWith(const nlohmann::json& failures) {
    nlohmann::json d = fabriclab::testing::generatedDesign("what-if", "ib-ndr",
                                                           fabriclab::testing::railGenerator(64));
    if (!failures.is_null())
        d["failures"] = failures;
    return d;
}

long long cables(const Topology& t) {
    long long total = 0;
    for (const auto& [id, link] : t.links())
        total += link.count;
    return total;
}

} // namespace

class tst_Failures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eachKindTakesItsShare_data();
    void eachKindTakesItsShare();
    void unknownElementsAreRefused();
    void designFileKeepsThem();
    void runHonoursThemAndCostsTheBuiltFabric();
    void scenariosReplay();
};

void tst_Failures::eachKindTakesItsShare_data() {
    QTest::addColumn<QString>("element");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("cableCount");       // "cables" of the failure, 0 = all
    QTest::addColumn<double>("capacity");      // share kept when degraded
    QTest::addColumn<int>("nodesLeft");        // of 64 + 16 + 8 = 88
    QTest::addColumn<long long>("cablesLeft"); // of 512 server + 512 leaf-spine = 1,024
    QTest::addColumn<double>("bisectionGbps"); // of 102,400 each way

    // A spine down: 16 x 4 = 64 uplinks go; each leaf keeps 28 of 32, 8 x 28 x 400G.
    QTest::addRow("a spine down") << "spine-1"
                                  << "down" << 0 << 1.0 << 87 << 960LL << 89600.0;
    // One of the 4 parallel cables of a leaf-spine link: one uplink of 256 on that side.
    QTest::addRow("one cable of a link") << "leaf-1/spine-1"
                                         << "down" << 1 << 1.0 << 88 << 1023LL << 102000.0;
    // A whole rail: a leaf in each unit goes with 32 server cables and 32 uplinks; servers
    // keep 7 of 8 NICs and each side 7 of 8 leaves: 7 x 32 x 400G.
    QTest::addRow("a rail down") << "rail-1"
                                 << "down" << 0 << 1.0 << 86 << 896LL << 89600.0;
    // A spine at half its capacity: each leaf's 4 cables to it run at 200G, worth 2 of
    // 32 uplinks: 8 x (28 + 2) x 400G.
    QTest::addRow("a spine degraded") << "spine-2"
                                      << "degraded" << 0 << 0.5 << 88 << 1024LL << 96000.0;
}

void tst_Failures::eachKindTakesItsShare() {
    QFETCH(QString, element);
    QFETCH(QString, kind);
    QFETCH(int, cableCount);
    QFETCH(double, capacity);
    QFETCH(int, nodesLeft);
    QFETCH(long long, cablesLeft);
    QFETCH(double, bisectionGbps);

    const Topology intact = railFabric();
    QCOMPARE(static_cast<int>(intact.nodes().size()), 88);
    QCOMPARE(cables(intact), 1024LL);
    QCOMPARE(theoreticalBisection(intact).minCut.value, 102400.0);

    Failure failure;
    failure.element = element.toStdString();
    failure.kind = *failureKindFromString(kind.toStdString());
    failure.cables = cableCount;
    failure.capacity = capacity;
    const Topology left = applyFailures(intact, {failure});
    QCOMPARE(static_cast<int>(left.nodes().size()), nodesLeft);
    QCOMPARE(cables(left), cablesLeft);
    QCOMPARE(theoreticalBisection(left).minCut.value, bisectionGbps);
    // The ids of what is left are the design's own, so results still name its links.
    for (const auto& [id, link] : left.links())
        QVERIFY(intact.links().count(id));
}

void tst_Failures::unknownElementsAreRefused() {
    const Topology t = railFabric();
    for (const char* element : {"spine-9", "rail-9", "rail-0", "leaf-1/leaf-2", "nowhere/x", ""})
        QVERIFY2(!resolveElement(t, element), element);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             applyFailures(t, {Failure{"spine-9", FailureKind::Down, 0, 1}}));

    // The reader names the entry and what is wrong with it.
    const Catalog& catalog = Catalog::builtin();
    const std::pair<nlohmann::json, const char*> refused[] = {
        {nlohmann::json::array({{{"element", "spine-9"}}}), "/failures/0/element"},
        {nlohmann::json::array({{{"element", "spine-1"}, {"kind", "melted"}}}), "/failures/0/kind"},
        {nlohmann::json::array({{{"element", "spine-1"}, {"kind", "degraded"}}}), "/failures/0"},
        {nlohmann::json::array({{{"element", "spine-1"}, {"cables", 1}}}), "/failures/0/cables"},
        {nlohmann::json::array(
             {{{"element", "leaf-1/spine-1"}, {"kind", "degraded"}, {"capacity", 1.5}}}),
         "/failures/0/capacity"},
        {nlohmann::json::array({{{"element", "spine-1"}, {"why", "fire"}}}), "/failures/0"},
    };
    for (const auto& [failures, where] : refused) {
        try {
            parseDesign(designWith(failures).dump(), "what-if.json", catalog);
            QFAIL(qPrintable(QString::fromStdString(failures.dump())));
        } catch (const std::exception& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String(where)), e.what());
        }
    }
}

void tst_Failures::designFileKeepsThem() {
    const nlohmann::json failures =
        nlohmann::json::array({{{"element", "spine-1"}, {"kind", "down"}},
                               {{"element", "leaf-2/spine-2"}, {"kind", "down"}, {"cables", 2}},
                               {{"element", "rail-3"}, {"kind", "degraded"}, {"capacity", 0.25}}});
    const Catalog& catalog = Catalog::builtin();
    const Design design = parseDesign(designWith(failures).dump(), "what-if.json", catalog);
    QCOMPARE(design.failures.size(), std::size_t{3});
    QCOMPARE(design.failures[1].cables, 2);
    QCOMPARE(design.failures[2].capacity, 0.25);
    // Saved and read back, byte for byte.
    const std::string saved = serializeDesign(design);
    const Design again = parseDesign(saved, "again.json", catalog);
    QVERIFY(again.failures == design.failures);
    QCOMPARE(serializeDesign(again), saved);
    // A design without failures writes no "failures" key.
    QVERIFY(serializeDesign(parseDesign(designWith(nullptr).dump(), "x.json", catalog))
                .find("failures") == std::string::npos);
}

void tst_Failures::runHonoursThemAndCostsTheBuiltFabric() {
    const Catalog& catalog = Catalog::builtin();
    const Design intact = parseDesign(designWith(nullptr).dump(), "intact.json", catalog);
    const Design failed =
        parseDesign(designWith(nlohmann::json::array({{{"element", "spine-1"}}})).dump(),
                    "failed.json", catalog);
    RunOptions options;
    options.bisectionSeeds = 2;
    const RunReport a = runDesign(intact, catalog, options);
    const RunReport b = runDesign(failed, catalog, options);
    // Counted and costed as built: a failed spine is still bought.
    QCOMPARE(b.switches.spine, a.switches.spine);
    QCOMPARE(b.cost.capex.value, a.cost.capex.value);
    // Run without it: 7 of 8 spines, as worked out above.
    QCOMPARE(a.bisection.minCut.value, 102400.0);
    QCOMPARE(b.bisection.minCut.value, 89600.0);
    QVERIFY(b.effective.gbps < a.effective.gbps);
    QCOMPARE(b.failures, std::vector<std::string>{"spine-1 down"});
    QCOMPARE(reportToJson(b)["failures"][0].get<std::string>(), std::string("spine-1 down"));
    QVERIFY(!reportToJson(a).contains("failures"));
}

void tst_Failures::scenariosReplay() {
    const Topology t = railFabric();
    QCOMPARE(loseOneSpine(t).front().element, std::string("spine-1"));
    QCOMPARE(loseOneRail(t).front().element, std::string("rail-1"));
    // The same seed fails the same cables; another seed others. Over seeds 1-5 each draw
    // of 5% of 512 switch-to-switch cables stays within 3 standard deviations of 25.6
    // (binomial, sigma 4.9), and never touches a server cable.
    QVERIFY(loseLinksAtRandom(t, 0.05, 7) == loseLinksAtRandom(t, 0.05, 7));
    QVERIFY(!(loseLinksAtRandom(t, 0.05, 7) == loseLinksAtRandom(t, 0.05, 8)));
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        long long down = 0;
        for (const Failure& f : loseLinksAtRandom(t, 0.05, seed)) {
            const auto target = resolveElement(t, f.element);
            QVERIFY(target && target->links.size() == 1);
            const Link& link = t.link(target->links.front());
            QVERIFY(t.tierOf(link) != LinkTier::Server);
            down += f.cables > 0 ? f.cables : link.count;
        }
        QVERIFY2(down >= 11 && down <= 40, qPrintable(QString::number(down)));
    }
    QVERIFY(loseLinksAtRandom(t, 0.0, 1).empty());
}

QTEST_APPLESS_MAIN(tst_Failures)
#include "tst_Failures.moc"
