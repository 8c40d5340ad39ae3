// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/FabricNetwork.hpp"

#include "model/core/Hash.hpp"
#include "model/sim/routing/RoutingPolicies.hpp"

#include <algorithm>
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
    if (server.value >= m_s->nics.size())
        return 0;
    if (portCount(server) > 1)
        return m_s->nicsOf[server.value];
    return static_cast<int>(m_s->nics[server.value].size());
}

int FabricNetwork::portCount(model::NodeId server) const {
    return server.value < m_s->portsPerNic.size() ? m_s->portsPerNic[server.value] : 1;
}

const routing::FabricStructure::Cable* FabricNetwork::portCable(Endpoint endpoint, int port) const {
    const model::NodeId server = endpoint.server;
    if (endpoint.nic < 0 || endpoint.nic >= nicCount(server) || port < 0 ||
        port >= portCount(server))
        return nullptr;
    const auto& cables = m_s->nics[server.value];
    if (portCount(server) == 1)
        return &cables[static_cast<std::size_t>(endpoint.nic)];
    const std::int32_t at =
        m_s->portSlots[server.value]
                      [static_cast<std::size_t>(port * nicCount(server) + endpoint.nic)];
    return at < 0 ? nullptr : &cables[static_cast<std::size_t>(at)];
}

const routing::FabricStructure::Cable& FabricNetwork::cable(Endpoint endpoint) const {
    for (int port = 0; port < portCount(endpoint.server); ++port)
        if (const auto* found = portCable(endpoint, port))
            return *found;
    throw std::invalid_argument("server " + m_s->topology->node(endpoint.server).name +
                                " has no NIC " + std::to_string(endpoint.nic));
}

model::Gbps FabricNetwork::nicGoodput(Endpoint endpoint) const {
    cable(endpoint); // throws naming a missing NIC
    double gbps = 0;
    for (int port = 0; port < portCount(endpoint.server); ++port)
        if (const auto* found = portCable(endpoint, port))
            gbps += m_s->capacity[found->up];
    return model::Gbps(gbps);
}

std::vector<std::uint32_t> FabricNetwork::nicDowns(Endpoint endpoint) const {
    std::vector<std::uint32_t> downs;
    for (int port = 0; port < portCount(endpoint.server); ++port)
        if (const auto* found = portCable(endpoint, port))
            downs.push_back(found->down);
    return downs;
}

bool FabricNetwork::reaches(Endpoint from, Endpoint to) const {
    if (from.server == to.server)
        return true;
    if (portCount(from.server) == 1 && portCount(to.server) == 1)
        return m_routing->hops(cable(from).switchNode, cable(to).switchNode) >= 0;
    // A multiplane NIC reaches a destination when any of its ports reaches the destination's
    // port in the same plane.
    cable(from); // throws naming a missing NIC
    cable(to);
    for (int port = 0; port < portCount(from.server); ++port) {
        const auto* source = portCable(from, port);
        const auto* sink = portCable(to, port % portCount(to.server));
        if (source && sink && m_routing->hops(source->switchNode, sink->switchNode) >= 0)
            return true;
    }
    return false;
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
    const int ports = portCount(from.server);
    if (ports == 1) {
        const routing::FabricStructure::Cable& source = cable(from);
        const Sink sink = findSink(to, source, 0);
        if (!sink.cable)
            throw noPath(from, to);
        appendPort(from, source, sink, 1.0, flowKey, route, 0);
        return;
    }
    // A multiplane NIC sprays each flow evenly over the ports it has cabled that reach the
    // destination, port p into plane p, where the destination's port p waits (a destination
    // with fewer ports takes it on p mod its). A port a failure took, or whose plane the
    // destination is not in, gets no share: the NIC sprays over the rest.
    std::vector<std::pair<const routing::FabricStructure::Cable*, Sink>> shares;
    for (int port = 0; port < ports; ++port)
        if (const auto* source = portCable(from, port))
            if (const Sink sink = findSink(to, *source, port % portCount(to.server)); sink.cable)
                shares.push_back({source, sink});
    if (shares.empty()) {
        cable(from); // names a missing NIC
        throw noPath(from, to);
    }
    for (std::size_t i = 0; i < shares.size(); ++i)
        appendPort(from, *shares[i].first, shares[i].second,
                   1.0 / static_cast<double>(shares.size()), flowKey, route, static_cast<int>(i));
    // Two ports landing on one destination port (a destination with fewer ports) share its
    // cable: one element each channel, as every route lists it.
    auto& elements = route.elements;
    for (std::size_t x = 0; x < elements.size(); ++x)
        for (std::size_t y = elements.size(); y-- > x + 1;)
            if (elements[y].channel == elements[x].channel) {
                elements[x].fraction += elements[y].fraction;
                elements.erase(elements.begin() + static_cast<std::ptrdiff_t>(y));
            }
}

std::invalid_argument FabricNetwork::noPath(Endpoint from, Endpoint to) const {
    return std::invalid_argument("no path from " + m_s->topology->node(from.server).name + " to " +
                                 m_s->topology->node(to.server).name);
}

FabricNetwork::Sink FabricNetwork::findSink(Endpoint to,
                                            const routing::FabricStructure::Cable& source,
                                            int toPort) const {
    // The destination NIC's cable in the source's plane, or, where no switch path joins
    // them (rail planes, a failure), the first NIC from `to` on that the source reaches,
    // which hands the data over NVLink (PXN); failing that (a destination whose ports sit
    // in other planes), the first of its other ports the source reaches.
    const int nics = nicCount(to.server);
    if (to.nic < 0 || to.nic >= nics)
        throw std::invalid_argument("server " + m_s->topology->node(to.server).name +
                                    " has no NIC " + std::to_string(to.nic));
    const int toPorts = portCount(to.server);
    for (int q = 0; q < toPorts; ++q) {
        const int port = (toPort + q) % toPorts;
        for (int k = 0; k < nics; ++k) {
            const int nic = (to.nic + k) % nics;
            const auto* sink = portCable({to.server, nic}, port);
            const int hops = sink ? m_routing->hops(source.switchNode, sink->switchNode) : -1;
            if (hops >= 0)
                return {sink, hops, nic, to.server.value};
        }
    }
    return {};
}

void FabricNetwork::appendPort(Endpoint from, const routing::FabricStructure::Cable& source,
                               const Sink& sink, double fraction, std::uint64_t flowKey,
                               Route& route, int share) const {
    const std::size_t first = route.elements.size();
    route.elements.push_back({source.up, 1.0});
    route.wireMeters = std::max(route.wireMeters, source.meters + sink.cable->meters);
    route.switchHops = std::max(route.switchHops, sink.hops + 1);

    if (source.switchNode != sink.cable->switchNode) {
        const auto key =
            mix(m_seed ^ mix(from.server.value * 131ULL + static_cast<std::uint64_t>(from.nic)) ^
                mix((sink.server * 131ULL + static_cast<std::uint64_t>(sink.nic)) << 1) ^
                mix(flowKey << 2) ^ static_cast<std::uint64_t>(share));
        m_routing->appendMiddle(source.switchNode, sink.cable->switchNode, key, route);
    }
    route.elements.push_back({sink.cable->down, 1.0});
    if (fraction != 1.0)
        for (std::size_t i = first; i < route.elements.size(); ++i)
            route.elements[i].fraction *= fraction;
}

void FabricNetwork::expectFlows(std::span<const std::pair<Endpoint, Endpoint>> flows) const {
    if (!m_routing->weighsPatterns())
        return;
    std::vector<routing::ExpectedFlow> expected;
    expected.reserve(flows.size());
    for (const auto& [from, to] : flows) {
        if (from.server == to.server)
            continue;
        // Where routeInto sends each port's share.
        for (int port = 0; port < portCount(from.server); ++port)
            if (const auto* source = portCable(from, port))
                if (const Sink sink = findSink(to, *source, port % portCount(to.server));
                    sink.cable)
                    expected.push_back(
                        {source->switchNode, sink.cable->switchNode, m_s->capacity[source->up]});
    }
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
