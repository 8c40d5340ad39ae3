// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/analysis/Connectivity.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>

#include <algorithm>
#include <optional>
#include <vector>

namespace fabriclab::model {
namespace {

/// Connected parts by NodeId value (ids are dense): a 131K-GPU design has 150,000 nodes,
/// and maps keyed by id made this a tenth of a second.
struct Components {
    std::vector<int> componentOf; ///< per NodeId value; -1 for no node
    int count = 0;
    int of(NodeId id) const { return componentOf[id.value]; }
};

/// The parts of the nodes `counted` keeps, joined by links between two such nodes; other
/// nodes stay at -1. Everything counts for the fabric's parts; switches alone for its planes.
template <typename Counted> Components components(const Topology& topology, Counted counted) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    std::size_t ids = 0;
    for (const auto& [id, node] : topology.nodes())
        ids = std::max<std::size_t>(ids, id.value + 1);
    Graph graph(ids);
    for (const auto& [id, link] : topology.links())
        if (counted(topology.node(link.a)) && counted(topology.node(link.b)))
            boost::add_edge(link.a.value, link.b.value, graph);
    Components result;
    result.componentOf.assign(ids, -1);
    if (ids == 0)
        return result;
    std::vector<int> raw(ids, -1);
    boost::connected_components(graph, raw.data());
    // Ids without a node, and nodes not counted, are vertices of their own: number only the
    // parts counted nodes are in.
    std::vector<int> kept(ids, -1);
    for (const auto& [id, node] : topology.nodes()) {
        if (!counted(node))
            continue;
        int& part = kept[static_cast<std::size_t>(raw[id.value])];
        if (part < 0)
            part = result.count++;
        result.componentOf[id.value] = part;
    }
    return result;
}

Components components(const Topology& topology) {
    return components(topology, [](const Node&) { return true; });
}

} // namespace

int switchPlanes(const Topology& topology) {
    return components(topology, [](const Node& node) { return node.kind != NodeKind::Server; })
        .count;
}

int portsPerNic(const Topology& topology) {
    int most = 1;
    for (const auto& [id, node] : topology.nodes())
        if (node.kind == NodeKind::Server)
            most = std::max(most, node.server.portsPerNic);
    return most;
}

ServerReach serverReach(const Topology& topology) {
    const Components parts = components(topology);
    std::vector<char> cabled(parts.componentOf.size(), 0);
    for (const auto& [id, link] : topology.links())
        cabled[link.a.value] = cabled[link.b.value] = 1;
    std::vector<int> serversIn(static_cast<std::size_t>(parts.count), 0);
    std::vector<int> partsInOrder; ///< as their first server appears
    for (const auto& [id, node] : topology.nodes()) {
        if (node.kind != NodeKind::Server || !cabled[id.value])
            continue;
        const int part = parts.of(id);
        if (serversIn[static_cast<std::size_t>(part)]++ == 0)
            partsInOrder.push_back(part);
    }
    std::optional<int> main;
    for (const int part : partsInOrder) // strictly more: a tie keeps the earlier part
        if (!main ||
            serversIn[static_cast<std::size_t>(part)] > serversIn[static_cast<std::size_t>(*main)])
            main = part;
    ServerReach reach;
    for (const auto& [id, node] : topology.nodes()) {
        if (node.kind != NodeKind::Server)
            continue;
        if (!cabled[id.value])
            reach.unlinked.push_back(id);
        else if (parts.of(id) == *main)
            reach.connected.push_back(id);
        else
            reach.cutOff.push_back(id);
    }
    return reach;
}

} // namespace fabriclab::model
