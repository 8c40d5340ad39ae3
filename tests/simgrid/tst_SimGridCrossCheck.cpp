// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// FabricLab against SimGrid, the established flow-level simulator, on the very same flows:
// small leaf/spine fabrics (roce-v2, static ECMP, so every flow has one path) at 1:1 and
// 3:1, under a permutation, a rail ring and an all-to-all. Each flow's path is FabricLab's
// route; SimGrid gets a host per NIC, a link per channel and that path as the route
// (bench/SimGridPeer.hpp), and runs CM02 with every correction off, i.e. pure max-min.
// Two independent implementations must then give every flow the same rate, and the same
// finish time when the flows drain.
//
// SimGrid allows one engine per process, so its side of every row runs in a forked child
// (bench/ChildProcess.hpp); the parent compares.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "bench/ChildProcess.hpp"
#include "bench/FlowSet.hpp"
#include "bench/SimGridPeer.hpp"
#include "bench/Traffic.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/FlowSimulator.hpp"
#include "model/sim/FlowSolver.hpp"
#include "model/topology/Topology.hpp"
#include "support/GeneratorRequests.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>
#endif

using namespace fabriclab;

namespace {

// Both simulators solve the same max-min problem exactly up to rounding: rates come out
// of divisions and of capacities reduced by sums of frozen rates, summed in different
// orders, so they may differ in the last few bits. SimGrid moves results further only by
// its precision settings, which SimGridPeer sets to 1e-13 (see kExactPrecision there):
// at SimGrid's default of 1e-5, surf/precision finishes together every flow due within
// 10 us of an event, and the 3:1 permutation drain below comes out up to ~9 us (about 1%
// of its makespan) off. 1e-9 relative is far above rounding and far below any real
// difference in fairness, routing or timing.
constexpr double kRelTol = 1e-9;

bool fuzzyEqual(double actual, double expected) {
    if (actual == expected)
        return true;
    return std::abs(actual - expected) <= kRelTol * std::max(std::abs(actual), std::abs(expected));
}

/// 32 servers x 4 NICs, rail-optimized, on leaves and spines of radix 16. At 1:1 a leaf
/// has 8 downlinks and 8 uplinks (16 leaves, 8 spines); at 3:1 it has 12 downlinks and 4
/// uplinks (12 leaves, 4 spines), so flows between leaves share uplinks. Small enough for
/// an all-to-all (15,872 flows across servers), large enough that ECMP collisions give
/// the permutations a dozen distinct rates and the all-to-alls hundreds.
model::GeneratorParams smallLeafSpine(double oversubscription) {
    return testing::generatorRequest("leaf-spine", 32, 4, true, 16, 16, 16, oversubscription, 1.0);
}

const model::Fabric& roceV2() {
    const model::Fabric* fabric = model::Catalog::builtin().findFabric("roce-v2");
    if (fabric == nullptr)
        qFatal("the builtin catalog has no roce-v2 fabric");
    return *fabric;
}

/// A generated fabric and its flows under one pattern; heap-held because the network
/// points into the topology.
struct Scenario {
    std::unique_ptr<model::Topology> topology;
    std::unique_ptr<sim::FabricNetwork> network;
    std::unique_ptr<bench::NicNumbering> nics;
    std::vector<bench::NicPair> pairs;
    bench::FlowSet flows;
};

std::unique_ptr<Scenario> scenario(const model::GeneratorParams& params,
                                   const QByteArray& pattern) {
    auto s = std::make_unique<Scenario>();
    s->topology =
        std::make_unique<model::Topology>(testing::generateOrFail(model::generate, params));
    if (QTest::currentTestFailed())
        return nullptr;
    s->network = std::make_unique<sim::FabricNetwork>(*s->topology, roceV2());
    s->nics = std::make_unique<bench::NicNumbering>(*s->network);
    if (pattern == "permutation")
        s->pairs = bench::randomPermutation(*s->nics, 42);
    else if (pattern == "ring")
        s->pairs = bench::ring(*s->nics);
    else
        s->pairs = bench::allToAll(*s->nics);
    s->flows = bench::routeFlows(*s->network, *s->nics, s->pairs);
    return s;
}

/// Every row: the two oversubscriptions times the three patterns.
void addFabricPatternRows(bool withAllToAll) {
    QTest::addColumn<model::GeneratorParams>("params");
    QTest::addColumn<QByteArray>("pattern");
    for (const double ratio : {1.0, 3.0}) {
        const model::GeneratorParams params = smallLeafSpine(ratio);
        for (const char* pattern : {"permutation", "ring", "all-to-all"}) {
            if (!withAllToAll && QByteArray(pattern) == "all-to-all")
                continue;
            QTest::addRow("%g:1 %s", ratio, pattern) << params << QByteArray(pattern);
        }
    }
}

} // namespace

class tst_SimGridCrossCheck : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ratesAgree_data();
    void ratesAgree();
    void drainsAgree_data();
    void drainsAgree();
};

void tst_SimGridCrossCheck::ratesAgree_data() {
    addFabricPatternRows(true);
}

/// One max-min solve: FabricLab's heap solver, loaded the way FlowSimulator loads it (a
/// constraint per channel, an unbounded weight-1 variable per flow), against SimGrid's
/// first share of the same flows.
void tst_SimGridCrossCheck::ratesAgree() {
    QFETCH(model::GeneratorParams, params);
    QFETCH(QByteArray, pattern);

    const auto s = scenario(params, pattern);
    if (!s)
        return;
    const bench::FlowSet& flows = s->flows;
    QVERIFY(flows.size() > 0);
    if (pattern != "all-to-all")
        QCOMPARE(flows.localPairs, std::size_t{0}); // every flow crosses the fabric

    const auto solver = sim::makeSolver("heap");
    for (const double capacity : flows.capacityGbps)
        solver->addConstraint(capacity);
    for (std::size_t f = 0; f < flows.size(); ++f) {
        const sim::VariableId v = solver->addVariable();
        for (const std::uint32_t channel : flows.path(f))
            solver->expand(v, sim::ConstraintId{channel}, 1.0);
    }
    solver->solve();

    const bench::ChildOutcome simgrid =
        bench::runInChild([&] { return bench::SimGridPeer(flows).firstShare().rateGbps; });
    QVERIFY2(simgrid.ok(), simgrid.error.c_str());
    QCOMPARE(simgrid.values.size(), flows.size());

    for (std::size_t f = 0; f < flows.size(); ++f) {
        const double fabriclab = solver->rate(sim::VariableId{static_cast<std::uint32_t>(f)});
        const double peer = simgrid.values[f];
        QVERIFY2(
            std::isfinite(fabriclab) && fabriclab > 0,
            qPrintable(
                QStringLiteral("flow %1: FabricLab rate %2").arg(f).arg(fabriclab, 0, 'g', 17)));
        QVERIFY2(
            fuzzyEqual(fabriclab, peer),
            qPrintable(QStringLiteral("flow %1 (NIC %2 -> %3): FabricLab %4 Gb/s, SimGrid %5 Gb/s")
                           .arg(f)
                           .arg(flows.source[f])
                           .arg(flows.sink[f])
                           .arg(fabriclab, 0, 'g', 17)
                           .arg(peer, 0, 'g', 17)));
    }
}

// All-to-all is left out of the drains: FlowSimulator applies the fabric's incast
// efficiency to receivers with several senders, a congestion loss SimGrid does not model,
// so its drain is not the same problem. Permutations and rings have one sender per
// receiver, hence none.
void tst_SimGridCrossCheck::drainsAgree_data() {
    addFabricPatternRows(false);
}

/// Every flow drained to completion, 4 MiB each: FlowSimulator's event loop (exact: no
/// event or work cap) against SimGrid's. FlowSimulator adds a start-up latency after each
/// transfer's last byte and SimGrid runs without latency, so the latency is taken off.
/// Tolerance: FlowSimulator retires a flow once at most 1e-9 of its bytes remain, which
/// moves its finish by about 1e-9 of the time it has been running, hence 1e-9 of the
/// makespan (plus rounding) bounds the difference.
void tst_SimGridCrossCheck::drainsAgree() {
    QFETCH(model::GeneratorParams, params);
    QFETCH(QByteArray, pattern);
    constexpr double kBytes = 4.0 * 1024 * 1024;

    const auto s = scenario(params, pattern);
    if (!s)
        return;
    std::vector<sim::Transfer> transfers;
    for (const auto& [from, to] : s->pairs)
        transfers.push_back(
            sim::Transfer{s->nics->endpoint(from), s->nics->endpoint(to), kBytes, {}, 0, 0});
    QCOMPARE(transfers.size(), s->flows.size());

    sim::SimulationOptions options;
    options.maxEvents = std::numeric_limits<std::size_t>::max();
    options.maxWork = std::numeric_limits<std::size_t>::max();
    const sim::SimulationResult result =
        sim::FlowSimulator{}.run(*s->network, transfers, {}, options);
    QVERIFY(!result.drainEstimated);

    const bench::FlowSet& flows = s->flows;
    const bench::ChildOutcome simgrid = bench::runInChild([&] {
        const bench::SimGridPeer::Drain drain = bench::SimGridPeer(flows).drain(kBytes);
        std::vector<double> values = drain.finishSeconds;
        values.push_back(drain.makespan);
        return values;
    });
    QVERIFY2(simgrid.ok(), simgrid.error.c_str());
    QCOMPARE(simgrid.values.size(), flows.size() + 1);
    const double makespan = simgrid.values.back();
    QVERIFY(makespan > 0);

    double fabriclabMakespan = 0;
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const sim::Route route =
            s->network->route(transfers[i].from, transfers[i].to, transfers[i].flowKey);
        const double finish = result.finishTimes[i] - s->network->latency(route).value;
        fabriclabMakespan = std::max(fabriclabMakespan, finish);
        QVERIFY2(std::abs(finish - simgrid.values[i]) <= kRelTol * makespan,
                 qPrintable(QStringLiteral("flow %1: FabricLab finishes at %2 s, SimGrid at %3 s")
                                .arg(i)
                                .arg(finish, 0, 'g', 17)
                                .arg(simgrid.values[i], 0, 'g', 17)));
    }
    QVERIFY2(fuzzyEqual(fabriclabMakespan, makespan),
             qPrintable(QStringLiteral("makespan: FabricLab %1 s, SimGrid %2 s")
                            .arg(fabriclabMakespan, 0, 'g', 17)
                            .arg(makespan, 0, 'g', 17)));
}

QTEST_APPLESS_MAIN(tst_SimGridCrossCheck)
#include "tst_SimGridCrossCheck.moc"
