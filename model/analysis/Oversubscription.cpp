// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/analysis/Oversubscription.hpp"

#include <algorithm>
#include <vector>

namespace fabriclab::model {

std::optional<LeafRatio> worstLeaf(const Topology& topology) {
    // Indexed by node id (ids are dense): the app measures a 16K-GPU fabric on every edit.
    std::vector<LeafRatio> leaves(topology.nextNodeId().value);
    for (const auto& [id, link] : topology.links()) {
        for (auto [end, other] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}}) {
            if (topology.node(end).kind != NodeKind::Leaf)
                continue;
            const NodeKind otherKind = topology.node(other).kind;
            LeafRatio& leaf = leaves[end.value];
            leaf.leaf = end;
            if (otherKind == NodeKind::Server) {
                leaf.downGbps += topology.usableCapacity(link).value;
                leaf.downCables += link.count;
            } else if (otherKind == NodeKind::Spine || otherKind == NodeKind::Core) {
                leaf.upGbps += topology.usableCapacity(link).value;
                leaf.upCables += link.count;
            }
        }
    }
    std::optional<LeafRatio> worst;
    for (LeafRatio& leaf : leaves) {
        if (!(leaf.downGbps > 0) || !(leaf.upGbps > 0))
            continue;
        leaf.ratio = std::max(1.0, leaf.downGbps / leaf.upGbps);
        if (!worst || leaf.ratio > worst->ratio)
            worst = leaf;
    }
    return worst;
}

std::optional<double> leafOversubscription(const Topology& topology) {
    const auto worst = worstLeaf(topology);
    return worst ? std::optional<double>(worst->ratio) : std::nullopt;
}

} // namespace fabriclab::model
