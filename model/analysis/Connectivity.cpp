// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/analysis/Connectivity.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>

#include <map>
#include <optional>
#include <vector>

namespace fabriclab::model {
namespace {

struct Components {
    std::map<NodeId, int> componentOf;
    int count = 0;
};

Components components(const Topology& topology) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    std::map<NodeId, std::size_t> index;
    for (const auto& [id, node] : topology.nodes())
        index.emplace(id, index.size());
    Graph graph(index.size());
    for (const auto& [id, link] : topology.links())
        boost::add_edge(index.at(link.a), index.at(link.b), graph);
    std::vector<int> component(index.size());
    Components result;
    result.count = index.empty() ? 0 : boost::connected_components(graph, component.data());
    for (const auto& [id, i] : index)
        result.componentOf.emplace(id, component[i]);
    return result;
}

} // namespace

int connectedParts(const Topology& topology) {
    return components(topology).count;
}

ServerReach serverReach(const Topology& topology) {
    const Components parts = components(topology);
    std::map<NodeId, bool> cabled;
    for (const auto& [id, link] : topology.links()) {
        cabled[link.a] = true;
        cabled[link.b] = true;
    }
    std::map<int, int> serversIn;
    std::vector<int> partsInOrder; ///< as their first server appears
    for (const auto& [id, node] : topology.nodes()) {
        if (node.kind != NodeKind::Server || !cabled.count(id))
            continue;
        const int part = parts.componentOf.at(id);
        if (serversIn[part]++ == 0)
            partsInOrder.push_back(part);
    }
    std::optional<int> main;
    for (const int part : partsInOrder) // strictly more: a tie keeps the earlier part
        if (!main || serversIn[part] > serversIn[*main])
            main = part;
    ServerReach reach;
    for (const auto& [id, node] : topology.nodes()) {
        if (node.kind != NodeKind::Server)
            continue;
        if (!cabled.count(id))
            reach.unlinked.push_back(id);
        else if (parts.componentOf.at(id) == *main)
            reach.connected.push_back(id);
        else
            reach.cutOff.push_back(id);
    }
    return reach;
}

} // namespace fabriclab::model
