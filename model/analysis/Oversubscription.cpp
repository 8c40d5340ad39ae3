// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/analysis/Oversubscription.hpp"

#include <algorithm>
#include <map>

namespace fabriclab::model {

std::optional<double> leafOversubscription(const Topology& topology) {
    std::map<NodeId, double> down;
    std::map<NodeId, double> up;
    for (const auto& [id, link] : topology.links()) {
        for (auto [end, other] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}}) {
            if (topology.node(end).kind != NodeKind::Leaf)
                continue;
            const NodeKind otherKind = topology.node(other).kind;
            if (otherKind == NodeKind::Server)
                down[end] += topology.usableCapacity(link).value;
            else if (otherKind == NodeKind::Spine || otherKind == NodeKind::Core)
                up[end] += topology.usableCapacity(link).value;
        }
    }
    std::optional<double> worst;
    for (const auto& [leaf, downlink] : down)
        if (up.count(leaf) && up.at(leaf) > 0)
            worst = std::max(worst.value_or(1.0), downlink / up.at(leaf));
    return worst;
}

} // namespace fabriclab::model
