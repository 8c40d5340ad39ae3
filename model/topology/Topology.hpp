// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Link.hpp"
#include "model/topology/Node.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fabriclab::model {

/// Switch counts per tier, as the report and the status bar show them.
struct TierCounts {
    int leaf = 0;
    int spine = 0;
    int core = 0;
    int total() const { return leaf + spine + core; }
};

/// Which tiers a link joins: a server to its switch, leaf to spine, spine to core, or
/// any other pair of switches drawn by hand (leaf to core, ...).
enum class LinkTier { Server, LeafSpine, SpineCore, Other };
inline constexpr int kLinkTierCount = 4;

/// Physical cables (a link's `count`) by the tiers they join.
struct CableCounts {
    long long server = 0; ///< a server at one end
    long long leafSpine = 0;
    long long spineCore = 0;
    long long other = 0; ///< any other switch pair, as drawn by hand (leaf to core, ...)
    long long switchToSwitch() const { return leafSpine + spineCore + other; }
};

/// The record of a fabric: explicit nodes and links, addressed by stable ids.
/// Iteration order is insertion order (ids only grow), so files and reports are stable.
/// Graph algorithms build their own Boost.Graph views from this record (see
/// model/analysis), which keeps Boost types out of headers the views include.
class Topology {
public:
    Topology() = default;
    // A copy rebuilds the look-up index, which points into its own maps; a move keeps the
    // maps' nodes where they are, and with them the index.
    Topology(const Topology& other);
    Topology& operator=(const Topology& other);
    Topology(Topology&&) noexcept = default;
    Topology& operator=(Topology&&) noexcept = default;

    NodeId addNode(Node node);
    LinkId addLink(Link link);
    /// Removes the node and every link attached to it.
    void removeNode(NodeId id);
    void removeLink(LinkId id);
    /// Puts back a node or link under the id it had (undo of a removal). Throws
    /// std::invalid_argument when the id is taken or the name is already used.
    void restoreNode(NodeId id, Node node);
    void restoreLink(LinkId id, Link link);
    void replaceNode(NodeId id, Node node);
    void replaceLink(LinkId id, Link link);

    const std::map<NodeId, Node>& nodes() const { return m_nodes; }
    const std::map<LinkId, Link>& links() const { return m_links; }
    /// The ids the next addNode / addLink will hand out.
    NodeId nextNodeId() const { return NodeId{m_nextNode}; }
    LinkId nextLinkId() const { return LinkId{m_nextLink}; }
    const Node& node(NodeId id) const;
    const Link& link(LinkId id) const;
    bool contains(NodeId id) const {
        return id.value < m_nodeAt.size() && m_nodeAt[id.value] != nullptr;
    }
    std::optional<NodeId> findNode(std::string_view name) const;

    /// What a link can carry per direction: its cables, each at the slowest of the cable,
    /// the NIC and the switch port it plugs into (an 800G cable on a 400G NIC runs at 400G).
    Gbps usableCapacity(const Link& link) const;

    /// Ports a node has in use: the sum of `count` over its links.
    int portsUsed(NodeId id) const;
    /// Links attached to a node, in insertion order.
    std::vector<LinkId> linksOf(NodeId id) const;

    int serverCount() const;
    int gpuCount() const;
    TierCounts switchCounts() const;
    /// The tiers a link joins.
    LinkTier tierOf(const Link& link) const;
    CableCounts cableCounts() const;
    /// Sum of the link capacity servers attach with: what they can inject into the fabric.
    Gbps injectionBandwidth() const;

    /// Problems that make the design unusable, one message per problem naming the node or
    /// link: self links, switches using more ports than their radix, zero capacity, a
    /// server with no link. Empty when the design is sound.
    std::vector<std::string> problems() const;

private:
    void index(NodeId id, const Node* node);
    void count(const Node& node, int sign);
    void reindex();

    std::map<NodeId, Node> m_nodes;
    std::map<LinkId, Link> m_links;
    std::unordered_map<std::string, NodeId> m_byName;
    /// Every node by id value, nullptr where none: ids are dense, and a million-GPU fabric
    /// asks for a node by id tens of millions of times, where the map walks 20 levels.
    std::vector<const Node*> m_nodeAt;
    /// Kept as nodes come and go: generators ask for them once per group of switches they add.
    TierCounts m_switches;
    int m_servers = 0;
    long long m_gpus = 0;
    std::uint32_t m_nextNode = 1;
    std::uint32_t m_nextLink = 1;
};

} // namespace fabriclab::model
