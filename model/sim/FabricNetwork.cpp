// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/FabricNetwork.hpp"

#include "model/core/Hash.hpp"
#include "model/sim/routing/RoutingPolicies.hpp"

#include <stdexcept>

namespace fabriclab::sim {
namespace {

using model::mix;

// Signal propagation in fibre and copper: at most 4.5 ns per metre
// (docs/reference/published-figures.md, NVIDIA cable specs).
constexpr double kSecondsPerMeter = 4.5e-9;

} // namespace

FabricNetwork::FabricNetwork(const model::Topology& topology, const model::Fabric& fabric,
                             std::uint64_t ecmpSeed, Grouping grouping)
    : m_seed(ecmpSeed) {
    const routing::RoutingPolicyEntry& policy = routing::routingPolicyFor(fabric.routing);
    routing::ChannelLayout layout = policy.layout;
    if (grouping == Grouping::PerCable)
        layout.groupChannels = false;
    m_s = routing::FabricStructure::build(topology, fabric, layout);
    m_routing = policy.make(m_s);
}

FabricNetwork::FabricNetwork(const FabricNetwork& other)
    : m_s(other.m_s), m_routing(other.m_routing->clone()), m_seed(other.m_seed) {}

FabricNetwork& FabricNetwork::operator=(const FabricNetwork& other) {
    if (this != &other) {
        m_s = other.m_s;
        m_routing = other.m_routing->clone();
        m_seed = other.m_seed;
    }
    return *this;
}

FabricNetwork::~FabricNetwork() = default;

std::size_t FabricNetwork::twinnedSwitches() const {
    std::size_t twinned = 0;
    for (std::uint32_t u = 0; u < m_s->twinOf.size(); ++u)
        twinned += m_s->twinOf[u] != u;
    return twinned;
}

std::vector<std::uint32_t> FabricNetwork::channelsLeaving(model::NodeId from,
                                                          model::LinkId link) const {
    std::vector<std::uint32_t> channels;
    const auto found = m_s->index.find(from);
    if (found == m_s->index.end() || found->second >= m_s->switchHops.size())
        return channels;
    for (const routing::FabricStructure::Hop& hop : m_s->switchHops[found->second])
        if (m_s->channelLink[hop.channel0] == link)
            for (int i = 0; i < hop.channels; ++i)
                channels.push_back(hop.channel0 + static_cast<std::uint32_t>(i));
    return channels;
}

std::span<const model::LinkId> FabricNetwork::linksOf(std::uint32_t channel) const {
    if (channel < m_s->linkChannels)
        return {&m_s->channelLink[channel], 1};
    return m_s->groupLinks[channel - m_s->linkChannels];
}

int FabricNetwork::nicCount(model::NodeId server) const {
    return server.value < m_s->nics.size() ? static_cast<int>(m_s->nics[server.value].size()) : 0;
}

const routing::FabricStructure::Cable& FabricNetwork::cable(Endpoint endpoint) const {
    const std::vector<routing::FabricStructure::Cable>* cables =
        endpoint.server.value < m_s->nics.size() ? &m_s->nics[endpoint.server.value] : nullptr;
    if (!cables || endpoint.nic < 0 || endpoint.nic >= static_cast<int>(cables->size()))
        throw std::invalid_argument("server " + m_s->topology->node(endpoint.server).name +
                                    " has no NIC " + std::to_string(endpoint.nic));
    return (*cables)[static_cast<std::size_t>(endpoint.nic)];
}

model::Gbps FabricNetwork::nicGoodput(Endpoint endpoint) const {
    return model::Gbps(m_s->capacity[cable(endpoint).up]);
}
std::uint32_t FabricNetwork::nicDown(Endpoint endpoint) const {
    return cable(endpoint).down;
}

bool FabricNetwork::reaches(Endpoint from, Endpoint to) const {
    if (from.server == to.server)
        return true;
    return m_routing->hops(cable(from).switchNode, cable(to).switchNode) >= 0;
}

Route FabricNetwork::route(Endpoint from, Endpoint to, std::uint64_t flowKey) const {
    Route route;
    routeInto(from, to, flowKey, route);
    return route;
}

void FabricNetwork::routeInto(Endpoint from, Endpoint to, std::uint64_t flowKey,
                              Route& route) const {
    route.elements.clear();
    route.switchHops = 0;
    route.wireMeters = 0;
    if (from.server == to.server)
        return; // inside the scale-up domain: no fabric involved
    const routing::FabricStructure::Cable& source = cable(from);
    int switchHops = m_routing->hops(source.switchNode, cable(to).switchNode);
    for (int k = 1; switchHops < 0 && k < nicCount(to.server); ++k) {
        to.nic = (to.nic + 1) % nicCount(to.server);
        switchHops = m_routing->hops(source.switchNode, cable(to).switchNode);
    }
    if (switchHops < 0)
        throw std::invalid_argument("no path from " + m_s->topology->node(from.server).name +
                                    " to " + m_s->topology->node(to.server).name);
    const routing::FabricStructure::Cable& sink = cable(to);
    route.elements.push_back({source.up, 1.0});
    route.wireMeters = source.meters + sink.meters;
    route.switchHops = switchHops + 1;

    if (source.switchNode != sink.switchNode) {
        const auto key =
            mix(m_seed ^ mix(from.server.value * 131ULL + static_cast<std::uint64_t>(from.nic)) ^
                mix((to.server.value * 131ULL + static_cast<std::uint64_t>(to.nic)) << 1) ^
                mix(flowKey << 2));
        m_routing->appendMiddle(source.switchNode, sink.switchNode, key, route);
    }
    route.elements.push_back({sink.down, 1.0});
}

void FabricNetwork::expectFlows(std::span<const std::pair<Endpoint, Endpoint>> flows) const {
    if (!m_routing->weighsPatterns())
        return;
    std::vector<routing::ExpectedFlow> expected;
    expected.reserve(flows.size());
    for (const auto& [from, to] : flows)
        if (from.server != to.server)
            expected.push_back(
                {cable(from).switchNode, cable(to).switchNode, nicGoodput(from).value});
    m_routing->expectFlows(expected);
}

model::Seconds FabricNetwork::latency(const Route& route) const {
    if (route.elements.empty())
        return model::Seconds(0);
    return model::nanoseconds(2 * m_s->fabric.nicLatencyNs) +
           model::nanoseconds(route.switchHops * m_s->fabric.switchLatencyNs) +
           model::Seconds(route.wireMeters * kSecondsPerMeter);
}

} // namespace fabriclab::sim
