// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/EffectiveBisection.hpp"

#include "model/core/Cancellation.hpp"
#include "model/sim/FlowSolver.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace fabriclab::sim {

namespace {

/// One draw: a permutation and the flows' hash keys from `seed`.
EffectiveBisection oneDraw(const FabricNetwork& network, const model::BisectionResult& theoretical,
                           std::uint64_t seed, std::stop_token stop, bool tiers) {
    EffectiveBisection result;
    const auto& first = theoretical.firstHalf;
    auto second = theoretical.secondHalf;
    const std::size_t pairs = std::min(first.size(), second.size());
    if (pairs == 0 || theoretical.minCut.value <= 0)
        return result;
    std::mt19937_64 random(seed);
    std::shuffle(second.begin(), second.end(), random);

    const auto solver = makeSolver("heap");
    solver->setStopToken(stop);
    for (std::uint32_t c = 0; c < network.channelCount(); ++c)
        solver->addConstraint(network.capacityGbps(c));
    std::vector<VariableId> forward;
    std::vector<VariableId> backward;
    std::vector<PathElement> elements; // every flow's, in flow order, for the tier loads
    std::vector<std::size_t> elementStart{0};
    Route route;
    const auto addFlow = [&](Endpoint from, Endpoint to, std::vector<VariableId>& into) {
        const VariableId v = solver->addVariable();
        network.routeInto(from, to, seed, route);
        for (const PathElement& e : route.elements)
            solver->expand(v, ConstraintId{e.channel}, e.fraction);
        if (tiers) {
            elements.insert(elements.end(), route.elements.begin(), route.elements.end());
            elementStart.push_back(elements.size());
        }
        into.push_back(v);
    };
    for (std::size_t i = 0; i < pairs; ++i) {
        // Every pair: the first routes between two switches work out their adaptive
        // spread, so a thousand pairs can take half a second on a 16K-GPU fat-tree,
        // while a look at the token is one atomic load.
        model::throwIfStopped(stop);
        const int nics = std::min(network.nicCount(first[i]), network.nicCount(second[i]));
        for (int nic = 0; nic < nics; ++nic) {
            addFlow({first[i], nic}, {second[i], nic}, forward);
            addFlow({second[i], nic}, {first[i], nic}, backward);
        }
    }
    solver->solve();
    double there = 0;
    double back = 0;
    for (const VariableId v : forward)
        there += solver->rate(v);
    for (const VariableId v : backward)
        back += solver->rate(v);
    result.gbps = std::min(there, back);
    result.ratio = result.gbps / theoretical.minCut.value;
    if (!tiers)
        return result;

    const auto& topology = network.topology();
    std::vector<std::uint8_t> tierOf(network.channelCount());
    for (std::uint32_t c = 0; c < tierOf.size(); ++c)
        tierOf[c] =
            static_cast<std::uint8_t>(topology.tierOf(topology.link(network.linksOf(c).front())));
    const auto tierOfChannel = [&](std::uint32_t c) { return tierOf[c]; };
    for (std::uint32_t c = 0; c < network.linkChannelCount(); ++c)
        result.tiers[tierOfChannel(c)].capacityGbps += network.capacityGbps(c);
    // Variables were added forward and backward alternately per NIC pair; their ids are
    // their order of creation, which is the order of elementStart.
    for (std::uint32_t v = 0; v + 1 < elementStart.size(); ++v) {
        const double rate = solver->rate(VariableId{v});
        for (std::size_t e = elementStart[v]; e < elementStart[v + 1]; ++e)
            result.tiers[tierOfChannel(elements[e].channel)].carriedGbps +=
                rate * elements[e].fraction;
    }
    return result;
}

} // namespace

EffectiveBisection effectiveBisection(const FabricNetwork& network,
                                      const model::BisectionResult& theoretical, std::uint64_t seed,
                                      std::stop_token stop, bool tiers, int seeds) {
    seeds = std::max(1, seeds);
    EffectiveBisection mean;
    std::vector<double> draws;
    for (int i = 0; i < seeds; ++i) {
        const EffectiveBisection draw =
            oneDraw(network, theoretical, seed + static_cast<std::uint64_t>(i), stop, tiers);
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
