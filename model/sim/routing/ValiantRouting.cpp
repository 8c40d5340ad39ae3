// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/routing/ValiantRouting.hpp"

#include "model/core/Hash.hpp"

#include <map>
#include <set>

namespace fabriclab::sim::routing {
namespace {

// Salts keep the detour's draws apart from the hops' ECMP draws on the same key.
constexpr std::uint64_t kGroupSalt = 0x6A09E667F3BCC909ULL;
constexpr std::uint64_t kSwitchSalt = 0xBB67AE8584CAA73BULL;

/// A well-mixed hash mapped onto [0, n) (as EcmpRouting does).
std::uint32_t below(std::uint64_t hash, std::uint32_t n) {
    return static_cast<std::uint32_t>(((model::mix(hash) >> 32) * n) >> 32);
}

/// Per pod with global links, its switches that have them.
std::map<int, std::set<model::NodeId>> gatewaysByPod(const model::Topology& topology) {
    std::map<int, std::set<model::NodeId>> gateways;
    for (const auto& [id, link] : topology.links())
        if (isGlobalLink(topology, link)) {
            gateways[topology.node(link.a).placement.pod].insert(link.a);
            gateways[topology.node(link.b).placement.pod].insert(link.b);
        }
    return gateways;
}

} // namespace

bool isGlobalLink(const model::Topology& topology, const model::Link& link) {
    const model::Node& a = topology.node(link.a);
    const model::Node& b = topology.node(link.b);
    return a.kind != model::NodeKind::Server && a.kind == b.kind && a.placement.pod >= 0 &&
           b.placement.pod >= 0 && a.placement.pod != b.placement.pod;
}

int dragonflyGroups(const model::Topology& topology) {
    const auto groups = static_cast<int>(gatewaysByPod(topology).size());
    return groups >= 3 ? groups : 0;
}

ValiantRouting::ValiantRouting(std::shared_ptr<const FabricStructure> structure)
    : m_s(std::move(structure)), m_minimal(m_s) {
    const model::Topology& topology = *m_s->topology;
    m_group.assign(m_s->tier.size(), -1);
    const auto gateways = gatewaysByPod(topology);
    if (gateways.size() < 3)
        return; // no third group to detour through: ECMP throughout
    std::map<int, int> position;
    for (const auto& [pod, switches] : gateways) {
        position.emplace(pod, static_cast<int>(m_gateways.size()));
        auto& points = m_gateways.emplace_back();
        for (const model::NodeId id : switches)
            points.push_back(m_s->index.at(id));
    }
    for (const auto& [id, node] : topology.nodes()) {
        const auto found = position.find(node.placement.pod);
        if (node.kind != model::NodeKind::Server && found != position.end())
            m_group[m_s->index.at(id)] = found->second;
    }
}

std::unique_ptr<RoutingPolicy> ValiantRouting::clone() const {
    return std::make_unique<ValiantRouting>(*this);
}

std::uint32_t ValiantRouting::detour(int a, int b, std::uint64_t flowKey) const {
    // A group other than the two ends, uniformly, then one of its gateways.
    const auto others = static_cast<std::uint32_t>(m_gateways.size() - 2);
    auto pick = static_cast<int>(below(flowKey ^ kGroupSalt, others));
    for (const int end : {std::min(a, b), std::max(a, b)})
        if (pick >= end)
            ++pick;
    const auto& points = m_gateways[static_cast<std::size_t>(pick)];
    return points[below(flowKey ^ kSwitchSalt, static_cast<std::uint32_t>(points.size()))];
}

std::vector<double> ValiantRouting::globalCapacityGbps() const {
    const auto g = static_cast<std::size_t>(groupCount());
    std::vector<double> capacity(g * g, 0.0);
    const model::Topology& topology = *m_s->topology;
    for (const auto& [id, link] : topology.links()) {
        if (!isGlobalLink(topology, link))
            continue;
        const int a = m_group[m_s->index.at(link.a)];
        const int b = m_group[m_s->index.at(link.b)];
        if (a < 0 || b < 0)
            continue;
        const double gbps = link.speed.value * link.count;
        capacity[static_cast<std::size_t>(a) * g + static_cast<std::size_t>(b)] += gbps;
        capacity[static_cast<std::size_t>(b) * g + static_cast<std::size_t>(a)] += gbps;
    }
    return capacity;
}

int ValiantRouting::hops(std::uint32_t from, std::uint32_t to) const {
    const int a = m_group[from];
    const int b = m_group[to];
    if (a < 0 || b < 0 || a == b)
        return m_minimal.hops(from, to);
    const std::uint32_t via = detour(a, b, 0);
    const int first = m_minimal.hops(from, via);
    const int second = m_minimal.hops(via, to);
    return first < 0 || second < 0 ? -1 : first + second;
}

void ValiantRouting::appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t flowKey,
                                  Route& route) const {
    const int a = m_group[from];
    const int b = m_group[to];
    if (a < 0 || b < 0 || a == b) {
        m_minimal.appendMiddle(from, to, flowKey, route);
        return;
    }
    const std::uint32_t via = detour(a, b, flowKey);
    if (via != from)
        m_minimal.appendMiddle(from, via, flowKey, route);
    if (via != to)
        m_minimal.appendMiddle(via, to, flowKey, route);
}

} // namespace fabriclab::sim::routing
