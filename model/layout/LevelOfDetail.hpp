// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/Units.hpp"
#include "model/topology/Topology.hpp"

#include <compare>
#include <cstddef>
#include <optional>
#include <set>
#include <variant>
#include <vector>

namespace fabriclab::model {

/// What a group gathers: a rack or scalable unit of servers and their leaves, the spines
/// of a pod (or of the whole fabric when it has no pods), or the core tier.
enum class GroupTier { Unit, Spines, Cores };

/// A group of nodes that can fold into one block. A unit is the servers and leaves a
/// generator gave the same placement.pod and placement.group; the switch tiers group by
/// pod (spines) or all together (cores), so a 16K-GPU fat-tree reads as rows of blocks
/// with a few bundles between them instead of thousands of links.
struct GroupKey {
    int pod = -1;
    int group = -1;
    GroupTier tier = GroupTier::Unit;
    friend constexpr auto operator<=>(const GroupKey&, const GroupKey&) = default;
};

/// Something drawn at the current level of detail: a node, or a collapsed group's block.
using Endpoint = std::variant<NodeId, GroupKey>;

/// One collapsed group drawn as a single block.
struct Block {
    GroupKey key;
    std::vector<NodeId> members; ///< servers and leaves, in id order
    int servers = 0;
    int leaves = 0;
    int spines = 0;
    int cores = 0;
    int gpus = 0;           ///< summed over the member servers
    std::vector<int> rails; ///< distinct rails of the member leaves, ascending; empty if none
    int internalCables = 0; ///< cables with both ends inside the block (not drawn)
    double x = 0;           ///< mean member position, scene units
    double y = 0;
};

/// Every link between two drawn endpoints, bundled into one drawn edge.
struct Edge {
    Endpoint a; ///< a < b, so an edge has one key whatever the links' direction
    Endpoint b;
    Gbps capacity{0};          ///< sum of speed x count over `links`, one direction
    int cables = 0;            ///< sum of count over `links`
    std::vector<LinkId> links; ///< the underlying records, in id order
    bool serverLinks = false;  ///< true when every underlying link has a server end
    int rail = -1;             ///< rail of the leaf end when every link is a server link to
                               ///< leaves of that one rail; -1 otherwise
};

/// The graph a canvas draws for a topology and a set of collapsed groups.
struct VisibleGraph {
    std::vector<Block> blocks; ///< in key order
    std::vector<NodeId> nodes; ///< nodes outside collapsed groups, in id order
    std::vector<Edge> edges;   ///< in (a, b) order; links inside one block are left out
};

/// Designs with more nodes than this open with every group collapsed.
inline constexpr std::size_t kCollapseAbove = 300;

/// The group a node belongs to: servers and leaves with a non-negative placement.group
/// form units; every spine belongs to its pod's spine group, every core to the core group.
std::optional<GroupKey> groupOf(const Node& node);
/// Every group present in the topology.
std::set<GroupKey> groupsOf(const Topology& topology);
/// The groups a freshly opened design shows collapsed: all of them above kCollapseAbove
/// nodes, none otherwise.
std::set<GroupKey> initiallyCollapsed(const Topology& topology);

/// Derives what to draw: members of `collapsed` groups fold into one block each, and the
/// links between two drawn endpoints are summed into one edge. Keys in `collapsed` that no
/// node carries are ignored. A pure function; O(nodes + links log links).
VisibleGraph levelOfDetail(const Topology& topology, const std::set<GroupKey>& collapsed);

} // namespace fabriclab::model
