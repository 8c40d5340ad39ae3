// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// What runDesign evaluates and what it refuses. A server placed and not cabled yet is
// left out of the figures with a warning naming it; a design that cannot be evaluated
// (no servers, none cabled, a switch over its radix, a fabric in pieces) is refused with
// a sentence naming the fault.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
#endif

using namespace fabriclab::model;

namespace {

/// 4 servers x 2 NICs on 2 leaves, one spine (2:1): small and hand-drawn.
Design teachingDesign() {
    return loadDesign(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json",
                      Catalog::builtin());
}

NodeId addNode(Topology& t, const std::string& name, NodeKind kind) {
    Node n;
    n.name = name;
    n.kind = kind;
    n.server.nics = 2;
    n.sw = SwitchProps{64, Gbps(400)};
    return t.addNode(n);
}

RunOptions withoutSimulation() {
    RunOptions options;
    options.simulate = false;
    return options;
}

} // namespace

class tst_RunReport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void uncabledServerIsWarnedAbout();
    void soundDesignHasNoWarnings();
    void uncabledServerDoesNotStopTheSimulation();
    void suppliedTheoreticalBisectionIsUsed();
    void trainingCostCountsTheNetworkOnce();
    void refused_data();
    void refused();
    void partialRunLeavesOutOnlyWhatItCannotCompute();
    void effectiveBisectionsAreRunDesigns();
    void singleSwitchLeavesTheHashNoChoice();
    void sprayingAndAdaptiveRoutingPartOnlyOverADegradedCable_data();
    void sprayingAndAdaptiveRoutingPartOnlyOverADegradedCable();
    void twoPlanesDrawnByHandAreSimulated();
};

void tst_RunReport::uncabledServerIsWarnedAbout() {
    const Design sound = teachingDesign();
    Design design = sound;
    addNode(design.topology, "srv-stray", NodeKind::Server);

    RunReport report;
    try {
        report = runDesign(design, Catalog::builtin(), withoutSimulation());
    } catch (const std::exception& e) {
        QFAIL(e.what());
    }
    const RunReport expected = runDesign(sound, Catalog::builtin(), withoutSimulation());
    // Teaching sample: each leaf 2 x 2 x 400G down, 2 x 400G up -> cut 800 Gb/s of 1,600.
    QCOMPARE(expected.bisection.minCut.value, 800.0);
    QCOMPARE(report.bisection.minCut.value, expected.bisection.minCut.value);
    QCOMPARE(report.bisection.ratio, expected.bisection.ratio);
    QCOMPARE(report.servers, 5); // the design still has it; the bisection leaves it out
    const std::vector<std::string> warning{
        "server srv-stray is not connected to any switch; left out of the bisection"};
    QCOMPARE(report.warnings, warning);
    // QCOMPARE cannot take JSON values (its overloads probe them as numbers).
    const auto json = reportToJson(report);
    QVERIFY(json.contains("warnings"));
    QVERIFY(json.at("warnings") == nlohmann::ordered_json(warning));
}

void tst_RunReport::trainingCostCountsTheNetworkOnce() {
    // A rented GPU-hour (docs/reference/published-figures.md: $2.90 on demand) already pays for the
    // network under it: doubling every switch and NIC price changes the fabric's capex and
    // $/GPU-hour but not what training costs a renter.
    std::ifstream in(FABRICLAB_SOURCE_DIR "/resources/catalog/prices.json");
    nlohmann::json prices = nlohmann::json::parse(in);
    for (const char* kind : {"switches", "nics"})
        for (auto& part : prices[kind]) {
            auto& price = part["priceUsd"];
            (price.is_object() ? price["value"] : price) =
                2 * (price.is_object() ? price["value"] : price).get<double>();
        }
    Catalog dear = Catalog::builtin();
    dear.loadPrices(prices.dump(), "doubled prices");
    const RunReport cheap = runDesign(teachingDesign(), Catalog::builtin());
    const RunReport costly = runDesign(teachingDesign(), dear);
    QVERIFY(cheap.training && costly.training);
    QVERIFY(costly.cost.capex.value > 1.5 * cheap.cost.capex.value);
    QCOMPARE(costly.training->costUsd, cheap.training->costUsd);
    QCOMPARE(cheap.training->costUsd, cheap.training->gpuHours * 2.90);
}

void tst_RunReport::soundDesignHasNoWarnings() {
    const RunReport report = runDesign(teachingDesign(), Catalog::builtin(), withoutSimulation());
    QVERIFY(report.warnings.empty());
    // Golden files of sound designs keep their shape.
    QVERIFY(!reportToJson(report).contains("warnings"));
}

void tst_RunReport::uncabledServerDoesNotStopTheSimulation() {
    // The stray server takes no part in traffic: the collective and the step come out as
    // for the design without it, the workload on the 32 cabled GPUs (dp 5 -> 4).
    const Design sound = teachingDesign();
    Design design = sound;
    const NodeId stray = addNode(design.topology, "srv-stray", NodeKind::Server);
    QCOMPARE(design.topology.node(stray).server.gpus, 8); // as the sample's servers
    QVERIFY(design.workload);
    design.workload->dp = 5;
    RunReport report;
    try {
        report = runDesign(design, Catalog::builtin());
    } catch (const std::exception& e) {
        QFAIL(e.what());
    }
    const RunReport expected = runDesign(sound, Catalog::builtin());
    QCOMPARE(report.collective.seconds, expected.collective.seconds);
    QCOMPARE(report.effective.gbps, expected.effective.gbps);
    QVERIFY(report.step && expected.step);
    QCOMPARE(report.step->stepSeconds, expected.step->stepSeconds);
    QCOMPARE(report.warnings.size(), std::size_t{2});
    QVERIFY(report.warnings[1].find("32 GPUs of connected servers") != std::string::npos);
}

void tst_RunReport::refused_data() {
    QTest::addColumn<int>("fault");
    QTest::addColumn<QString>("words");
    QTest::addRow("no servers") << 0 << "it has no servers";
    QTest::addRow("no server cabled") << 1 << "no server is connected to a switch";
    QTest::addRow("a leaf over its radix, beside an uncabled server")
        << 2 << "leaf leaf-1: uses 6 ports, radix is 4";
    QTest::addRow("a server on a leaf of its own")
        << 3 << "server srv-island cannot reach server srv-1";
}

void tst_RunReport::refused() {
    QFETCH(int, fault);
    QFETCH(QString, words);
    Design design = teachingDesign();
    Topology& t = design.topology;
    switch (fault) {
    case 0:
        for (const auto& name : {"srv-1", "srv-2", "srv-3", "srv-4"})
            t.removeNode(*t.findNode(name));
        break;
    case 1:
        for (const auto& name : {"srv-1", "srv-2", "srv-3", "srv-4"})
            t.removeNode(*t.findNode(name));
        addNode(t, "srv-stray", NodeKind::Server);
        break;
    case 2: {
        // leaf-1 has 2 x 2 server cables and 2 uplinks: 6 ports on a radix of 4.
        const NodeId leaf = *t.findNode("leaf-1");
        Node smaller = t.node(leaf);
        smaller.sw.radix = 4;
        t.replaceNode(leaf, smaller);
        addNode(t, "srv-stray", NodeKind::Server);
        break;
    }
    case 3: {
        const NodeId server = addNode(t, "srv-island", NodeKind::Server);
        t.addLink(Link{server, addNode(t, "leaf-island", NodeKind::Leaf), Gbps(400), 2,
                       LinkMedium::Dac, 2});
        break;
    }
    }
    try {
        runDesign(design, Catalog::builtin(), withoutSimulation());
        QFAIL("the design was evaluated");
    } catch (const std::invalid_argument& e) {
        const QString what = QString::fromStdString(e.what());
        QVERIFY2(what.startsWith(QStringLiteral("cannot evaluate this design: ")),
                 qPrintable(what));
        QVERIFY2(what.contains(words), qPrintable(what));
    }
}

void tst_RunReport::suppliedTheoreticalBisectionIsUsed() {
    // A caller that has the theoretical bisection already (the app, which also shows it
    // in its status bar) hands it in: the report carries it as given, and the engine does
    // not work it out a second time. The halves are the design's (the simulated traffic
    // crosses them); the min cut is deliberately not.
    const Design design = teachingDesign();
    BisectionResult given = theoreticalBisection(design.topology);
    given.minCut = Gbps(1234);
    int calls = 0;
    RunOptions options;
    options.theoretical = [&] {
        ++calls;
        return given;
    };
    const RunReport report = runDesign(design, Catalog::builtin(), options);
    QCOMPARE(calls, 1);
    QCOMPARE(report.bisection.minCut.value, 1234.0);
    QCOMPARE(report.effective.ratio, report.effective.gbps / 1234.0);

    options.bisection = false; // no bisection at all: not asked for
    runDesign(design, Catalog::builtin(), options);
    QCOMPARE(calls, 1);
}

void tst_RunReport::partialRunLeavesOutOnlyWhatItCannotCompute() {
    // One server's GPU count changed (as the inspector does): the workload's split no longer
    // fits, so the training step cannot be estimated. The CLI refuses the whole run; the
    // app, asking for a partial run, gets every other figure and the step's reason.
    Design design = teachingDesign();
    const NodeId server = *design.topology.findNode("srv-1");
    Node edited = design.topology.node(server);
    edited.server.gpus = 4;
    design.topology.replaceNode(server, edited);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runDesign(design, Catalog::builtin()));
    RunOptions partial;
    partial.partial = true;
    partial.detail = true;
    const RunReport report = runDesign(design, Catalog::builtin(), partial);
    QVERIFY(!report.step);
    QVERIFY(!report.training);
    QVERIFY2(report.stepRefusal.find("cannot estimate the training step") == 0,
             report.stepRefusal.c_str());
    QVERIFY(report.collectiveRefusal.empty());
    QCOMPARE(report.gpus, 28);
    QVERIFY(report.effective.gbps > 0);
    QCOMPARE(report.otherRoutings.size(), std::size_t{2}); // every routing but its own
    QVERIFY(report.collective.seconds > 0);
    QVERIFY(report.playback);
    QVERIFY(!report.busBwCurve.empty());
    QVERIFY(report.cost.capex.value > 0);
    // The same figures as a run of the same fabric without the workload.
    Design withoutWorkload = design;
    withoutWorkload.workload.reset();
    const RunReport bare = runDesign(withoutWorkload, Catalog::builtin(), partial);
    QCOMPARE(report.effective.gbps, bare.effective.gbps);
    QCOMPARE(report.collective.busBwGBps, bare.collective.busBwGBps);

    // The collective refused (SHARP asked of RoCE, whose switches do not reduce): its figures
    // go, with the reason; the step and the rest stay.
    Design sharp = teachingDesign();
    sharp.collective = CollectiveSpec{CollectiveOp::AllReduce, 1LL << 30,
                                      CollectiveAlgorithm::Sharp, CollectiveProtocol::Auto};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runDesign(sharp, Catalog::builtin()));
    const RunReport noCollective = runDesign(sharp, Catalog::builtin(), partial);
    QVERIFY2(noCollective.collectiveRefusal.find("in-network reduction") != std::string::npos,
             noCollective.collectiveRefusal.c_str());
    QCOMPARE(noCollective.collective.seconds, 0.0);
    QVERIFY(!noCollective.playback);
    QVERIFY(noCollective.busBwCurve.empty());
    QVERIFY(noCollective.step);
    QVERIFY(noCollective.stepRefusal.empty());
    QVERIFY(noCollective.effective.gbps > 0);
}

void tst_RunReport::effectiveBisectionsAreRunDesigns() {
    // The app shows a preview over fewer draws, then completes it with effectiveBisections:
    // it must be exactly what runDesign reports for the same draws, failures and uncabled
    // servers included.
    Design design = teachingDesign();
    Failure cable;
    cable.element = "leaf-1/spine-1";
    cable.cables = 1;
    design.failures = {cable};
    addNode(design.topology, "srv-uncabled", NodeKind::Server);
    for (const int seeds : {3, RunOptions{}.bisectionSeeds}) {
        RunOptions options;
        options.detail = true;
        options.bisectionSeeds = seeds;
        const RunReport run = runDesign(design, Catalog::builtin(), options);
        const EffectiveBisections again =
            effectiveBisections(design, run.fabric, run.bisection, options);
        QCOMPARE(again.effective.seeds, seeds);
        QCOMPARE(again.effective.gbps, run.effective.gbps);
        QCOMPARE(again.effective.minGbps, run.effective.minGbps);
        QCOMPARE(again.effective.maxGbps, run.effective.maxGbps);
        QCOMPARE(again.effective.stddevGbps, run.effective.stddevGbps);
        for (std::size_t t = 0; t < run.effective.tiers.size(); ++t)
            QCOMPARE(again.effective.tiers[t].carriedGbps, run.effective.tiers[t].carriedGbps);
        QCOMPARE(again.otherRoutings.size(), run.otherRoutings.size());
        for (std::size_t k = 0; k < run.otherRoutings.size(); ++k) {
            QVERIFY(again.otherRoutings[k].routing == run.otherRoutings[k].routing);
            QCOMPARE(again.otherRoutings[k].effective.gbps, run.otherRoutings[k].effective.gbps);
        }
    }
    // Without detail, as `fabriclab-cli run` computes it: the CLI's figure.
    const RunReport cli = runDesign(design, Catalog::builtin());
    const EffectiveBisections full =
        effectiveBisections(design, cli.fabric, cli.bisection, RunOptions{});
    QCOMPARE(full.effective.gbps, cli.effective.gbps);
    QVERIFY(full.otherRoutings.empty());
}

void tst_RunReport::singleSwitchLeavesTheHashNoChoice() {
    // On one leaf every flow has one path: hash keys cannot change a rate, so the collective
    // is timed once, not over draws. Two tiers on the same fabric (RoCE, static ECMP) are.
    const Design single = loadDesign(
        FABRICLAB_SOURCE_DIR "/samples/article000-64gpu-roce-v2.fabric.json", Catalog::builtin());
    QCOMPARE(single.topology.switchCounts().total(), 1);
    const RunReport one = runDesign(single, Catalog::builtin());
    QCOMPARE(one.collective.ecmpDraws, 1);
    QCOMPARE(one.collective.busBwMinGBps, one.collective.busBwGBps);
    QCOMPARE(one.collective.busBwMaxGBps, one.collective.busBwGBps);
    const fabriclab::sim::FabricNetwork network(single.topology, single.fabric.spec, 1);
    QVERIFY(!network.hasEqualCostChoice());

    const Design tiers = teachingDesign();
    QVERIFY(
        fabriclab::sim::FabricNetwork(tiers.topology, tiers.fabric.spec, 1).hasEqualCostChoice());
    QVERIFY(runDesign(tiers, Catalog::builtin()).collective.ecmpDraws > 1);
}

void tst_RunReport::sprayingAndAdaptiveRoutingPartOnlyOverADegradedCable_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<bool>("degraded");
    // Spectrum-X (adaptive) as built, and Ultra Ethernet (spraying) with eight bundles at
    // a quarter rate: the other routings as runDesign reports them beside the fabric's own.
    QTest::addRow("adaptive, healthy") << QStringLiteral("spectrum-x-1024gpu-rail") << false;
    QTest::addRow("spraying, degraded optics")
        << QStringLiteral("ultra-ethernet-1024gpu-degraded-optics") << true;
}

void tst_RunReport::sprayingAndAdaptiveRoutingPartOnlyOverADegradedCable() {
    QFETCH(QString, sample);
    QFETCH(bool, degraded);
    const Design design =
        loadDesign(FABRICLAB_SOURCE_DIR "/samples/" + sample.toStdString() + ".fabric.json",
                   Catalog::builtin());
    RunOptions options;
    options.detail = true;
    const RunReport run = runDesign(design, Catalog::builtin(), options);
    std::map<Routing, fabriclab::sim::EffectiveBisection> by;
    by.emplace(run.fabric.routing, run.effective);
    for (const RoutingBisection& other : run.otherRoutings)
        by.emplace(other.routing, other.effective);
    QCOMPARE(by.size(), std::size_t{3});
    const double adaptive = by.at(Routing::Adaptive).gbps;
    const double spraying = by.at(Routing::Spray).gbps;
    const double ecmp = by.at(Routing::Ecmp).gbps;
    if (!degraded) {
        // Every bundle between two tiers alike: both spread a flow by cables, exactly.
        QCOMPARE(spraying, adaptive);
    } else {
        // A quarter-rate bundle holds back every sprayed flow crossing it, and adaptive
        // routing steers around it: worked by hand on four servers in tst_FabricNetwork.
        QVERIFY2(
            spraying < 0.5 * adaptive,
            qPrintable(QStringLiteral("spraying %1, adaptive %2").arg(spraying).arg(adaptive)));
    }
    // Static ECMP's hash collisions cost it against adaptive routing either way (about
    // 1 - 1/e of the paths stay unused on one hashed stage: README, effective bisection).
    QVERIFY2(ecmp < 0.8 * adaptive,
             qPrintable(QStringLiteral("ecmp %1, adaptive %2").arg(ecmp).arg(adaptive)));
}

void tst_RunReport::twoPlanesDrawnByHandAreSimulated() {
    // Four servers of 8 GPUs and 2 NICs; NIC 1 of each lands in plane A (leaf-1, leaf-2
    // under spine-1), NIC 2 in plane B (leaf-3, leaf-4 under spine-2), two cables per
    // leaf-spine pair, so each plane is non-blocking. The run sees two planes; the
    // all-to-all crosses between them only inside servers, over NVLink (PXN), and its
    // bisection is the 4 x 400G the 4 server links of each half carry.
    nlohmann::json file = {{"format", "fabriclab-design"},
                           {"version", 1},
                           {"name", "two planes by hand"},
                           {"fabric", "ib-ndr"},
                           {"collective", {{"op", "alltoall"}, {"bytes", 268435456}}}};
    nlohmann::json nodes = nlohmann::json::array();
    for (const char* spine : {"spine-1", "spine-2"})
        nodes.push_back({{"id", spine}, {"kind", "spine"}, {"radix", 64}, {"portGbps", 400}});
    for (const char* leaf : {"leaf-1", "leaf-2", "leaf-3", "leaf-4"})
        nodes.push_back({{"id", leaf}, {"kind", "leaf"}, {"radix", 64}, {"portGbps", 400}});
    nlohmann::json links = nlohmann::json::array();
    const auto link = [&](const std::string& a, const std::string& b, int count) {
        links.push_back({{"a", a}, {"b", b}, {"gbps", 400}, {"count", count}});
    };
    for (int s = 1; s <= 4; ++s) {
        const std::string server = "srv-" + std::to_string(s);
        nodes.push_back({{"id", server}, {"kind", "server"}, {"gpus", 8}, {"nics", 2}});
        link(server, s <= 2 ? "leaf-1" : "leaf-2", 1);
        link(server, s <= 2 ? "leaf-3" : "leaf-4", 1);
    }
    link("leaf-1", "spine-1", 2);
    link("leaf-2", "spine-1", 2);
    link("leaf-3", "spine-2", 2);
    link("leaf-4", "spine-2", 2);
    file["nodes"] = nodes;
    file["links"] = links;
    const Design design = parseDesign(file.dump(), "two planes", Catalog::builtin());
    const RunReport run = runDesign(design, Catalog::builtin());
    QCOMPARE(run.switchPlanes, 2);
    QVERIFY(run.collective.algorithm == CollectiveAlgorithm::Pxn);
    QVERIFY(run.collective.seconds > 0 && std::isfinite(run.collective.seconds));
    QCOMPARE(run.bisection.minCut.value, 1600.0);
}

QTEST_APPLESS_MAIN(tst_RunReport)
#include "tst_RunReport.moc"
