// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/EffectiveBisection.hpp"

#include "model/sim/FlowSolver.hpp"

#include <algorithm>
#include <random>

namespace fabriclab::sim {

EffectiveBisection effectiveBisection(const FabricNetwork& network,
                                      const model::BisectionResult& theoretical,
                                      std::uint64_t seed) {
    EffectiveBisection result;
    const auto& first = theoretical.firstHalf;
    auto second = theoretical.secondHalf;
    const std::size_t pairs = std::min(first.size(), second.size());
    if (pairs == 0 || theoretical.minCut.value <= 0)
        return result;
    std::mt19937_64 random(seed);
    std::shuffle(second.begin(), second.end(), random);

    const auto solver = makeSolver("heap");
    for (std::uint32_t c = 0; c < network.channelCount(); ++c)
        solver->addConstraint(network.capacityGbps(c));
    std::vector<VariableId> forward;
    std::vector<VariableId> backward;
    const auto addFlow = [&](Endpoint from, Endpoint to, std::vector<VariableId>& into) {
        const VariableId v = solver->addVariable();
        for (const PathElement& e : network.route(from, to, 0).elements)
            solver->expand(v, ConstraintId{e.channel}, e.fraction);
        into.push_back(v);
    };
    for (std::size_t i = 0; i < pairs; ++i) {
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
    return result;
}

} // namespace fabriclab::sim
