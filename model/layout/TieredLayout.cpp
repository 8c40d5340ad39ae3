// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/layout/TieredLayout.hpp"

#include <algorithm>
#include <array>
#include <tuple>
#include <vector>

namespace fabriclab::model {
namespace {

int tierRow(NodeKind kind) {
    switch (kind) {
    case NodeKind::Core:
        return 0;
    case NodeKind::Spine:
        return 1;
    case NodeKind::Leaf:
        return 2;
    case NodeKind::Server:
        return 3;
    }
    return 3;
}

} // namespace

void layoutTiers(Topology& topology) {
    std::array<std::vector<NodeId>, 4> rows;
    for (const auto& [id, node] : topology.nodes())
        rows[static_cast<std::size_t>(tierRow(node.kind))].push_back(id);

    double width = kServerSpacing;
    for (std::size_t row = 0; row < rows.size(); ++row)
        width = std::max(width, static_cast<double>(rows[row].size()) *
                                    (row == 3 ? kServerSpacing : kSwitchSpacing));
    // Wide fabrics get taller tiers, so a fitted view keeps a readable aspect (about 3:1)
    // instead of a flat strip of crossing lines.
    const double tierSpacing = std::max(kTierSpacing, width / 9);

    for (std::size_t row = 0; row < rows.size(); ++row) {
        auto& ids = rows[row];
        // Stable order: pod, then group, then rail, then creation order.
        std::stable_sort(ids.begin(), ids.end(), [&](NodeId a, NodeId b) {
            const auto& pa = topology.node(a).placement;
            const auto& pb = topology.node(b).placement;
            return std::tie(pa.pod, pa.group, pa.rail) < std::tie(pb.pod, pb.group, pb.rail);
        });
        const double step = width / static_cast<double>(std::max<std::size_t>(1, ids.size()));
        for (std::size_t i = 0; i < ids.size(); ++i) {
            Node node = topology.node(ids[i]);
            node.x = step * (static_cast<double>(i) + 0.5);
            node.y = static_cast<double>(row) * tierSpacing;
            topology.replaceNode(ids[i], std::move(node));
        }
    }
}

} // namespace fabriclab::model
