// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/GroupShift.hpp"

#include "model/core/Cancellation.hpp"
#include "model/sim/FlowSimulator.hpp"
#include "model/sim/FlowSolver.hpp"
#include "model/sim/routing/ValiantRouting.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace fabriclab::sim {

std::optional<GroupShift> groupShift(const FabricNetwork& network, std::stop_token stop) {
    const model::Topology& topology = network.topology();
    if (routing::dragonflyGroups(topology) < 3)
        return std::nullopt;
    // Servers by the group they sit in, in topology order.
    std::map<int, std::vector<model::NodeId>> byGroup;
    for (const model::NodeId server : network.servers())
        byGroup[topology.node(server).placement.pod].push_back(server);
    std::vector<const std::vector<model::NodeId>*> groups;
    for (const auto& [pod, servers] : byGroup)
        if (pod >= 0)
            groups.push_back(&servers);
    if (groups.size() < 3)
        return std::nullopt;

    std::vector<Transfer> transfers;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto& from = *groups[g];
        const auto& to = *groups[(g + 1) % groups.size()];
        for (std::size_t i = 0; i < std::min(from.size(), to.size()); ++i)
            for (int nic = 0; nic < std::min(network.nicCount(from[i]), network.nicCount(to[i]));
                 ++nic)
                transfers.push_back({{from[i], nic}, {to[i], nic}, 1, {}, 0, 0});
    }
    GroupShift result;
    const auto solver = makeSolver("heap");
    solver->setStopToken(stop);
    std::vector<double> capacities(network.channelCount());
    for (std::uint32_t c = 0; c < capacities.size(); ++c)
        capacities[c] = network.capacityGbps(c);
    solver->addConstraints(capacities);
    expectTransfers(network, transfers);
    std::vector<VariableId> flows;
    flows.reserve(transfers.size());
    Route route;
    for (const Transfer& t : transfers) {
        model::throwIfStopped(stop);
        try {
            network.routeInto(t.from, t.to, t.flowKey, route);
        } catch (const std::invalid_argument&) {
            continue; // a failure cut this server off: the pattern goes on without it
        }
        result.offeredGbps += network.nicGoodput(t.from).value;
        const VariableId v = solver->addVariable();
        for (const PathElement& e : route.elements)
            solver->expand(v, ConstraintId{e.channel}, e.fraction);
        flows.push_back(v);
    }
    solver->solve();
    for (const VariableId v : flows)
        result.deliveredGbps += solver->rate(v);

    // A flow either crosses the direct global links to the next group (one global hop) or
    // detours over at least two. With D the direct links' capacity towards the next group and
    // T every global link's (both directions), direct + 2 x detoured <= T and direct <= D, so
    // no routing delivers more than (T + D) / 2.
    std::map<int, int> next; // pod -> the pod its servers send to
    for (std::size_t g = 0; g < groups.size(); ++g)
        next[topology.node(groups[g]->front()).placement.pod] =
            topology.node(groups[(g + 1) % groups.size()]->front()).placement.pod;
    const auto ahead = [&](int from, int to) {
        const auto found = next.find(from);
        return found != next.end() && found->second == to;
    };
    double total = 0;
    double direct = 0;
    for (const auto& [id, link] : topology.links()) {
        if (!routing::isGlobalLink(topology, link))
            continue;
        const model::Node& a = topology.node(link.a);
        const model::Node& b = topology.node(link.b);
        const double gbps = link.speed.value * link.count;
        total += 2 * gbps; // each direction
        direct += gbps * ((ahead(a.placement.pod, b.placement.pod) ? 1 : 0) +
                          (ahead(b.placement.pod, a.placement.pod) ? 1 : 0));
    }
    result.capacityGbps = std::min(result.offeredGbps, (total + direct) / 2);
    return result;
}

} // namespace fabriclab::sim
