// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/EffectiveBisection.hpp"

#include "model/core/Cancellation.hpp"
#include "model/sim/FlowSolver.hpp"
#include "model/sim/RepeatedConstraints.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace fabriclab::sim {

namespace {

/// Routes every flow of a draw into `paths`: for each pair of partners and each NIC they
/// share, the flow from the first half and the flow back, in that order (even flows go
/// forward, odd ones back).
void routeDraw(const FabricNetwork& network, const std::vector<model::NodeId>& first,
               const std::vector<model::NodeId>& second, std::uint64_t seed, std::stop_token stop,
               FlowPaths& paths) {
    Route route;
    for (std::size_t i = 0; i < first.size() && i < second.size(); ++i) {
        // Every pair: the first routes between two switches work out their adaptive
        // spread, so a thousand pairs can take half a second on a 16K-GPU fat-tree,
        // while a look at the token is one atomic load.
        model::throwIfStopped(stop);
        const int nics = std::min(network.nicCount(first[i]), network.nicCount(second[i]));
        for (int nic = 0; nic < nics; ++nic) {
            network.routeInto({first[i], nic}, {second[i], nic}, seed, route);
            paths.add(route.elements);
            network.routeInto({second[i], nic}, {first[i], nic}, seed, route);
            paths.add(route.elements);
        }
    }
}

/// What each tier's cables carry at the solved rates, from the flows' whole routes.
void addTierLoads(const FabricNetwork& network, const FlowPaths& paths, const FlowSolver& solver,
                  EffectiveBisection& result) {
    const auto& topology = network.topology();
    std::vector<std::uint8_t> tierOf(network.channelCount());
    for (std::uint32_t c = 0; c < tierOf.size(); ++c)
        tierOf[c] =
            static_cast<std::uint8_t>(topology.tierOf(topology.link(network.linksOf(c).front())));
    for (std::uint32_t c = 0; c < network.linkChannelCount(); ++c)
        result.tiers[tierOf[c]].capacityGbps += network.capacityGbps(c);
    for (std::uint32_t f = 0; f < paths.flowCount(); ++f) {
        const double rate = solver.rate(VariableId{f});
        for (const PathElement& e : paths.of(f))
            result.tiers[tierOf[e.channel]].carriedGbps += rate * e.fraction;
    }
}

/// One draw: a permutation and the flows' hash keys from `seed`.
EffectiveBisection oneDraw(const FabricNetwork& network, const model::BisectionResult& theoretical,
                           std::uint64_t seed, std::stop_token stop, bool tiers, FlowPaths& paths) {
    EffectiveBisection result;
    const auto& first = theoretical.firstHalf;
    auto second = theoretical.secondHalf;
    if (std::min(first.size(), second.size()) == 0 || theoretical.minCut.value <= 0)
        return result;
    std::mt19937_64 random(seed);
    std::shuffle(second.begin(), second.end(), random);

    paths.clear();
    routeDraw(network, first, second, seed, stop, paths);
    std::vector<double> capacity(network.channelCount());
    for (std::uint32_t c = 0; c < capacity.size(); ++c)
        capacity[c] = network.capacityGbps(c);
    // Dropping repeated constraints leaves every rate as it was, and most of the work.
    const std::vector<char> repeated = repeatedChannels(paths, capacity);

    const auto solver = makeSolver("heap");
    solver->setStopToken(stop);
    solver->addConstraints(capacity);
    for (std::uint32_t f = 0; f < paths.flowCount(); ++f) {
        const VariableId v = solver->addVariable();
        for (const PathElement& e : paths.of(f))
            if (!repeated[e.channel])
                solver->expand(v, ConstraintId{e.channel}, e.fraction);
    }
    solver->solve();
    double there = 0;
    double back = 0;
    for (std::uint32_t f = 0; f < paths.flowCount(); ++f)
        (f % 2 == 0 ? there : back) += solver->rate(VariableId{f});
    result.gbps = std::min(there, back);
    result.ratio = result.gbps / theoretical.minCut.value;
    if (tiers)
        addTierLoads(network, paths, *solver, result);
    return result;
}

} // namespace

EffectiveBisection effectiveBisection(const FabricNetwork& network,
                                      const model::BisectionResult& theoretical, std::uint64_t seed,
                                      std::stop_token stop, bool tiers, int seeds) {
    seeds = std::max(1, seeds);
    EffectiveBisection mean;
    std::vector<double> draws;
    FlowPaths paths; // one list for every draw
    for (int i = 0; i < seeds; ++i) {
        const EffectiveBisection draw =
            oneDraw(network, theoretical, seed + static_cast<std::uint64_t>(i), stop, tiers, paths);
        draws.push_back(draw.gbps);
        for (std::size_t t = 0; t < mean.tiers.size(); ++t) {
            mean.tiers[t].capacityGbps = draw.tiers[t].capacityGbps;
            mean.tiers[t].carriedGbps += draw.tiers[t].carriedGbps / seeds;
        }
    }
    double sum = 0;
    for (const double g : draws)
        sum += g;
    mean.gbps = sum / seeds;
    double squares = 0;
    for (const double g : draws)
        squares += (g - mean.gbps) * (g - mean.gbps);
    mean.stddevGbps = std::sqrt(squares / seeds);
    mean.minGbps = *std::min_element(draws.begin(), draws.end());
    mean.maxGbps = *std::max_element(draws.begin(), draws.end());
    mean.seeds = seeds;
    mean.ratio = theoretical.minCut.value > 0 ? mean.gbps / theoretical.minCut.value : 0;
    const auto& fabric = network.fabric();
    mean.lineEfficiency = fabric.goodputShare();
    mean.routingEfficiency = mean.ratio / mean.lineEfficiency;
    return mean;
}

} // namespace fabriclab::sim
