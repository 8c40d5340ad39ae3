// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/analysis/Connectivity.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>

#include <map>
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

std::optional<std::string> disconnectedServers(const Topology& topology) {
    const Components parts = components(topology);
    const Node* first = nullptr;
    int firstPart = -1;
    for (const auto& [id, node] : topology.nodes()) {
        if (node.kind != NodeKind::Server)
            continue;
        const int part = parts.componentOf.at(id);
        if (!first) {
            first = &node;
            firstPart = part;
        } else if (part != firstPart) {
            return "server " + node.name + " cannot reach server " + first->name +
                   ": the fabric falls into " + std::to_string(parts.count) + " separate parts";
        }
    }
    return std::nullopt;
}

} // namespace fabriclab::model
