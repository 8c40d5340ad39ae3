// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/LinkExplain.hpp"

#include "model/sim/FlowSimulator.hpp"
#include "model/sim/FlowSolver.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace fabriclab::sim {
namespace {

bool isSwitchLink(const model::Topology& topology, const model::Link& link) {
    return model::isSwitch(topology.node(link.a).kind) &&
           model::isSwitch(topology.node(link.b).kind);
}

/// The node a route enters `link` from: the source server for its first hop, else the
/// end the link shares with the hop before.
model::NodeId entryNode(const FabricNetwork& network, const Route& route, std::size_t hop,
                        const model::Link& link, model::NodeId source) {
    if (hop == 0)
        return source;
    const model::Topology& topology = network.topology();
    for (const model::LinkId before : network.linksOf(route.elements[hop - 1].channel)) {
        const model::Link& previous = topology.link(before);
        for (const model::NodeId end : {link.a, link.b})
            if (end == previous.a || end == previous.b)
                return end;
    }
    return source;
}

/// Where a route crosses an explained link: the transfer and the element of its route.
struct Crossing {
    std::size_t transfer;
    std::size_t hop;
};

LinkExplanation explainOne(const FabricNetwork& network, const std::vector<Transfer>& transfers,
                           const std::vector<Route>& routes, const std::vector<Crossing>& crossings,
                           const std::vector<char>& used, const FlowSolver& solver,
                           model::LinkId id) {
    const model::Topology& topology = network.topology();
    const model::Link& link = topology.link(id);
    LinkExplanation result;
    result.link = id;
    for (std::uint32_t c = 0; c < network.linkChannelCount(); ++c)
        if (network.linkOf(c) == id)
            result.capacityGbps += network.capacityGbps(c);
    result.capacityGbps /= 2; // both directions were summed
    std::map<std::uint32_t, int> flowsOnChannel;
    for (const auto& [i, hop] : crossings) {
        const Route& route = routes[i];
        const PathElement& element = route.elements[hop];
        const auto links = network.linksOf(element.channel);
        // A group channel spreads the flow over its links by their cables.
        double share = element.fraction;
        if (links.size() > 1) {
            int cables = 0;
            for (const model::LinkId l : links)
                cables += topology.link(l).count;
            share *= static_cast<double>(link.count) / std::max(1, cables);
        }
        FlowOnLink flow;
        flow.from = transfers[i].from;
        flow.to = transfers[i].to;
        flow.rateGbps = solver.rate(VariableId{static_cast<std::uint32_t>(i)}) * share;
        flow.fromSideA = entryNode(network, route, hop, link, transfers[i].from.server) == link.a;
        flow.channel = element.channel;
        (flow.fromSideA ? result.loadAtoB : result.loadBtoA) += flow.rateGbps;
        ++flowsOnChannel[element.channel];
        result.flows.push_back(flow);
    }
    if (result.capacityGbps > 0) {
        result.loadAtoB /= result.capacityGbps;
        result.loadBtoA /= result.capacityGbps;
    }
    std::sort(result.flows.begin(), result.flows.end(),
              [](const FlowOnLink& x, const FlowOnLink& y) { return x.rateGbps > y.rateGbps; });

    // Hash collisions exist only where a flow is pinned to one cable: static ECMP between
    // switches. Siblings are the cable directions leaving the same switch toward the same
    // tier as this link.
    if (network.spreadsFlows() || !isSwitchLink(topology, link))
        return result;
    for (const model::NodeId side : {link.a, link.b}) {
        const model::NodeId other = side == link.a ? link.b : link.a;
        const auto mine = network.channelsLeaving(side, id);
        int busiest = 0;
        int crowded = 0;
        for (const std::uint32_t c : mine) {
            const int flows = flowsOnChannel.count(c) ? flowsOnChannel[c] : 0;
            busiest = std::max(busiest, flows);
            crowded += flows >= 2;
        }
        if (crowded == 0)
            continue;
        int idle = 0;
        for (const model::LinkId sibling : topology.linksOf(side)) {
            const model::Link& s = topology.link(sibling);
            const model::NodeId far = s.a == side ? s.b : s.a;
            if (topology.node(far).kind != topology.node(other).kind)
                continue;
            for (const std::uint32_t c : network.channelsLeaving(side, sibling))
                idle += !used[c];
        }
        if (idle > 0) {
            result.collisions += crowded;
            result.flowsOnBusiestCable = std::max(result.flowsOnBusiestCable, busiest);
            result.idleSiblings += idle;
        }
    }
    return result;
}

} // namespace

std::vector<LinkExplanation> explainLinks(const FabricNetwork& network,
                                          const std::vector<Transfer>& transfers,
                                          const std::vector<model::LinkId>& ids,
                                          std::stop_token stop) {
    const model::Topology& topology = network.topology();
    for (const model::LinkId id : ids)
        if (!topology.links().count(id))
            throw std::invalid_argument("no link " + std::to_string(id.value) + " in this fabric");

    // The start of the phase as the simulator solves it: every transfer active at once.
    // Solved once for all the links asked about (a switch's explain asks for each of its).
    const auto solver = makeSolver("heap");
    solver->setStopToken(std::move(stop));
    std::vector<double> capacities(network.channelCount());
    for (std::uint32_t c = 0; c < capacities.size(); ++c)
        capacities[c] = network.capacityGbps(c);
    solver->addConstraints(capacities);
    std::vector<Route> routes;
    routes.reserve(transfers.size());
    std::vector<char> used(network.channelCount(), 0);
    expectTransfers(network, transfers);
    for (const Transfer& t : transfers) {
        routes.push_back(network.route(t.from, t.to, t.flowKey));
        const VariableId v = solver->addVariable();
        for (const PathElement& e : routes.back().elements) {
            solver->expand(v, ConstraintId{e.channel}, e.fraction);
            used[e.channel] = 1;
        }
    }
    solver->solve();
    // One pass over the routes finds every crossing of every link asked about.
    std::unordered_map<std::uint32_t, std::vector<std::size_t>> asked; // a link asked twice too
    for (std::size_t k = 0; k < ids.size(); ++k)
        asked[ids[k].value].push_back(k);
    std::vector<std::vector<Crossing>> crossings(ids.size());
    for (std::size_t i = 0; i < routes.size(); ++i)
        for (std::size_t hop = 0; hop < routes[i].elements.size(); ++hop)
            for (const model::LinkId link : network.linksOf(routes[i].elements[hop].channel))
                if (const auto found = asked.find(link.value); found != asked.end())
                    for (const std::size_t k : found->second)
                        crossings[k].push_back({i, hop});
    std::vector<LinkExplanation> all;
    for (std::size_t k = 0; k < ids.size(); ++k)
        all.push_back(explainOne(network, transfers, routes, crossings[k], used, *solver, ids[k]));
    return all;
}

LinkExplanation explainLink(const FabricNetwork& network, const std::vector<Transfer>& transfers,
                            model::LinkId id, std::stop_token stop) {
    return explainLinks(network, transfers, {id}, std::move(stop)).front();
}

} // namespace fabriclab::sim
