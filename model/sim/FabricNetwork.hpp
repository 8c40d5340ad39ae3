// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/topology/Topology.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace fabriclab::sim {

/// A NIC of a server: where a flow starts or ends.
struct Endpoint {
    model::NodeId server;
    int nic = 0;
    friend bool operator==(const Endpoint&, const Endpoint&) = default;
};

/// A flow's use of one channel: `fraction` of its rate passes through it.
struct PathElement {
    std::uint32_t channel;
    double fraction;
};

/// A route: the channels a flow loads and what it pays before its first byte arrives.
struct Route {
    std::vector<PathElement> elements;
    int switchHops = 0;    ///< switches crossed
    double wireMeters = 0; ///< cable length along the route
};

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
/// Routing follows equal-cost shortest paths between the endpoints' switches (servers
/// never forward), which is up/down routing on leaf/spine and fat-tree fabrics.
///
/// Threads: a network is two parts. Its structure (channels, cables, groups, twins) is
/// built once by the constructor and never changes; copies share it read-only. Its route
/// caches (distances, next hops, adaptive spreads) fill lazily as it routes, and belong
/// to the one object: a copy gets its own. So each thread routes on its own copy, at the
/// price of its caches alone, without locks: runDesign() builds one network and hands
/// its threads copies, and the effective bisection's second thread does the same. The
/// topology it points to must outlive every copy and stay unchanged.
class FabricNetwork {
public:
    /// Whether adaptive routing may stand a group of cables it loads evenly for one
    /// channel (the default), or keeps every cable its own channel: the same rates,
    /// slower; tests hold the two against each other.
    enum class Grouping { Groups, PerCable };

    FabricNetwork(const model::Topology& topology, const model::Fabric& fabric,
                  std::uint64_t ecmpSeed = 0, Grouping grouping = Grouping::Groups);

    const model::Topology& topology() const { return *m_s->topology; }
    const model::Fabric& fabric() const { return m_s->fabric; }
    bool adaptive() const { return m_s->fabric.routing == model::Routing::Adaptive; }
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
    bool isServerChannel(std::uint32_t channel) const { return m_s->channelIsServer[channel] != 0; }
    /// The channels carrying a switch-to-switch link's traffic away from switch `from`
    /// (one per cable under static ECMP, one for the bundle otherwise); empty when `from`
    /// is not a switch end of the link.
    std::vector<std::uint32_t> channelsLeaving(model::NodeId from, model::LinkId link) const;
    /// Switches that route from a twin's tables and spreads (see findTwins): how much of
    /// the fabric's regularity the router found.
    std::size_t twinnedSwitches() const;

    /// Servers in topology order, and how many NICs (cables) each has.
    const std::vector<model::NodeId>& servers() const { return m_s->servers; }
    int nicCount(model::NodeId server) const;
    /// Goodput of one NIC.
    model::Gbps nicGoodput(Endpoint endpoint) const;
    /// Channel carrying the NIC's traffic into the fabric, and out of it.
    std::uint32_t nicUp(Endpoint endpoint) const;
    std::uint32_t nicDown(Endpoint endpoint) const;

    /// Whether a switch path joins the two NICs (false across rail planes, whose spines
    /// serve separate groups of rails).
    bool reaches(Endpoint from, Endpoint to) const;

    /// Route from one NIC to another. `flowKey` picks the ECMP member (hash of the
    /// endpoints, the key and the seed), so a run is reproducible and reseedable. Where no
    /// switch path joins them (rail planes, with a failure shifting one server's NICs), the
    /// destination server takes the data on its first NIC from `to` on that the source
    /// reaches, and forwards it over NVLink, as NCCL's PXN does. Throws
    /// std::invalid_argument when no NIC of the destination can be reached.
    Route route(Endpoint from, Endpoint to, std::uint64_t flowKey) const;
    /// The same route, appended to `elements` (cleared first) without allocating: for
    /// callers routing many flows. Returns switch hops and metres through `route`.
    void routeInto(Endpoint from, Endpoint to, std::uint64_t flowKey, Route& route) const;

    /// Start-up latency of a transfer on a route: NIC on both sides, each switch, wire.
    model::Seconds latency(const Route& route) const;

private:
    struct Cable {
        model::LinkId link;
        int member = 0;
        std::uint32_t switchNode = 0; ///< index of the switch the NIC cable lands on
        std::uint32_t up = 0;         ///< channel server -> switch
        std::uint32_t down = 0;       ///< channel switch -> server
        double meters = 0;
    };
    struct Hop {
        std::uint32_t to;       ///< node index
        std::uint32_t channel0; ///< first channel of this direction
        int members;            ///< cables in the bundle
        int channels;           ///< 1 (bundle) or members
        double meters;
        std::uint32_t index = 0; ///< position in its switch's own hop list
    };

    /// The equal-cost next hops from a switch toward a target switch, in the switch's
    /// own hop order (so ECMP picks stay what they were), with their total cables.
    /// Interned: in a Clos, every leaf offers the same uplinks toward most targets.
    struct Choice {
        std::uint32_t first = 0;       ///< into m_choiceHops
        std::uint32_t count = 0;       ///< hops
        std::uint32_t members = 0;     ///< cables over all hops
        std::uint32_t membersEach = 0; ///< cables per hop when all hops have the same, else 0
    };

    /// What routing reads and never changes: the channels, the switches' cables, the
    /// groups and the twins. Built once by the constructor and shared, read-only, by
    /// every copy of the network, so another thread's copy costs its route caches alone.
    struct Structure {
        const model::Topology* topology = nullptr;
        model::Fabric fabric;
        std::vector<double> capacity;
        std::vector<model::LinkId> channelLink;
        std::vector<char> channelIsServer;
        bool equalCostChoice = false;                       ///< see hasEqualCostChoice
        std::size_t linkChannels = 0;                       ///< channels before the groups
        std::vector<std::vector<model::LinkId>> groupLinks; ///< per group channel
        std::map<model::NodeId, std::uint32_t> index;
        std::vector<std::vector<Hop>> switchHops; ///< per node index, switch neighbours only
        std::vector<std::uint32_t> hopBase;       ///< per node: number of its first hop
        std::vector<model::NodeId> servers;
        /// NIC cables per server, indexed by NodeId value (ids are dense): routing a million
        /// flows looks these up a million times.
        std::vector<std::vector<Cable>> nics;
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
    std::shared_ptr<const Structure> m_s;
    std::uint64_t m_seed;

    const Cable& cable(Endpoint endpoint) const;
    const Choice& choiceToward(std::uint32_t node, std::uint32_t target) const;
    /// Hops from every node to a representative switch (findTwins), by breadth-first
    /// search; hops fit 16 bits. -1: unreachable.
    using Distances = std::vector<std::int16_t>;
    const Distances& distancesTo(std::uint32_t representative) const;
    /// Hops from `node` to any switch `target`, read from the representative's table.
    int hops(std::uint32_t node, std::uint32_t target) const;
    /// Appends the channels between two switches, and their cable length, to a route.
    /// Adaptive spreads are cached per switch pair (flows share them); ECMP picks depend
    /// on the flow's key.
    void appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t key, Route& route) const;
    std::vector<PathElement> spread(std::uint32_t from, std::uint32_t to, double& meters) const;
    /// Whether the switches above `node` are interchangeable, so its uplink group can be
    /// one channel without over-counting any cable.
    static bool symmetricAbove(const Structure& s, std::uint32_t node);
    /// Adds the peer-group channels (see m_s->peerUp) after the switch group channels.
    static void addPeerGroups(Structure& s);
    /// Fills m_s->twinOf (see there).
    static void findTwins(Structure& s);

    /// An element of a representatives' spread that is one end's own channel: a twin
    /// end puts its channel of the same slot there.
    struct Patch {
        std::uint32_t position;
        std::uint32_t slot;
        bool toSide; ///< the destination end's (else the source end's)
    };
    struct Middle {
        std::vector<PathElement> elements;
        double meters = 0;
        std::vector<Patch> patches;
    };
    std::vector<Patch> patchesFor(const std::vector<PathElement>& elements, std::uint32_t a,
                                  std::uint32_t b) const;
    mutable std::vector<Distances> m_distances; ///< per representative, filled lazily
    mutable std::unordered_map<std::uint64_t, Middle> m_middles;
    // Static ECMP's next-hop choices, per target node index then node index, filled
    // lazily: routing a million flows then costs a table look-up per hop, not a scan of
    // a spine's hundreds of links.
    mutable std::vector<std::vector<std::uint32_t>> m_choiceTo;
    /// The same for the switches next to a twin target (further ones use its
    /// representative's): per target, (node, choice) sorted by node.
    mutable std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> m_nearChoice;
    /// The entry of m_nearChoice for a switch near a twin target, made unknown if new.
    std::uint32_t& nearChoice(std::uint32_t node, std::uint32_t target) const;
    mutable std::vector<Choice> m_choices;
    mutable std::vector<Hop> m_choiceHops;
    mutable std::unordered_map<std::uint64_t, std::uint32_t> m_choiceByHash;
    mutable std::vector<std::uint32_t> m_candidates; ///< scratch for choiceToward
    /// A hop a spread flow loads, and with what fraction of its rate.
    struct Use {
        std::uint32_t from;
        std::uint32_t hop; ///< index into m_s->switchHops[from]
        double fraction;
    };
    /// Dense scratch for spread(), all zero (load and groups: -1, meaning unused) between
    /// calls; the vectors keep their capacity so a call allocates only its result.
    struct SpreadScratch {
        std::vector<double> reached;         ///< per node: fraction arriving at the next level
        std::vector<double> load;            ///< per hop (m_s->hopBase numbering): fraction on it
        std::vector<std::uint32_t> upUsed;   ///< per node: its uplinks the flow uses
        std::vector<std::uint32_t> downUsed; ///< per node: links into it from above in use
        std::vector<double> upGroup;         ///< per node: its uplink group's share, 0 when split
        std::vector<double> downGroup;       ///< per node: share of the group into it from above
        std::vector<std::uint32_t> upGroupNodes;   ///< nodes whose upGroup was set
        std::vector<std::uint32_t> downGroupNodes; ///< nodes whose downGroup was set
        std::vector<std::pair<std::uint32_t, std::uint32_t>> peers; ///< (peer channel, node)
        std::vector<Use> uses;
        std::vector<std::uint32_t> frontier;
        std::vector<std::uint32_t> next;
        std::vector<double> fractions;
    };
    mutable SpreadScratch m_spreadScratch;
    // The steps of spread(), over m_spreadScratch.
    /// Spreads a flow from switch `from` to `to` over every equal-cost cable, filling
    /// the scratch's uses and loads.
    void spreadHopByHop(std::uint32_t from, std::uint32_t to, double& meters) const;
    bool isUp(const Use& use) const;
    bool isDown(const Use& use) const;
    /// The flow's share of a switch's uplink group (or of the links into it from above)
    /// when it loads the group evenly, else 0.
    double groupShare(std::uint32_t node, bool up) const;
    void appendSingleCables(std::vector<PathElement>& elements) const;
    void appendGroupChannels(std::vector<PathElement>& elements) const;
    void clearSpreadScratch() const;
    /// A hop of a switch's uplink group, or of the group of links into it from above.
    struct GroupHop {
        std::uint32_t owner; ///< node the hop leaves from
        std::uint32_t index; ///< into m_s->switchHops[owner]
        int members;
    };
    /// Every hop of the group, loaded by a flow or not; per node, filled lazily.
    const std::vector<GroupHop>& groupHops(std::uint32_t node, bool up) const;
    mutable std::vector<std::optional<std::vector<GroupHop>>> m_upGroupHops;
    mutable std::vector<std::optional<std::vector<GroupHop>>> m_downGroupHops;
};

} // namespace fabriclab::sim
