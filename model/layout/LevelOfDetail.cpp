// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/layout/LevelOfDetail.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

namespace fabriclab::model {
namespace {

// Endpoints are aggregated under integer codes: node ids as they are, blocks above 2^32
// by block index. Blocks are numbered in key order, so code order equals Endpoint order
// (NodeId before GroupKey, then by value) and the edges come out sorted for free.
using Code = std::uint64_t;
constexpr Code kBlockBase = Code{1} << 32;

Endpoint endpointOf(Code code, const std::vector<Block>& blocks) {
    if (code < kBlockBase)
        return NodeId{static_cast<std::uint32_t>(code)};
    return blocks[static_cast<std::size_t>(code - kBlockBase)].key;
}

} // namespace

std::optional<GroupKey> groupOf(const Node& node) {
    switch (node.kind) {
    case NodeKind::Spine:
        return GroupKey{node.placement.pod, node.placement.group, GroupTier::Spines};
    case NodeKind::Core:
        return GroupKey{-1, -1, GroupTier::Cores};
    case NodeKind::Server:
    case NodeKind::Leaf:
        break;
    }
    if (node.placement.group < 0)
        return std::nullopt;
    return GroupKey{node.placement.pod, node.placement.group};
}

std::optional<GroupKey> podOf(const Node& node) {
    if (node.kind == NodeKind::Core || node.placement.pod < 0)
        return std::nullopt;
    return GroupKey{node.placement.pod, -1, GroupTier::Pod};
}

std::set<GroupKey> podsOf(const Topology& topology) {
    std::set<GroupKey> pods;
    for (const auto& [id, node] : topology.nodes())
        if (const auto key = podOf(node))
            pods.insert(*key);
    return pods;
}

std::set<GroupKey> groupsOf(const Topology& topology) {
    std::set<GroupKey> groups;
    for (const auto& [id, node] : topology.nodes())
        if (const auto key = groupOf(node))
            groups.insert(*key);
    return groups;
}

std::set<GroupKey> initiallyCollapsed(const Topology& topology) {
    const bool manyNodes = topology.nodes().size() > kCollapseAbove;
    if (!manyNodes && topology.links().size() <= kBundleAbove)
        return {};
    // Members of each spine or core row; the planes of a multi-plane fabric share their
    // row, so 8 planes of 32 spines fold as the 256 spines they are.
    std::map<GroupKey, int> switchRows;
    const auto rowOf = [](GroupKey key) {
        key.group = -1;
        return key;
    };
    for (const auto& [id, node] : topology.nodes())
        if (const auto key = groupOf(node); key && key->tier != GroupTier::Unit)
            ++switchRows[rowOf(*key)];
    const auto wide = [&](const GroupKey& key) {
        return switchRows[rowOf(key)] > kSwitchRowFoldAbove;
    };

    std::set<GroupKey> collapsed;
    std::set<GroupKey> pods = podsOf(topology);
    if (manyNodes && pods.size() >= 2) {
        // The overview of a multi-pod fat-tree: a row of pods under the core.
        collapsed = std::move(pods);
        const GroupKey cores{-1, -1, GroupTier::Cores};
        if (switchRows.count(cores) && wide(cores))
            collapsed.insert(cores);
        return collapsed;
    }
    for (const GroupKey& key : groupsOf(topology))
        if (key.tier == GroupTier::Unit || wide(key))
            collapsed.insert(key);
    return collapsed;
}

VisibleGraph levelOfDetail(const Topology& topology, const std::set<GroupKey>& collapsed) {
    VisibleGraph graph;

    // Pass 1: which nodes fold into which block.
    std::map<GroupKey, std::size_t> blockIndex;
    // A collapsed pod takes its members before their own unit or spine row does.
    const auto foldOf = [&](const Node& node) -> std::optional<GroupKey> {
        if (const auto pod = podOf(node); pod && collapsed.count(*pod))
            return pod;
        if (const auto key = groupOf(node); key && collapsed.count(*key))
            return key;
        return std::nullopt;
    };
    for (const auto& [id, node] : topology.nodes())
        if (const auto key = foldOf(node))
            blockIndex.emplace(*key, 0);
    graph.blocks.reserve(blockIndex.size());
    for (auto& [key, index] : blockIndex) {
        index = graph.blocks.size();
        Block block;
        block.key = key;
        graph.blocks.push_back(std::move(block));
    }

    // Ids only grow, so a vector indexed by id is both smaller and faster than a hash map
    // for generated fabrics.
    std::vector<Code> codeOf(topology.nextNodeId().value, 0);
    for (const auto& [id, node] : topology.nodes()) {
        const auto key = foldOf(node);
        const auto found = key ? blockIndex.find(*key) : blockIndex.end();
        if (found == blockIndex.end()) {
            codeOf[id.value] = id.value;
            graph.nodes.push_back(id);
            continue;
        }
        codeOf[id.value] = kBlockBase + found->second;
        Block& block = graph.blocks[found->second];
        if (block.members.empty()) {
            block.left = block.right = node.x;
            block.top = block.bottom = node.y;
        }
        block.members.push_back(id);
        block.x += node.x;
        block.y += node.y;
        block.left = std::min(block.left, node.x);
        block.right = std::max(block.right, node.x);
        block.top = std::min(block.top, node.y);
        block.bottom = std::max(block.bottom, node.y);
        switch (node.kind) {
        case NodeKind::Server:
            ++block.servers;
            block.gpus += node.server.gpus;
            break;
        case NodeKind::Leaf:
            ++block.leaves;
            if (node.placement.rail >= 0)
                block.rails.push_back(node.placement.rail);
            break;
        case NodeKind::Spine:
            ++block.spines;
            break;
        case NodeKind::Core:
            ++block.cores;
            break;
        }
    }
    for (Block& block : graph.blocks) {
        const auto n = static_cast<double>(block.members.size());
        block.x /= n;
        block.y /= n;
        std::sort(block.rails.begin(), block.rails.end());
        block.rails.erase(std::unique(block.rails.begin(), block.rails.end()), block.rails.end());
    }

    // Pass 2: bundle the links between each pair of drawn endpoints.
    std::map<std::pair<Code, Code>, Edge> bundles;
    for (const auto& [id, link] : topology.links()) {
        Code a = codeOf[link.a.value];
        Code b = codeOf[link.b.value];
        if (a == b && a >= kBlockBase) {
            graph.blocks[static_cast<std::size_t>(a - kBlockBase)].internalCables += link.count;
            continue;
        }
        if (b < a)
            std::swap(a, b);
        auto [it, fresh] = bundles.try_emplace({a, b});
        Edge& edge = it->second;

        const Node& na = topology.node(link.a);
        const Node& nb = topology.node(link.b);
        const Node* server = na.kind == NodeKind::Server   ? &na
                             : nb.kind == NodeKind::Server ? &nb
                                                           : nullptr;
        const Node& other = server == &na ? nb : na;
        const int rail = server && other.kind == NodeKind::Leaf ? other.placement.rail : -1;
        if (fresh) {
            edge.serverLinks = server != nullptr;
            edge.rail = rail;
        } else {
            edge.serverLinks = edge.serverLinks && server != nullptr;
            if (edge.rail != rail)
                edge.rail = -1;
        }
        edge.capacity += link.capacity();
        edge.cables += link.count;
        edge.links.push_back(id);
    }
    graph.edges.reserve(bundles.size());
    for (auto& [codes, edge] : bundles) {
        edge.a = endpointOf(codes.first, graph.blocks);
        edge.b = endpointOf(codes.second, graph.blocks);
        graph.edges.push_back(std::move(edge));
    }
    return graph;
}

} // namespace fabriclab::model
