// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/topology/Topology.hpp"

#include <algorithm>
#include <stdexcept>

namespace fabriclab::model {

Topology::Topology(const Topology& other)
    : m_nodes(other.m_nodes), m_links(other.m_links), m_byName(other.m_byName),
      m_switches(other.m_switches), m_servers(other.m_servers), m_gpus(other.m_gpus),
      m_nextNode(other.m_nextNode), m_nextLink(other.m_nextLink) {
    reindex();
}

Topology& Topology::operator=(const Topology& other) {
    if (this != &other) {
        Topology copy(other);
        *this = std::move(copy);
    }
    return *this;
}

void Topology::reindex() {
    m_nodeAt.assign(m_nextNode, nullptr);
    for (const auto& [id, node] : m_nodes)
        m_nodeAt[id.value] = &node;
}

void Topology::index(NodeId id, const Node* node) {
    if (m_nodeAt.size() <= id.value)
        m_nodeAt.resize(id.value + 1, nullptr);
    m_nodeAt[id.value] = node;
}

void Topology::count(const Node& node, int sign) {
    switch (node.kind) {
    case NodeKind::Leaf:
        m_switches.leaf += sign;
        break;
    case NodeKind::Spine:
        m_switches.spine += sign;
        break;
    case NodeKind::Core:
        m_switches.core += sign;
        break;
    case NodeKind::Server:
        m_servers += sign;
        m_gpus += sign * node.server.gpus;
        break;
    }
}

NodeId Topology::addNode(Node node) {
    if (m_byName.count(node.name))
        throw std::invalid_argument("duplicate node id '" + node.name + "'");
    const NodeId id{m_nextNode++};
    m_byName.emplace(node.name, id);
    const auto [it, inserted] = m_nodes.emplace(id, std::move(node));
    index(id, &it->second);
    count(it->second, +1);
    return id;
}

LinkId Topology::addLink(Link link) {
    if (!contains(link.a) || !contains(link.b))
        throw std::invalid_argument("link endpoint is not a node of this topology");
    const LinkId id{m_nextLink++};
    m_links.emplace(id, link);
    return id;
}

void Topology::restoreNode(NodeId id, Node node) {
    if (m_nodes.count(id) || m_byName.count(node.name))
        throw std::invalid_argument("cannot restore node '" + node.name +
                                    "': its id or name is taken");
    m_byName.emplace(node.name, id);
    const auto [it, inserted] = m_nodes.emplace(id, std::move(node));
    index(id, &it->second);
    count(it->second, +1);
    m_nextNode = std::max(m_nextNode, id.value + 1);
}

void Topology::restoreLink(LinkId id, Link link) {
    if (m_links.count(id) || !contains(link.a) || !contains(link.b))
        throw std::invalid_argument(
            "cannot restore a link: its id is taken or an endpoint is missing");
    m_links.emplace(id, link);
    m_nextLink = std::max(m_nextLink, id.value + 1);
}

void Topology::removeNode(NodeId id) {
    const auto it = m_nodes.find(id);
    if (it == m_nodes.end())
        return;
    std::erase_if(m_links,
                  [id](const auto& entry) { return entry.second.a == id || entry.second.b == id; });
    m_byName.erase(it->second.name);
    count(it->second, -1);
    index(id, nullptr);
    m_nodes.erase(it);
}

void Topology::removeLink(LinkId id) {
    m_links.erase(id);
}

void Topology::replaceNode(NodeId id, Node node) {
    auto& slot = m_nodes.at(id);
    if (node.name != slot.name) {
        if (m_byName.count(node.name))
            throw std::invalid_argument("duplicate node id '" + node.name + "'");
        m_byName.erase(slot.name);
        m_byName.emplace(node.name, id);
    }
    count(slot, -1);
    slot = std::move(node);
    count(slot, +1);
}

void Topology::replaceLink(LinkId id, Link link) {
    if (!contains(link.a) || !contains(link.b))
        throw std::invalid_argument("link endpoint is not a node of this topology");
    m_links.at(id) = link;
}

const Node& Topology::node(NodeId id) const {
    if (!contains(id))
        throw std::out_of_range("no node with id " + std::to_string(id.value));
    return *m_nodeAt[id.value];
}
const Link& Topology::link(LinkId id) const {
    return m_links.at(id);
}

std::optional<NodeId> Topology::findNode(std::string_view name) const {
    const auto it = m_byName.find(std::string(name));
    if (it == m_byName.end())
        return std::nullopt;
    return it->second;
}

Gbps Topology::usableCapacity(const Link& link) const {
    const auto portSpeed = [this](NodeId id) {
        const Node& n = node(id);
        // A multiplane NIC's cable is one port of it: the NIC's speed over its ports.
        return n.kind == NodeKind::Server ? n.server.nicSpeed / n.server.portsPerNic
                                          : n.sw.portSpeed;
    };
    return std::min({link.speed, portSpeed(link.a), portSpeed(link.b)}) * link.count;
}

int Topology::portsUsed(NodeId id) const {
    int ports = 0;
    for (const auto& [linkId, link] : m_links)
        if (link.a == id || link.b == id)
            ports += link.a == link.b ? 2 * link.count : link.count;
    return ports;
}

std::vector<LinkId> Topology::linksOf(NodeId id) const {
    std::vector<LinkId> result;
    for (const auto& [linkId, link] : m_links)
        if (link.a == id || link.b == id)
            result.push_back(linkId);
    return result;
}

int Topology::serverCount() const {
    return m_servers;
}

int Topology::gpuCount() const {
    return static_cast<int>(m_gpus);
}

TierCounts Topology::switchCounts() const {
    return m_switches;
}

LinkTier Topology::tierOf(const Link& link) const {
    const NodeKind a = node(link.a).kind;
    const NodeKind b = node(link.b).kind;
    const auto joins = [&](NodeKind x, NodeKind y) {
        return (a == x && b == y) || (a == y && b == x);
    };
    if (a == NodeKind::Server || b == NodeKind::Server)
        return LinkTier::Server;
    if (joins(NodeKind::Leaf, NodeKind::Spine))
        return LinkTier::LeafSpine;
    if (joins(NodeKind::Spine, NodeKind::Core))
        return LinkTier::SpineCore;
    return LinkTier::Other;
}

CableCounts Topology::cableCounts() const {
    CableCounts counts;
    for (const auto& [id, link] : m_links) {
        switch (tierOf(link)) {
        case LinkTier::Server:
            counts.server += link.count;
            break;
        case LinkTier::LeafSpine:
            counts.leafSpine += link.count;
            break;
        case LinkTier::SpineCore:
            counts.spineCore += link.count;
            break;
        case LinkTier::Other:
            counts.other += link.count;
            break;
        }
    }
    return counts;
}

Gbps Topology::injectionBandwidth() const {
    Gbps total{0};
    for (const auto& [id, link] : m_links) {
        const bool aServer = node(link.a).kind == NodeKind::Server;
        const bool bServer = node(link.b).kind == NodeKind::Server;
        if (aServer != bServer)
            total += usableCapacity(link);
    }
    return total;
}

std::vector<std::string> Topology::problems() const {
    std::vector<std::string> found;
    // Ports per node in one pass: a million-GPU fabric has millions of links.
    std::vector<long long> ports(m_nodeAt.size(), 0);
    for (const auto& [id, link] : m_links) {
        const auto& a = node(link.a);
        const auto& b = node(link.b);
        const auto where = [&] { return "link " + a.name + " - " + b.name; };
        if (link.a == link.b)
            found.push_back(where() + ": connects a node to itself");
        if (link.speed.value <= 0 || link.count <= 0)
            found.push_back(where() + ": has no capacity (speed and count must be positive)");
        if (a.kind == NodeKind::Server && b.kind == NodeKind::Server)
            found.push_back(where() +
                            ": connects two servers directly; servers attach to switches");
        ports[link.a.value] += link.count;
        ports[link.b.value] += link.count;
    }
    for (const auto& [id, node] : m_nodes) {
        const long long used = ports[id.value];
        if (isSwitch(node.kind) && used > node.sw.radix)
            found.push_back(std::string(toString(node.kind)) + " " + node.name + ": uses " +
                            std::to_string(used) + " ports, radix is " +
                            std::to_string(node.sw.radix));
        if (node.kind == NodeKind::Server && used == 0)
            found.push_back("server " + node.name + ": is not connected to any switch");
        if (node.kind == NodeKind::Server && used > node.server.cablePorts())
            found.push_back("server " + node.name + ": uses " + std::to_string(used) +
                            " NIC ports, has " + std::to_string(node.server.cablePorts()) +
                            (node.server.portsPerNic > 1 ? " (NICs x ports)" : " NICs"));
    }
    return found;
}

} // namespace fabriclab::model
