// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/analysis/Bisection.hpp"

#include "model/core/Cancellation.hpp"

#include "model/analysis/Connectivity.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

namespace fabriclab::model {
namespace {

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using FlowGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<
        boost::edge_capacity_t, long long,
        boost::property<boost::edge_residual_capacity_t, long long,
                        boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;

// Capacities in Mb/s as integers keep push-relabel exact; Gb/s with three decimals is
// finer than any real port speed.
long long toMbps(Gbps speed) {
    return std::llround(speed.value * 1000);
}

class FlowNetwork {
public:
    explicit FlowNetwork(std::size_t vertices) : m_graph(vertices) {}

    void addArc(std::size_t from, std::size_t to, long long capacity) {
        auto capacityMap = boost::get(boost::edge_capacity, m_graph);
        auto reverseMap = boost::get(boost::edge_reverse, m_graph);
        const auto forward = boost::add_edge(from, to, m_graph).first;
        const auto back = boost::add_edge(to, from, m_graph).first;
        capacityMap[forward] = capacity;
        capacityMap[back] = 0;
        reverseMap[forward] = back;
        reverseMap[back] = forward;
    }

    long long maxFlow(std::size_t source, std::size_t sink) {
        return boost::push_relabel_max_flow(m_graph, source, sink);
    }

private:
    FlowGraph m_graph;
};

struct Halving {
    std::string name;
    std::vector<bool> inFirstHalf; ///< indexed like `servers`
};

struct Indexed {
    std::map<NodeId, std::size_t> index;
    std::vector<NodeId> servers;
    std::vector<long long> injection;                         ///< per server, Mb/s
    std::vector<std::tuple<int, int, std::uint32_t>> unitKey; ///< per server: pod, group, leaf
};

Indexed indexNodes(const Topology& topology, std::vector<NodeId> servers) {
    Indexed indexed;
    for (const auto& [id, node] : topology.nodes())
        indexed.index.emplace(id, indexed.index.size());
    indexed.servers = std::move(servers);
    std::map<NodeId, long long> injection;
    std::map<NodeId, NodeId> firstSwitch;
    for (const auto& [id, link] : topology.links()) {
        for (auto [end, other] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}}) {
            if (topology.node(end).kind == NodeKind::Server &&
                isSwitch(topology.node(other).kind)) {
                injection[end] += toMbps(topology.usableCapacity(link));
                firstSwitch.try_emplace(end, other);
            }
        }
    }
    // Rack / rail-group order: servers sharing a pod, group and first switch stay together.
    auto key = [&](NodeId id) {
        const auto& p = topology.node(id).placement;
        const auto sw = firstSwitch.count(id) ? firstSwitch.at(id).value : 0;
        return std::tuple(p.pod, p.group, sw, id.value);
    };
    std::stable_sort(indexed.servers.begin(), indexed.servers.end(),
                     [&](NodeId a, NodeId b) { return key(a) < key(b); });
    for (const NodeId id : indexed.servers) {
        indexed.injection.push_back(injection.count(id) ? injection.at(id) : 0);
        const auto full = key(id);
        indexed.unitKey.emplace_back(std::get<0>(full), std::get<1>(full), std::get<2>(full));
    }
    return indexed;
}

std::vector<Halving> naturalHalvings(const Topology& topology, const Indexed& indexed) {
    const std::size_t count = indexed.servers.size();
    std::vector<Halving> halvings;
    Halving byRack{"halves in rack and rail-group order", std::vector<bool>(count)};
    for (std::size_t i = 0; i < count / 2; ++i)
        byRack.inFirstHalf[i] = true;
    halvings.push_back(std::move(byRack));

    // Whole leaf groups on each side, as close to half the servers as they allow: the
    // cut then runs through the leaf uplinks, which is where oversubscription bites.
    std::vector<std::size_t> unitStarts;
    for (std::size_t i = 0; i < count; ++i)
        if (i == 0 || indexed.unitKey[i] != indexed.unitKey[i - 1])
            unitStarts.push_back(i);
    if (unitStarts.size() > 1) {
        std::size_t best = unitStarts[1];
        for (const std::size_t start : unitStarts)
            if (start > 0 && (start > count / 2 ? start - count / 2 : count / 2 - start) <
                                 (best > count / 2 ? best - count / 2 : count / 2 - best))
                best = start;
        Halving byGroup{"halves by whole leaf groups", std::vector<bool>(count)};
        for (std::size_t i = 0; i < best; ++i)
            byGroup.inFirstHalf[i] = true;
        halvings.push_back(std::move(byGroup));
    }

    // By pod: the pods actually present (an edited design may have lost some), the first
    // half of them on one side.
    std::vector<int> pods;
    for (const NodeId id : indexed.servers)
        pods.push_back(topology.node(id).placement.pod);
    std::sort(pods.begin(), pods.end());
    pods.erase(std::unique(pods.begin(), pods.end()), pods.end());
    if (pods.size() > 1 && pods.front() >= 0) {
        const int boundary = pods[pods.size() / 2];
        Halving byPod{"halves by pod", std::vector<bool>(count)};
        for (std::size_t i = 0; i < count; ++i)
            byPod.inFirstHalf[i] = topology.node(indexed.servers[i]).placement.pod < boundary;
        halvings.push_back(std::move(byPod));
    }
    // A halving with an empty side says nothing about the fabric.
    std::erase_if(halvings, [](const Halving& h) {
        const auto first = std::count(h.inFirstHalf.begin(), h.inFirstHalf.end(), true);
        return first == 0 || first == static_cast<long>(h.inFirstHalf.size());
    });
    return halvings;
}

/// Max flow from the servers where `fromFirst` says so to the others.
long long crossFlow(const Topology& topology, const Indexed& indexed, const Halving& halving,
                    bool fromFirst) {
    const std::size_t source = indexed.index.size();
    const std::size_t sink = source + 1;
    enum Side { Switch, Sending, Receiving, LeftOut };
    std::vector<Side> side(indexed.index.size(), Switch);
    for (const auto& [id, node] : topology.nodes())
        if (node.kind == NodeKind::Server)
            side[indexed.index.at(id)] = LeftOut;
    for (std::size_t i = 0; i < indexed.servers.size(); ++i)
        side[indexed.index.at(indexed.servers[i])] =
            halving.inFirstHalf[i] == fromFirst ? Sending : Receiving;

    FlowNetwork network(indexed.index.size() + 2);
    for (const auto& [id, link] : topology.links()) {
        const std::size_t a = indexed.index.at(link.a);
        const std::size_t b = indexed.index.at(link.b);
        if (side[a] == LeftOut || side[b] == LeftOut)
            continue;
        const long long capacity = toMbps(topology.usableCapacity(link));
        // Servers only send (first half) or only receive (second half): no transit.
        if (side[a] != Receiving && side[b] != Sending)
            network.addArc(a, b, capacity);
        if (side[b] != Receiving && side[a] != Sending)
            network.addArc(b, a, capacity);
    }
    for (std::size_t i = 0; i < indexed.servers.size(); ++i) {
        const std::size_t v = indexed.index.at(indexed.servers[i]);
        if (side[v] == Sending)
            network.addArc(source, v, indexed.injection[i]);
        else
            network.addArc(v, sink, indexed.injection[i]);
    }
    return network.maxFlow(source, sink);
}

} // namespace

BisectionResult theoreticalBisection(const Topology& topology, std::stop_token stop) {
    BisectionResult worst;
    ServerReach reach = serverReach(topology);
    for (const NodeId id : reach.unlinked)
        worst.warnings.push_back("server " + topology.node(id).name +
                                 " is not connected to any switch; left out of the bisection");
    for (const NodeId id : reach.cutOff)
        worst.warnings.push_back("server " + topology.node(id).name + " cannot reach the " +
                                 std::to_string(reach.connected.size()) +
                                 " servers of the main fabric; left out of the bisection");
    const Indexed indexed = indexNodes(topology, std::move(reach.connected));
    if (indexed.servers.size() < 2)
        return worst;

    bool first = true;
    for (const auto& halving : naturalHalvings(topology, indexed)) {
        long long injectFirst = 0;
        long long injectSecond = 0;
        for (std::size_t i = 0; i < indexed.servers.size(); ++i)
            (halving.inFirstHalf[i] ? injectFirst : injectSecond) += indexed.injection[i];
        const long long half = std::min(injectFirst, injectSecond);
        // Each max flow runs to its end inside Boost (tens of ms on 16K GPUs); look at the
        // stop token between them.
        throwIfStopped(stop);
        const long long forward = crossFlow(topology, indexed, halving, true);
        throwIfStopped(stop);
        const long long backward = crossFlow(topology, indexed, halving, false);
        const double ratio =
            half > 0 ? static_cast<double>(std::min(forward, backward)) / static_cast<double>(half)
                     : 0.0;
        if (first || ratio < worst.ratio) {
            first = false;
            worst.forward = Gbps(static_cast<double>(forward) / 1000);
            worst.backward = Gbps(static_cast<double>(backward) / 1000);
            worst.minCut = Gbps(static_cast<double>(std::min(forward, backward)) / 1000);
            worst.halfInjection = Gbps(static_cast<double>(half) / 1000);
            worst.ratio = ratio;
            worst.split = halving.name;
            worst.firstHalf.clear();
            worst.secondHalf.clear();
            for (std::size_t i = 0; i < indexed.servers.size(); ++i)
                (halving.inFirstHalf[i] ? worst.firstHalf : worst.secondHalf)
                    .push_back(indexed.servers[i]);
        }
    }
    return worst;
}

} // namespace fabriclab::model
