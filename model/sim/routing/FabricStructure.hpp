// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/topology/Topology.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <vector>

namespace fabriclab::sim::routing {

/// How a routing policy wants the cables cut into channels (the solver's resources).
struct ChannelLayout {
    /// A parallel bundle between two switches is one channel (traffic sprayed evenly over
    /// its members), else a channel per cable (a flow hashes onto one member).
    bool bundleIsOneChannel = false;
    /// A channel per switch for all its uplinks and one for all the links into it from
    /// above, plus peer-group channels, where flows load such a group evenly.
    bool groupChannels = false;
};

/// Whether two switch-to-switch bundles between the same two tiers carry different
/// capacities: a degraded cable, a lost cable of a bundle, mixed speeds.
bool hasUnevenBundles(const model::Topology& topology);

/// What every routing policy reads and none changes: the channels, the switches' cables,
/// the NICs, the group channels and the twins. Built once per network and shared,
/// read-only, by every copy of it, so another thread's copy costs its route caches alone.
/// The topology it points to must outlive it and stay unchanged.
struct FabricStructure {
    static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

    /// A server's NIC cable, one direction each way.
    struct Cable {
        model::LinkId link;
        int member = 0;
        std::uint32_t switchNode = 0; ///< index of the switch the NIC cable lands on
        std::uint32_t up = 0;         ///< channel server -> switch
        std::uint32_t down = 0;       ///< channel switch -> server
        double meters = 0;
    };
    /// A switch's link to another switch, in one direction.
    struct Hop {
        std::uint32_t to;       ///< node index
        std::uint32_t channel0; ///< first channel of this direction
        int members;            ///< cables in the bundle
        int channels;           ///< 1 (bundle) or members
        double meters;
        std::uint32_t index = 0; ///< position in its switch's own hop list
        double capacity = 0;     ///< Gb/s of the whole bundle, less what failures take
    };

    static std::shared_ptr<const FabricStructure>
    build(const model::Topology& topology, const model::Fabric& fabric, ChannelLayout layout);

    const model::Topology* topology = nullptr;
    model::Fabric fabric;
    ChannelLayout layout;
    std::vector<double> capacity; ///< per channel, Gb/s of goodput
    std::vector<model::LinkId> channelLink;
    /// Whether routing ever has more than one cable to put a flow on (see
    /// FabricNetwork::hasEqualCostChoice).
    bool equalCostChoice = false;
    /// hasUnevenBundles of the topology: only then can what a next hop delivers differ
    /// from its share of the cables (SpreadRouting weighs by it).
    bool unevenBundles = false;
    std::size_t linkChannels = 0;                       ///< channels before the groups
    std::vector<std::vector<model::LinkId>> groupLinks; ///< per group channel
    std::map<model::NodeId, std::uint32_t> index;
    std::vector<std::vector<Hop>> switchHops; ///< per node index, switch neighbours only
    std::vector<std::uint32_t> hopBase;       ///< per node: number of its first hop
    std::vector<model::NodeId> servers;
    /// NIC cables per server, indexed by NodeId value (ids are dense): routing a million
    /// flows looks these up a million times.
    std::vector<std::vector<Cable>> nics;
    /// Ports of each NIC per server, indexed like `nics` (ServerProps::portsPerNic): a NIC
    /// of a multiplane server is that many of its cables, one per plane.
    std::vector<int> portsPerNic;
    /// For a multiplane server, indexed like `nics`: slot p x nicsOf + i holds the position
    /// in its `nics` of NIC i's port-p cable, or -1 where a failure took that cable; empty
    /// for the others, whose NIC i is cable i.
    std::vector<std::vector<std::int32_t>> portSlots;
    std::vector<int> nicsOf;              ///< a multiplane server's NICs (slots per plane)
    std::vector<int> tier;                ///< 0 server, 1 leaf, 2 spine, 3 core
    std::vector<std::uint32_t> upGroup;   ///< per node: channel of all its uplinks
    std::vector<std::uint32_t> downGroup; ///< per node: channel of all links from above
    // Peer groups: switches that every switch below them reaches alike, with equal
    // cables (the spines of a pod). A flow climbing past one climbs past all of them
    // evenly, so their uplinks together are one channel: a cross-pod route in a
    // 16K-GPU fat-tree loads 35 channels instead of 66. (Flows descending into the
    // peers are even only if every other pod is built alike, which no local check
    // shows: the links into them from above stay a channel per switch; the effective
    // bisection drops the repeats per draw, RepeatedConstraints.hpp.)
    std::vector<std::uint32_t> peerUp;   ///< per node: channel of its peer group's uplinks
    std::vector<std::uint32_t> peerSize; ///< per node: switches in its peer group, 0 if none
    /// Per switch, the first switch with the same neighbours by the same cables (itself
    /// when none came before): distances to a twin come from its representative's.
    std::vector<std::uint32_t> twinOf;
    /// Per twin and representative: its channels in slot order (cables out, cables in,
    /// group channels); empty for switches without twins.
    std::vector<std::vector<std::uint32_t>> slots;
};

} // namespace fabriclab::sim::routing
