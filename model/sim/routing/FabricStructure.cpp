// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/routing/FabricStructure.hpp"

#include "model/core/Hash.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>
#include <unordered_map>

namespace fabriclab::sim::routing {
namespace {

using model::NodeKind;
using Hop = FabricStructure::Hop;
using Cable = FabricStructure::Cable;
constexpr auto kNone = FabricStructure::kNone;

/// Names each switch's set of neighbours in a tier below it by a number, equal numbers for
/// equal sets, so comparing two switches' sets costs one comparison: a million-GPU plane's
/// leaves each look up at 256 spines of 512 leaves, and sorting those sets leaf by leaf
/// took a seventh of its run.
class PeerSets {
public:
    explicit PeerSets(const FabricStructure& s) : m_s(s) {}
    /// The number of `node`'s neighbours in `tier`, as a set.
    int of(std::uint32_t node, int tier) {
        const auto known = m_ids.find({node, tier});
        if (known != m_ids.end())
            return known->second;
        std::vector<std::uint32_t> peers;
        for (const Hop& down : m_s.switchHops[node])
            if (m_s.tier[down.to] == tier)
                peers.push_back(down.to);
        std::sort(peers.begin(), peers.end());
        const int id =
            m_sets.try_emplace(std::move(peers), static_cast<int>(m_sets.size())).first->second;
        m_ids.emplace(std::pair{node, tier}, id);
        return id;
    }

private:
    const FabricStructure& m_s;
    std::map<std::vector<std::uint32_t>, int> m_sets;
    std::map<std::pair<std::uint32_t, int>, int> m_ids;
};

/// Whether the switches above `u` are interchangeable, so its uplink group can be one
/// channel without over-counting any cable.
bool symmetricAbove(const FabricStructure& s, std::uint32_t u, PeerSets& peerSets) {
    // A group channel is exact only if every flow through u loads u's uplinks in
    // proportion to their cables. That holds when all switches above u look alike from
    // u's tier: the same number of cables from u, and the same neighbours at u's tier,
    // as in every leaf/spine and fat-tree. Drawings that break it keep per-cable channels.
    int reference = -1;
    int cables = -1;
    for (const Hop& hop : s.switchHops[u]) {
        if (s.tier[hop.to] <= s.tier[u])
            continue;
        if (cables >= 0 && hop.members != cables)
            return false;
        cables = hop.members;
        const int peers = peerSets.of(hop.to, s.tier[u]);
        if (reference < 0)
            reference = peers;
        else if (peers != reference)
            return false;
    }
    return true;
}

/// Adds the peer-group channels (see FabricStructure::peerUp) after the switch group
/// channels.
void addPeerGroups(FabricStructure& s) {
    const auto above = [&](std::uint32_t u) {
        std::vector<std::uint32_t> upper;
        for (const Hop& hop : s.switchHops[u])
            if (s.tier[hop.to] > s.tier[u])
                upper.push_back(hop.to);
        std::sort(upper.begin(), upper.end());
        return upper;
    };
    const auto uplinkCables = [&](std::uint32_t u) {
        int cables = 0;
        for (const Hop& hop : s.switchHops[u])
            if (s.tier[hop.to] > s.tier[u])
                cables += hop.members;
        return cables;
    };
    for (std::uint32_t l = 0; l < s.switchHops.size(); ++l) {
        if (s.upGroup[l] == kNone)
            continue; // l spreads unevenly, or has nothing above
        const std::vector<std::uint32_t> peers = above(l);
        if (peers.size() < 2 || s.peerSize[peers.front()] != 0 || s.upGroup[peers.front()] == kNone)
            continue;
        // Every peer has a group of uplinks of its own, all of the same size and speed,
        // and every switch below any peer reaches exactly these peers, evenly (its own
        // uplink group): then a flow climbing past the peers loads each alike.
        bool even = true;
        const int cables = uplinkCables(peers.front());
        const double capacity = s.capacity[s.upGroup[peers.front()]];
        for (const std::uint32_t p : peers) {
            even = even && s.upGroup[p] != kNone && uplinkCables(p) == cables &&
                   s.capacity[s.upGroup[p]] == capacity && s.peerSize[p] == 0;
            for (const Hop& hop : s.switchHops[p])
                if (s.tier[hop.to] < s.tier[p] && hop.to != l)
                    even = even && s.upGroup[hop.to] != kNone && above(hop.to) == peers;
            if (!even)
                break;
        }
        if (!even)
            continue;
        std::vector<model::LinkId> cablesOfGroup;
        double up = 0;
        for (const std::uint32_t p : peers) {
            up += s.capacity[s.upGroup[p]];
            const std::vector<model::LinkId>& links = s.groupLinks[s.upGroup[p] - s.linkChannels];
            cablesOfGroup.insert(cablesOfGroup.end(), links.begin(), links.end());
        }
        s.channelLink.push_back(cablesOfGroup.front());
        s.groupLinks.push_back(std::move(cablesOfGroup));
        s.capacity.push_back(up);
        for (const std::uint32_t p : peers) {
            s.peerUp[p] = static_cast<std::uint32_t>(s.capacity.size() - 1);
            s.peerSize[p] = static_cast<std::uint32_t>(peers.size());
        }
    }
}

/// Fills FabricStructure::twinOf and slots (see there).
void findTwins(FabricStructure& s) {
    // Switches with the same neighbours, in the same order, by the same cables of the same
    // lengths and capacities, in the same tier, are twins: every other switch is as far from
    // one as from the other (a shortest path to either ends through a shared neighbour and
    // never passes the other twin), and a route between two switches is the route between
    // their representatives with the twins' own cables put in. The leaves of a pod or of a
    // rail group are twins, so one search and one spread serve them all. Representatives
    // are found by a hash of their key and then compared whole: a million-GPU fabric's
    // switches have hundreds of cables each, and a sorted map of such keys cost a tenth of
    // its run.
    const std::size_t nodes = s.switchHops.size();
    s.twinOf.resize(nodes);
    using HopKey = std::tuple<std::uint32_t, int, double, double, int>;
    const auto keyOf = [&](std::uint32_t u, std::vector<HopKey>& key) {
        key.clear();
        std::uint64_t hash = model::mix(static_cast<std::uint64_t>(s.tier[u]));
        for (const Hop& hop : s.switchHops[u]) {
            key.emplace_back(hop.to, hop.members, hop.meters, hop.capacity, s.tier[u]);
            hash = model::mix(hash ^ hop.to ^ (static_cast<std::uint64_t>(hop.members) << 32));
            hash = model::mix(hash ^ std::bit_cast<std::uint64_t>(hop.meters));
            hash = model::mix(hash ^ std::bit_cast<std::uint64_t>(hop.capacity));
        }
        return hash;
    };
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> representatives;
    std::vector<HopKey> key;
    std::vector<HopKey> theirs;
    for (std::uint32_t u = 0; u < nodes; ++u) {
        s.twinOf[u] = u;
        if (s.switchHops[u].empty())
            continue;
        std::vector<std::uint32_t>& sameHash = representatives[keyOf(u, key)];
        for (const std::uint32_t r : sameHash) {
            keyOf(r, theirs);
            if (theirs == key) {
                s.twinOf[u] = r;
                break;
            }
        }
        if (s.twinOf[u] == u)
            sameHash.push_back(u);
    }
    // Every twin and representative lists its channels in one order (slots): its cables
    // out, the cables into it, its group channels. Twins' slots correspond one to one, so
    // a representative's route becomes a twin's by changing the slots it uses.
    std::vector<char> represents(nodes, 0);
    for (std::uint32_t u = 0; u < nodes; ++u)
        if (s.twinOf[u] != u)
            represents[s.twinOf[u]] = represents[u] = 1;
    s.slots.assign(nodes, {});
    // Each switch's hops by neighbour, then in its own order: a spine of a million-GPU
    // fabric has hundreds, and every twin looks up the hop back from each of them.
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> byNeighbour(nodes);
    for (std::uint32_t u = 0; u < nodes; ++u) {
        if (!represents[u])
            continue;
        for (const Hop& hop : s.switchHops[u])
            if (byNeighbour[hop.to].empty()) {
                auto& sorted = byNeighbour[hop.to];
                const auto& theirs = s.switchHops[hop.to];
                for (std::uint32_t i = 0; i < theirs.size(); ++i)
                    sorted.emplace_back(theirs[i].to, i);
                std::sort(sorted.begin(), sorted.end());
            }
    }
    const auto hopTo = [&](std::uint32_t from, std::uint32_t to, int occurrence) -> const Hop* {
        const auto& sorted = byNeighbour[from];
        auto it = std::lower_bound(sorted.begin(), sorted.end(), std::pair{to, 0U});
        it += std::min<std::ptrdiff_t>(occurrence, sorted.end() - it);
        return it != sorted.end() && it->first == to ? &s.switchHops[from][it->second] : nullptr;
    };
    for (std::uint32_t u = 0; u < nodes; ++u) {
        if (!represents[u])
            continue;
        auto& slots = s.slots[u];
        for (const Hop& hop : s.switchHops[u])
            for (int c = 0; c < hop.channels; ++c)
                slots.push_back(hop.channel0 + static_cast<std::uint32_t>(c));
        std::map<std::uint32_t, int> seen;
        for (const Hop& hop : s.switchHops[u]) {
            const Hop* into = hopTo(hop.to, u, seen[hop.to]++);
            for (int c = 0; into && c < into->channels; ++c)
                slots.push_back(into->channel0 + static_cast<std::uint32_t>(c));
        }
        for (const auto* groups : {&s.upGroup, &s.downGroup, &s.peerUp})
            slots.push_back(groups->size() == nodes ? (*groups)[u] : kNone);
    }
}

/// Numbers the nodes, lists the servers and gives every node its tier.
void indexNodes(FabricStructure& s, const model::Topology& topology) {
    for (const auto& [id, node] : topology.nodes()) {
        s.index.emplace(id, static_cast<std::uint32_t>(s.index.size()));
        if (node.kind == NodeKind::Server) {
            s.servers.push_back(id);
            if (s.portsPerNic.size() <= id.value)
                s.portsPerNic.resize(id.value + 1, 1);
            s.portsPerNic[id.value] = std::max(1, node.server.portsPerNic);
        }
    }
    s.switchHops.resize(s.index.size());
    s.tier.resize(s.index.size());
    for (const auto& [id, node] : topology.nodes())
        s.tier[s.index.at(id)] = static_cast<int>(node.kind == NodeKind::Server  ? 0
                                                  : node.kind == NodeKind::Leaf  ? 1
                                                  : node.kind == NodeKind::Spine ? 2
                                                                                 : 3);
}

/// A channel per NIC cable and direction; a channel per switch cable and direction, or one
/// per bundle and direction when the layout asks for it.
void addLinkChannels(FabricStructure& s, const model::Topology& topology) {
    const ChannelLayout layout = s.layout;
    const double goodput = s.fabric.goodputShare();

    const auto addChannel = [&](model::LinkId link, double gbps) {
        s.capacity.push_back(gbps * goodput);
        s.channelLink.push_back(link);
        return static_cast<std::uint32_t>(s.capacity.size() - 1);
    };

    for (const auto& [linkId, link] : topology.links()) {
        const auto& a = topology.node(link.a);
        const auto& b = topology.node(link.b);
        const bool aServer = a.kind == NodeKind::Server;
        const bool bServer = b.kind == NodeKind::Server;
        if (aServer && bServer)
            continue; // refused on load; never routed
        if (aServer || bServer) {
            const model::NodeId server = aServer ? link.a : link.b;
            const model::NodeId sw = aServer ? link.b : link.a;
            for (int m = 0; m < link.count; ++m) {
                Cable cable{linkId, m, s.index.at(sw), 0, 0, link.lengthMeters};
                const double perCable = topology.usableCapacity(link).value / link.count;
                cable.up = addChannel(linkId, perCable);
                cable.down = addChannel(linkId, perCable);
                if (s.nics.size() <= server.value)
                    s.nics.resize(server.value + 1);
                s.nics[server.value].push_back(cable);
            }
            continue;
        }
        const int perDirection = layout.bundleIsOneChannel ? 1 : link.count;
        const double usable = topology.usableCapacity(link).value;
        const double gbps = layout.bundleIsOneChannel ? usable : usable / link.count;
        const std::uint32_t forward = static_cast<std::uint32_t>(s.capacity.size());
        for (int c = 0; c < perDirection; ++c)
            addChannel(linkId, gbps);
        const std::uint32_t backward = static_cast<std::uint32_t>(s.capacity.size());
        for (int c = 0; c < perDirection; ++c)
            addChannel(linkId, gbps);
        const std::uint32_t ia = s.index.at(link.a);
        const std::uint32_t ib = s.index.at(link.b);
        s.switchHops[ia].push_back(Hop{ib, forward, link.count, perDirection, link.lengthMeters,
                                       static_cast<std::uint32_t>(s.switchHops[ia].size()),
                                       usable * goodput});
        s.switchHops[ib].push_back(Hop{ia, backward, link.count, perDirection, link.lengthMeters,
                                       static_cast<std::uint32_t>(s.switchHops[ib].size()),
                                       usable * goodput});
    }
}

/// Sets FabricStructure::equalCostChoice.
void noteEqualCostChoice(FabricStructure& s) {
    // A hash has something to choose where a switch offers two or more cables onward: a
    // bundle of several, or cables to two or more switches of its own tier or above (the
    // uplinks of a Clos). Down a tree every switch has one way to each target.
    for (std::uint32_t u = 0; u < s.switchHops.size() && !s.equalCostChoice; ++u) {
        int onward = 0;
        for (const Hop& hop : s.switchHops[u]) {
            if (hop.members > 1)
                s.equalCostChoice = true;
            if (s.tier[hop.to] >= s.tier[u])
                onward += hop.members;
        }
        s.equalCostChoice = s.equalCostChoice || onward > 1;
    }
}

/// A channel for each switch's uplinks and one for the links into it from above, where the
/// switches above it are interchangeable; then the peer groups.
void addGroupChannels(FabricStructure& s) {
    PeerSets peerSets(s);
    for (std::uint32_t u = 0; u < s.switchHops.size(); ++u) {
        if (!symmetricAbove(s, u, peerSets))
            continue; // irregular drawing: every cable stays its own channel
        double up = 0;
        double fromAbove = 0;
        for (const Hop& hop : s.switchHops[u])
            if (s.tier[hop.to] > s.tier[u]) {
                up += s.capacity[hop.channel0];
                fromAbove += s.capacity[hop.channel0]; // links are symmetric in capacity
            }
        if (up > 0) {
            // Both group channels stand for the same cables: u's uplinks.
            std::vector<model::LinkId> cables;
            for (const Hop& hop : s.switchHops[u])
                if (s.tier[hop.to] > s.tier[u])
                    cables.push_back(s.channelLink[hop.channel0]);
            s.groupLinks.push_back(cables);
            s.groupLinks.push_back(std::move(cables));
            s.capacity.push_back(up);
            s.channelLink.push_back(s.channelLink[s.switchHops[u].front().channel0]);
            s.upGroup[u] = static_cast<std::uint32_t>(s.capacity.size() - 1);
            s.capacity.push_back(fromAbove);
            s.channelLink.push_back(s.channelLink[s.switchHops[u].front().channel0]);
            s.downGroup[u] = static_cast<std::uint32_t>(s.capacity.size() - 1);
        }
    }
    addPeerGroups(s);
}

/// The capacity of the first bundle seen between each pair of tiers (either way round),
/// to tell whether a later one differs.
class BundleCapacities {
public:
    bool differ(int tierA, int tierB, double capacity) {
        const auto [first, added] = m_first.try_emplace(std::minmax(tierA, tierB), capacity);
        return !added && first->second != capacity;
    }

private:
    std::map<std::pair<int, int>, double> m_first;
};

/// hasUnevenBundles, from the structure's own hops: the topology's maps cost a million-GPU
/// fabric a second a network.
bool hopsHaveUnevenBundles(const FabricStructure& s) {
    BundleCapacities bundles;
    for (std::uint32_t u = 0; u < s.switchHops.size(); ++u)
        for (const Hop& hop : s.switchHops[u])
            if (bundles.differ(s.tier[u], s.tier[hop.to], hop.capacity))
                return true;
    return false;
}

/// Per node index, a number shared by the switches that switch paths join (a plane); -1 for
/// servers.
std::vector<int> switchParts(const FabricStructure& s) {
    std::vector<int> part(s.switchHops.size(), -1);
    int parts = 0;
    std::vector<std::uint32_t> stack;
    for (std::uint32_t start = 0; start < s.switchHops.size(); ++start) {
        if (part[start] >= 0 || s.tier[start] == 0)
            continue;
        part[start] = parts;
        stack.assign(1, start);
        while (!stack.empty()) {
            const std::uint32_t u = stack.back();
            stack.pop_back();
            for (const FabricStructure::Hop& hop : s.switchHops[u])
                if (part[hop.to] < 0) {
                    part[hop.to] = parts;
                    stack.push_back(hop.to);
                }
        }
        ++parts;
    }
    return part;
}

/// Finds each multiplane server's NIC ports (FabricStructure::portSlots). A cable's plane is
/// the Placement::plane of the switch it lands on; in a drawing without planes, the rank of
/// the separate part of the switches it reaches among all the parts multiplane servers reach,
/// when they reach exactly P; else its place in the server's cable list, plane by plane
/// (port p of NIC i is cable p x nics + i).
/// Within a plane a cable is keyed by its
/// switch's rail and its turn among the server's cables to that rail in that plane, and
/// NIC i is the i-th key of all planes together: so when a failure takes a plane's cable,
/// the NIC keeps its number by its cables in the other planes, and only that slot empties.
void assignPorts(FabricStructure& s, const model::Topology& topology) {
    s.portSlots.resize(s.nics.size());
    s.nicsOf.assign(s.nics.size(), 0);
    const auto multiplane = [&](model::NodeId server) {
        return server.value < s.nics.size() && s.portsPerNic[server.value] > 1;
    };
    if (std::none_of(s.servers.begin(), s.servers.end(), multiplane))
        return;
    // The separate parts of the switches that multiplane servers reach, numbered alike for
    // every server (in node order), so port p means the same plane on both ends of a flow.
    const std::vector<int> parts = switchParts(s);
    std::vector<int> reached;
    for (const model::NodeId server : s.servers)
        if (multiplane(server))
            for (const Cable& cable : s.nics[server.value])
                reached.push_back(parts[cable.switchNode]);
    std::sort(reached.begin(), reached.end());
    reached.erase(std::unique(reached.begin(), reached.end()), reached.end());

    for (const model::NodeId server : s.servers) {
        if (!multiplane(server))
            continue;
        const int ports = s.portsPerNic[server.value];
        const int declared = std::max(1, topology.node(server).server.nics);
        const auto& cables = s.nics[server.value];
        const int count = static_cast<int>(cables.size());
        const bool byPart = static_cast<int>(reached.size()) == ports;
        std::vector<int> planeOf(cables.size());
        std::vector<std::pair<int, int>> keyOf(cables.size());
        std::map<std::pair<int, int>, int> turns; // (plane, rail) -> cables so far
        for (int k = 0; k < count; ++k) {
            const Cable& cable = cables[static_cast<std::size_t>(k)];
            const model::Link& link = topology.link(cable.link);
            const model::Node& sw = topology.node(link.a == server ? link.b : link.a);
            int plane = sw.placement.plane;
            if ((plane < 0 || plane >= ports) && byPart)
                plane = static_cast<int>(
                    std::lower_bound(reached.begin(), reached.end(), parts[cable.switchNode]) -
                    reached.begin());
            if (plane < 0 || plane >= ports)
                plane = std::min(k / declared, ports - 1); // plane by plane, as drawn
            planeOf[static_cast<std::size_t>(k)] = plane;
            const int rail = sw.placement.rail;
            keyOf[static_cast<std::size_t>(k)] = {rail, turns[{plane, rail}]++};
        }
        std::vector<std::pair<int, int>> keys = keyOf;
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        const int nics = static_cast<int>(keys.size());
        auto& slots = s.portSlots[server.value];
        slots.assign(static_cast<std::size_t>(ports * nics), -1);
        for (int k = 0; k < count; ++k) {
            const auto nic =
                std::lower_bound(keys.begin(), keys.end(), keyOf[static_cast<std::size_t>(k)]) -
                keys.begin();
            slots[static_cast<std::size_t>(planeOf[static_cast<std::size_t>(k)] * nics + nic)] = k;
        }
        s.nicsOf[server.value] = nics;
    }
}

} // namespace

bool hasUnevenBundles(const model::Topology& topology) {
    BundleCapacities bundles;
    for (const auto& [id, link] : topology.links()) {
        const NodeKind a = topology.node(link.a).kind;
        const NodeKind b = topology.node(link.b).kind;
        if (a != NodeKind::Server && b != NodeKind::Server &&
            bundles.differ(static_cast<int>(a), static_cast<int>(b),
                           topology.usableCapacity(link).value))
            return true;
    }
    return false;
}

std::shared_ptr<const FabricStructure> FabricStructure::build(const model::Topology& topology,
                                                              const model::Fabric& fabric,
                                                              ChannelLayout layout) {
    const auto built = std::make_shared<FabricStructure>();
    FabricStructure& s = *built;
    s.topology = &topology;
    s.fabric = fabric;
    s.layout = layout;
    indexNodes(s, topology);
    addLinkChannels(s, topology);
    assignPorts(s, topology);
    noteEqualCostChoice(s);
    s.unevenBundles = hopsHaveUnevenBundles(s);
    s.linkChannels = s.capacity.size();
    s.upGroup.assign(s.index.size(), kNone);
    s.downGroup.assign(s.index.size(), kNone);
    s.peerUp.assign(s.index.size(), kNone);
    s.peerSize.assign(s.index.size(), 0);
    if (layout.groupChannels)
        addGroupChannels(s);
    findTwins(s);
    s.hopBase.assign(s.switchHops.size() + 1, 0);
    for (std::size_t u = 0; u < s.switchHops.size(); ++u)
        s.hopBase[u + 1] = s.hopBase[u] + static_cast<std::uint32_t>(s.switchHops[u].size());
    return built;
}

} // namespace fabriclab::sim::routing
