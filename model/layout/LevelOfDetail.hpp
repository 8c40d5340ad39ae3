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
/// of a pod (or of the whole fabric when it has no pods), the core tier, or a whole pod
/// (its units and spines) for the overview of a multi-pod fat-tree.
enum class GroupTier { Unit, Spines, Cores, Pod };

/// A group of nodes that can fold into one block. A unit is the servers and leaves a
/// generator gave the same placement.pod and placement.group; the switch tiers group by
/// pod and plane (spines: placement.group is a spine's plane) or all together (cores), so a 16K-GPU
/// fat-tree reads as rows of blocks with a few bundles between them instead of thousands of links.
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
    double left = 0;   ///< members' bounding box, scene units: a block covers the ground its
    double right = 0;  ///< members were laid out on, so a fitted view of a 16K-GPU fabric
    double top = 0;    ///< shows pods and units at their share of the width instead of
    double bottom = 0; ///< specks
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

/// Designs with more nodes than this, or more link records than kBundleAbove, open
/// collapsed (see initiallyCollapsed).
inline constexpr std::size_t kCollapseAbove = 300;
inline constexpr std::size_t kBundleAbove = 300;
/// A row of switches with more members than this folds into one block when a design opens
/// collapsed; fewer stay visible one by one (8 spines read better than a "spines" block).
inline constexpr int kSwitchRowFoldAbove = 32;

/// The group a node belongs to: servers and leaves with a non-negative placement.group
/// form units; every spine belongs to its pod's spine group, every core to the core group.
std::optional<GroupKey> groupOf(const Node& node);
/// The pod a server, leaf or spine belongs to (a generated fat-tree's placement.pod), as a
/// group that gathers all of them; none for cores and for nodes outside pods.
std::optional<GroupKey> podOf(const Node& node);
/// Every group present in the topology (units, spine rows, cores; not pods).
std::set<GroupKey> groupsOf(const Topology& topology);
/// Every pod present in the topology.
std::set<GroupKey> podsOf(const Topology& topology);
/// The groups a freshly opened design shows collapsed. Small designs (at most
/// kCollapseAbove nodes and kBundleAbove link records) open expanded. A larger fabric of
/// two or more pods opens as its pods (and the core row when it is wider than
/// kSwitchRowFoldAbove); any other large design as its units, with switch rows wider than
/// kSwitchRowFoldAbove folded too.
std::set<GroupKey> initiallyCollapsed(const Topology& topology);

/// Derives what to draw: members of `collapsed` groups fold into one block each (a
/// collapsed pod takes its members before their units or spine rows do), and the links
/// between two drawn endpoints are summed into one edge. Keys in `collapsed` that no node
/// carries are ignored. A pure function; O(nodes + links log links).
VisibleGraph levelOfDetail(const Topology& topology, const std::set<GroupKey>& collapsed);

} // namespace fabriclab::model
