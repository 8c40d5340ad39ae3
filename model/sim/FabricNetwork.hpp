// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/sim/Route.hpp"
#include "model/sim/routing/FabricStructure.hpp"
#include "model/sim/routing/RoutingPolicy.hpp"
#include "model/topology/Topology.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace fabriclab::sim {

/// The topology as the simulator sees it: every direction of every cable is a channel
/// with a capacity in Gb/s of goodput (line rate x the fabric's line efficiency x
/// (1 - protocol overhead)), and routes map endpoints onto channels.
///
/// Server cables are always one channel per cable and direction, since a NIC is one
/// cable. Switch-to-switch cables are one channel each under static ECMP, where a flow
/// hashes onto a single member; under adaptive routing a parallel bundle is one channel,
/// since traffic is sprayed evenly over its members. Adaptive routing also gets one
/// channel per switch for all its uplinks and one for all the links into it from the
/// tier above: when a flow spreads over a whole group in proportion to its cables (as
/// it does on every leaf/spine and fat-tree FabricLab generates) the group is one
/// resource, and a route is a handful of channels instead of hundreds.
///
/// Routing is a policy chosen by the fabric's routing (routing/RoutingPolicies.hpp): static
/// ECMP, or a spread (adaptive or sprayed), all along equal-cost shortest paths between the
/// endpoints' switches (servers never forward), which is up/down routing on leaf/spine and fat-tree
/// fabrics. The network lays the NICs at both ends; the policy routes between switches.
///
/// Threads: a network is two parts. Its structure (channels, cables, groups, twins) is
/// built once by the constructor and never changes; copies share it read-only. Its
/// policy's route caches (distances, next hops, adaptive spreads) fill lazily as it
/// routes, and belong to the one object: a copy gets its own. So each thread routes on its
/// own copy, at the price of its caches alone, without locks: runDesign() builds one
/// network and hands its threads copies, and the effective bisection's second thread does
/// the same. The topology it points to must outlive every copy and stay unchanged.
class FabricNetwork {
public:
    /// Whether adaptive routing may stand a group of cables it loads evenly for one
    /// channel (the default), or keeps every cable its own channel: the same rates,
    /// slower; tests hold the two against each other.
    enum class Grouping { Groups, PerCable };

    FabricNetwork(const model::Topology& topology, const model::Fabric& fabric,
                  std::uint64_t ecmpSeed = 0, Grouping grouping = Grouping::Groups);
    FabricNetwork(const FabricNetwork& other);
    FabricNetwork& operator=(const FabricNetwork& other);
    FabricNetwork(FabricNetwork&&) noexcept = default;
    FabricNetwork& operator=(FabricNetwork&&) noexcept = default;
    ~FabricNetwork();

    const model::Topology& topology() const { return *m_s->topology; }
    const model::Fabric& fabric() const { return m_s->fabric; }
    /// Whether a flow spreads over every equal-cost path (adaptive routing, spraying)
    /// rather than hashing onto one (static ECMP).
    bool spreadsFlows() const {
        return m_s->fabric.routing == model::Routing::Adaptive ||
               m_s->fabric.routing == model::Routing::Spray;
    }
    /// Whether routing ever has more than one cable to put a flow on: a bundle of several
    /// cables between two switches, or a switch with cables to two or more switches of its
    /// own tier or above. False for a single switch (or a tree of single cables), where
    /// every flow has one path, so ECMP hash keys cannot change any rate.
    bool hasEqualCostChoice() const { return m_s->equalCostChoice; }

    std::size_t channelCount() const { return m_s->capacity.size(); }
    double capacityGbps(std::uint32_t channel) const { return m_s->capacity[channel]; }
    /// The link a channel belongs to (for a group channel, one of its links).
    model::LinkId linkOf(std::uint32_t channel) const { return m_s->channelLink[channel]; }
    /// Every link whose cables a channel stands for: one for a cable or bundle, all of a
    /// switch's uplinks for an adaptive group channel (which load them evenly).
    std::span<const model::LinkId> linksOf(std::uint32_t channel) const;
    /// Channels below this number are cables or bundles, one direction each; those from
    /// it up are adaptive group channels over cables already counted.
    std::size_t linkChannelCount() const { return m_s->linkChannels; }
    /// The channels carrying a switch-to-switch link's traffic away from switch `from`
    /// (one per cable under static ECMP, one for the bundle otherwise); empty when `from`
    /// is not a switch end of the link.
    std::vector<std::uint32_t> channelsLeaving(model::NodeId from, model::LinkId link) const;
    /// Switches that route from a twin's tables and spreads (FabricStructure::twinOf): how much of
    /// the fabric's regularity the router found.
    std::size_t twinnedSwitches() const;

    /// Servers in topology order, and how many NICs each has: its cables, or its cables
    /// over its ports per NIC on a multiplane server.
    const std::vector<model::NodeId>& servers() const { return m_s->servers; }
    int nicCount(model::NodeId server) const;
    /// Ports of each of the server's NICs, each in its own plane (1 but for multiplane NICs).
    int portCount(model::NodeId server) const;
    /// Goodput of one NIC, all its ports together.
    model::Gbps nicGoodput(Endpoint endpoint) const;
    /// Channels carrying the NIC's traffic out of the fabric, to the server: one per port
    /// cabled (one but on a multiplane server).
    std::vector<std::uint32_t> nicDowns(Endpoint endpoint) const;

    /// Whether a switch path joins the two NICs (false across rail planes, whose spines
    /// serve separate groups of rails).
    bool reaches(Endpoint from, Endpoint to) const;

    /// Route from one NIC to another; from a multiplane NIC, 1/P of the flow on each port's
    /// plane to the destination NIC's port in the same plane. `flowKey` picks the ECMP member (hash
    /// of the endpoints, the key and the seed), so a run is reproducible and reseedable. Where no
    /// switch path joins them (rail planes, with a failure shifting one server's NICs), the
    /// destination server takes the data on its first NIC from `to` on that the source
    /// reaches, and forwards it over NVLink, as NCCL's PXN does. Throws
    /// std::invalid_argument when no NIC of the destination can be reached.
    Route route(Endpoint from, Endpoint to, std::uint64_t flowKey) const;
    /// The same route, appended to `elements` (cleared first) without allocating: for
    /// callers routing many flows. Returns switch hops and metres through `route`.
    void routeInto(Endpoint from, Endpoint to, std::uint64_t flowKey, Route& route) const;

    /// Whether the routing chooses paths from a whole pattern (UGAL on a dragonfly), so a
    /// caller about to route one should first list its flows to expectFlows.
    bool weighsPatterns() const { return m_routing->weighsPatterns(); }
    /// The pattern about to be routed, as pairs of NICs, for a routing that weighs whole
    /// patterns; nothing for the others. A pattern routed again needs no second call.
    void expectFlows(std::span<const std::pair<Endpoint, Endpoint>> flows) const;

    /// Start-up latency of a transfer on a route: NIC on both sides, each switch, wire.
    model::Seconds latency(const Route& route) const;

private:
    /// The NIC's cable on `port`; nullptr for no such NIC or port, or a port a failure took.
    const routing::FabricStructure::Cable* portCable(Endpoint endpoint, int port) const;
    /// The NIC's first cabled port; throws std::invalid_argument naming a missing NIC.
    const routing::FabricStructure::Cable& cable(Endpoint endpoint) const;
    /// Where a flow leaving on `source` lands at `to`: NIC to.nic's cable on `toPort`, else
    /// the first NIC after it (PXN), else the first other port, that the source reaches;
    /// no cable when none does. Throws std::invalid_argument for a NIC `to` lacks.
    struct Sink {
        const routing::FabricStructure::Cable* cable = nullptr;
        int hops = -1;            ///< switch hops between the two cables' switches
        int nic = 0;              ///< the destination NIC it lands on
        std::uint32_t server = 0; ///< the destination server's id
    };
    Sink findSink(Endpoint to, const routing::FabricStructure::Cable& source, int toPort) const;
    std::invalid_argument noPath(Endpoint from, Endpoint to) const;
    /// Appends one share of a route: `fraction` of the flow from `source` to `sink`, its
    /// ECMP key told apart from the flow's other shares by `share`.
    void appendPort(Endpoint from, const routing::FabricStructure::Cable& source, const Sink& sink,
                    double fraction, std::uint64_t flowKey, Route& route, int share) const;

    std::shared_ptr<const routing::FabricStructure> m_s;
    std::unique_ptr<routing::RoutingPolicy> m_routing;
    std::uint64_t m_seed;
};

} // namespace fabriclab::sim
