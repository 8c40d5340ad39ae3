// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Repeated constraints (RepeatedConstraints.hpp): a channel whose row repeats an earlier
// one (the same flows, each by the same share of capacity) is dropped before the max-min
// solve. Hand-made rows check what counts as a repeat; whole fabrics check that the
// rates do not move, failures and static ECMP included.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/analysis/Bisection.hpp"
#include "model/design/Failures.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/FlowSolver.hpp"
#include "model/sim/RepeatedConstraints.hpp"
#include "support/BuiltinCatalog.hpp"
#include "support/GeneratorRequests.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>
#endif

using namespace fabriclab;
using namespace fabriclab::sim;

namespace {

/// Flows given as lists of (channel, fraction).
using Flows = std::vector<std::vector<PathElement>>;

FlowPaths pathsOf(const Flows& flows) {
    FlowPaths paths;
    for (const auto& flow : flows)
        paths.add(flow);
    return paths;
}

/// Max-min rates of the flows, every element kept or the repeated ones dropped.
std::vector<double> rates(const FlowPaths& paths, const std::vector<double>& capacity,
                          const std::vector<char>* drop) {
    const auto solver = makeSolver("heap");
    solver->addConstraints(capacity);
    for (std::size_t f = 0; f < paths.flowCount(); ++f) {
        const VariableId v = solver->addVariable();
        for (const PathElement& e : paths.of(f))
            if (!drop || !(*drop)[e.channel])
                solver->expand(v, ConstraintId{e.channel}, e.fraction);
    }
    solver->solve();
    std::vector<double> result;
    for (std::size_t f = 0; f < paths.flowCount(); ++f)
        result.push_back(solver->rate(VariableId{static_cast<std::uint32_t>(f)}));
    return result;
}

} // namespace

Q_DECLARE_METATYPE(Flows)

class tst_RepeatedConstraints : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void marksProvenRepeatsOnly_data();
    void marksProvenRepeatsOnly();
    void fabricRatesUnchanged_data();
    void fabricRatesUnchanged();
};

void tst_RepeatedConstraints::marksProvenRepeatsOnly_data() {
    QTest::addColumn<Flows>("flows");
    QTest::addColumn<std::vector<double>>("capacity");
    QTest::addColumn<std::vector<char>>("expected");
    // Channels 0 and 1 carry flows 0 and 1 alike: 1 repeats 0. Channel 2 is flow 0's alone.
    QTest::newRow("same flows, same shares")
        << Flows{{{0, 0.5}, {1, 0.5}, {2, 1}}, {{0, 0.5}, {1, 0.5}}}
        << std::vector<double>{100, 100, 100} << std::vector<char>{0, 1, 0};
    // Half a flow on 100 Gb/s is the same share as a whole flow on 200 Gb/s.
    QTest::newRow("shares of capacity, not fractions")
        << Flows{{{0, 0.5}, {1, 1}}, {{0, 0.5}, {1, 1}}} << std::vector<double>{100, 200}
        << std::vector<char>{0, 1};
    QTest::newRow("one share differs") << Flows{{{0, 0.5}, {1, 0.5}}, {{0, 0.5}, {1, 0.25}}}
                                       << std::vector<double>{100, 100} << std::vector<char>{0, 0};
    QTest::newRow("one more flow on one")
        << Flows{{{0, 1}, {1, 1}}, {{0, 1}, {1, 1}}, {{1, 1}}} << std::vector<double>{100, 100}
        << std::vector<char>{0, 0};
    // A channel one flow uses bounds that flow; the solver handles bounds on its own.
    QTest::newRow("lone flows are bounds")
        << Flows{{{0, 1}, {1, 1}}} << std::vector<double>{100, 100} << std::vector<char>{0, 0};
    QTest::newRow("three alike, one apart")
        << Flows{{{0, 1}, {1, 1}, {2, 1}, {3, 1}}, {{0, 1}, {1, 1}, {2, 1}}}
        << std::vector<double>{10, 10, 10, 10} << std::vector<char>{0, 1, 1, 0};
    QTest::newRow("no flows") << Flows{} << std::vector<double>{10} << std::vector<char>{0};
}

void tst_RepeatedConstraints::marksProvenRepeatsOnly() {
    QFETCH(Flows, flows);
    QFETCH(std::vector<double>, capacity);
    QFETCH(std::vector<char>, expected);
    const FlowPaths paths = pathsOf(flows);
    const std::vector<char> repeated = repeatedChannels(paths, capacity);
    QCOMPARE(repeated, expected);
    // Whatever was dropped, no rate moved (exactly: the solve is the same filling).
    QCOMPARE(rates(paths, capacity, &repeated), rates(paths, capacity, nullptr));
}

void tst_RepeatedConstraints::fabricRatesUnchanged_data() {
    QTest::addColumn<QString>("fabric");
    QTest::addColumn<QString>("failed");
    // Adaptive fat-trees are where spine channels repeat; a failed spine makes the spread
    // into its pod uneven, so those channels must stay. Static ECMP hashes each flow onto
    // one cable, so repeats are rare there; the rates must hold all the same.
    QTest::newRow("adaptive fat-tree") << "spectrum-x"
                                       << "";
    QTest::newRow("adaptive fat-tree, a spine down") << "spectrum-x"
                                                     << "spine-1";
    QTest::newRow("adaptive fat-tree, a core down") << "ib-ndr"
                                                    << "core-3";
    QTest::newRow("static ECMP fat-tree") << "roce-v2"
                                          << "";
}

void tst_RepeatedConstraints::fabricRatesUnchanged() {
    QFETCH(QString, fabric);
    QFETCH(QString, failed);
    // 512 GPUs in 4 pods: 8 leaves and 8 spines a pod, 8 cores.
    model::Topology topology = model::generateFatTree(
        testing::generatorRequest("fat-tree", 64, 8, true, 16, 16, 16, 1, 1));
    const std::size_t built = topology.nodes().size();
    if (!failed.isEmpty())
        topology = model::afterFailures(
            topology, {model::Failure{failed.toStdString(), model::FailureKind::Down, 0, 1}});
    QCOMPARE(topology.nodes().size(), built - (failed.isEmpty() ? 0 : 1)); // it did fail
    const FabricNetwork network(topology, testing::builtinFabric(fabric.toStdString()), 7);
    const model::BisectionResult halves = model::theoreticalBisection(topology);
    std::vector<double> capacity(network.channelCount());
    for (std::uint32_t c = 0; c < capacity.size(); ++c)
        capacity[c] = network.capacityGbps(c);
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        auto partners = halves.secondHalf;
        std::mt19937_64 random(seed);
        std::shuffle(partners.begin(), partners.end(), random);
        FlowPaths paths;
        Route route;
        for (std::size_t i = 0; i < halves.firstHalf.size() && i < partners.size(); ++i)
            for (int nic = 0; nic < 8; ++nic) {
                network.routeInto({halves.firstHalf[i], nic}, {partners[i], nic}, seed, route);
                paths.add(route.elements);
                network.routeInto({partners[i], nic}, {halves.firstHalf[i], nic}, seed, route);
                paths.add(route.elements);
            }
        const std::vector<char> repeated = repeatedChannels(paths, capacity);
        const std::vector<double> full = rates(paths, capacity, nullptr);
        const std::vector<double> reduced = rates(paths, capacity, &repeated);
        QCOMPARE(reduced.size(), full.size());
        // Filling visits the saturations in the same order either way; the sums it
        // keeps may differ in the last bits, so rates agree to 1e-12 relative.
        for (std::size_t f = 0; f < full.size(); ++f)
            QVERIFY2(std::abs(reduced[f] - full[f]) <= 1e-12 * full[f],
                     qPrintable(QString("flow %1: %2 against %3")
                                    .arg(f)
                                    .arg(reduced[f], 0, 'g', 17)
                                    .arg(full[f], 0, 'g', 17)));
        if (fabric == "spectrum-x" && failed.isEmpty())
            QVERIFY(std::count(repeated.begin(), repeated.end(), 1) > 0); // the point of it
    }
}

QTEST_APPLESS_MAIN(tst_RepeatedConstraints)
#include "tst_RepeatedConstraints.moc"
