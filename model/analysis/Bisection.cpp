// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/analysis/Bisection.hpp"

#include "model/core/Cancellation.hpp"

#include "model/analysis/Connectivity.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

#include <algorithm>
#include <cmath>
#include <future>
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

/// A cable as the max flow sees it: its ends' positions (model::Topology::nodes() order)
/// and its usable capacity. Worked out once per bisection: each of the six max flows
/// then walks a flat array instead of the topology's maps.
struct Cable {
    std::uint32_t a;
    std::uint32_t b;
    long long mbps;
};

struct Indexed {
    std::vector<std::uint32_t> position; ///< per NodeId value
    std::vector<char> isServer;          ///< per position
    std::vector<Cable> cables;
    std::vector<NodeId> servers;
    std::vector<long long> injection;                         ///< per server, Mb/s
    std::vector<std::tuple<int, int, std::uint32_t>> unitKey; ///< per server: pod, group, leaf
    std::uint32_t at(NodeId id) const { return position[id.value]; }
};

Indexed indexNodes(const Topology& topology, std::vector<NodeId> servers) {
    Indexed indexed;
    std::uint32_t positions = 0;
    for (const auto& [id, node] : topology.nodes()) {
        if (indexed.position.size() <= id.value)
            indexed.position.resize(id.value + 1, 0);
        indexed.position[id.value] = positions++;
        indexed.isServer.push_back(node.kind == NodeKind::Server);
    }
    indexed.servers = std::move(servers);
    std::vector<long long> injection(positions, 0);
    constexpr auto kNoSwitch = ~std::uint32_t{0};
    std::vector<std::uint32_t> firstSwitch(positions, kNoSwitch); ///< its NodeId value
    indexed.cables.reserve(topology.links().size());
    for (const auto& [id, link] : topology.links()) {
        const Cable cable{indexed.at(link.a), indexed.at(link.b),
                          toMbps(topology.usableCapacity(link))};
        indexed.cables.push_back(cable);
        for (auto [end, other, otherId] :
             {std::tuple{cable.a, cable.b, link.b}, std::tuple{cable.b, cable.a, link.a}}) {
            if (indexed.isServer[end] && !indexed.isServer[other]) {
                injection[end] += cable.mbps;
                if (firstSwitch[end] == kNoSwitch)
                    firstSwitch[end] = otherId.value;
            }
        }
    }
    // Rack / rail-group order: servers sharing a pod, group and first switch stay together.
    auto key = [&](NodeId id) {
        const auto& p = topology.node(id).placement;
        const std::uint32_t sw = firstSwitch[indexed.at(id)];
        return std::tuple(p.pod, p.group, sw == kNoSwitch ? 0 : sw, id.value);
    };
    std::stable_sort(indexed.servers.begin(), indexed.servers.end(),
                     [&](NodeId a, NodeId b) { return key(a) < key(b); });
    for (const NodeId id : indexed.servers) {
        indexed.injection.push_back(injection[indexed.at(id)]);
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
    // A halving with an empty side says nothing about the fabric, and one the list has
    // already (on a rail-optimized fabric the rack order often falls on whole groups)
    // would only repeat its two max flows.
    std::erase_if(halvings, [](const Halving& h) {
        const auto first = std::count(h.inFirstHalf.begin(), h.inFirstHalf.end(), true);
        return first == 0 || first == static_cast<long>(h.inFirstHalf.size());
    });
    for (std::size_t i = 1; i < halvings.size();) {
        const bool seen = std::any_of(
            halvings.begin(), halvings.begin() + static_cast<long>(i),
            [&](const Halving& earlier) { return earlier.inFirstHalf == halvings[i].inFirstHalf; });
        if (seen)
            halvings.erase(halvings.begin() + static_cast<long>(i));
        else
            ++i;
    }
    return halvings;
}

/// Max flow from the servers where `fromFirst` says so to the others.
///
/// The sending servers are merged into the source and the receiving ones into the sink:
/// a sending server's arc from the source carries its whole injection, which is the sum
/// of its cables, so it never binds before they do, and servers forward nothing, so the
/// merged graph has the same maximum flow. What push-relabel then sees is the switches
/// alone (a quarter of the vertices of a 131K-GPU fat-tree, two thirds of its cables),
/// with one arc from the source and one to the sink per leaf.
long long crossFlow(const Indexed& indexed, const Halving& halving, bool fromFirst) {
    // Switches are numbered 0..n-1; servers carry which side they are on instead.
    enum Side : std::uint8_t { Switch, Sending, Receiving, LeftOut };
    const std::size_t positions = indexed.isServer.size();
    std::vector<Side> side(positions, Switch);
    std::vector<std::uint32_t> vertex(positions, 0);
    std::uint32_t switches = 0;
    for (std::size_t i = 0; i < positions; ++i) {
        if (indexed.isServer[i])
            side[i] = LeftOut;
        else
            vertex[i] = switches++;
    }
    for (std::size_t i = 0; i < indexed.servers.size(); ++i)
        side[indexed.at(indexed.servers[i])] =
            halving.inFirstHalf[i] == fromFirst ? Sending : Receiving;

    const std::size_t source = switches;
    const std::size_t sink = switches + 1;
    std::vector<long long> fromSource(switches, 0);
    std::vector<long long> toSink(switches, 0);
    FlowNetwork network(switches + 2);
    for (const Cable& cable : indexed.cables) {
        const std::uint32_t a = cable.a;
        const std::uint32_t b = cable.b;
        if (side[a] == LeftOut || side[b] == LeftOut)
            continue;
        if (side[a] == Switch && side[b] == Switch) {
            network.addArc(vertex[a], vertex[b], cable.mbps);
            network.addArc(vertex[b], vertex[a], cable.mbps);
            continue;
        }
        // A cable with a server end: the server sends into its switch or receives from it.
        // A cable between two servers (a design problem the reader refuses) carries nothing.
        for (const auto& [end, other] : {std::pair{a, b}, std::pair{b, a}}) {
            if (side[end] == Sending && side[other] == Switch)
                fromSource[vertex[other]] += cable.mbps;
            else if (side[end] == Receiving && side[other] == Switch)
                toSink[vertex[other]] += cable.mbps;
        }
    }
    for (std::uint32_t s = 0; s < switches; ++s) {
        if (fromSource[s] > 0)
            network.addArc(source, s, fromSource[s]);
        if (toSink[s] > 0)
            network.addArc(s, sink, toSink[s]);
    }
    return network.maxFlow(source, sink);
}

/// Cables from which a halving's two max flows run on two threads: below it, starting a
/// thread costs more than the flow.
constexpr std::size_t kCablesWorthAThread = 20'000;

} // namespace

BisectionResult theoreticalBisection(const Topology& topology, std::stop_token stop) {
    return theoreticalBisection(topology, serverReach(topology), std::move(stop));
}

BisectionResult theoreticalBisection(const Topology& topology, ServerReach reach,
                                     std::stop_token stop) {
    BisectionResult worst;
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
        // The two directions are independent max flows: on large fabrics the second runs
        // beside the first (a 131K-GPU fat-tree spends about 40 ms in each).
        std::future<long long> back;
        if (indexed.cables.size() >= kCablesWorthAThread)
            back =
                std::async(std::launch::async, [&] { return crossFlow(indexed, halving, false); });
        const long long forward = crossFlow(indexed, halving, true);
        const long long backward = back.valid() ? back.get() : crossFlow(indexed, halving, false);
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
