// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/FabricNetwork.hpp"

#include "model/core/Hash.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <stdexcept>

namespace fabriclab::sim {
namespace {

using model::mix;
using model::NodeKind;

/// A hash mapped onto [0, n) by multiplying rather than dividing (Lemire's reduction):
/// as uniform as `% n` for a well-mixed hash, and a division per hop was a tenth of the
/// time to route a million flows.
std::uint32_t below(std::uint64_t hash, std::uint32_t n) {
    return static_cast<std::uint32_t>(((hash >> 32) * n) >> 32);
}

// Signal propagation in fibre and copper: at most 4.5 ns per metre (docs/reference/published-figures.md, NVIDIA cable
// specs).
constexpr double kSecondsPerMeter = 4.5e-9;

} // namespace

FabricNetwork::FabricNetwork(const model::Topology& topology, const model::Fabric& fabric,
                             std::uint64_t ecmpSeed, Grouping grouping)
    : m_seed(ecmpSeed) {
    const auto built = std::make_shared<Structure>();
    Structure& s = *built;
    s.topology = &topology;
    s.fabric = fabric;
    const bool adaptive = fabric.routing == model::Routing::Adaptive;
    for (const auto& [id, node] : topology.nodes()) {
        s.index.emplace(id, static_cast<std::uint32_t>(s.index.size()));
        if (node.kind == NodeKind::Server)
            s.servers.push_back(id);
    }
    s.switchHops.resize(s.index.size());
    s.tier.resize(s.index.size());
    for (const auto& [id, node] : topology.nodes())
        s.tier[s.index.at(id)] = static_cast<int>(node.kind == NodeKind::Server  ? 0
                                                  : node.kind == NodeKind::Leaf  ? 1
                                                  : node.kind == NodeKind::Spine ? 2
                                                                                 : 3);
    const double goodput = fabric.goodputShare();

    const auto addChannel = [&](model::LinkId link, double gbps, bool server) {
        s.capacity.push_back(gbps * goodput);
        s.channelLink.push_back(link);
        s.channelIsServer.push_back(server ? 1 : 0);
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
                cable.up = addChannel(linkId, perCable, true);
                cable.down = addChannel(linkId, perCable, true);
                if (s.nics.size() <= server.value)
                    s.nics.resize(server.value + 1);
                s.nics[server.value].push_back(cable);
            }
            continue;
        }
        const int perDirection = adaptive ? 1 : link.count;
        const double usable = topology.usableCapacity(link).value;
        const double gbps = adaptive ? usable : usable / link.count;
        const std::uint32_t forward = static_cast<std::uint32_t>(s.capacity.size());
        for (int c = 0; c < perDirection; ++c)
            addChannel(linkId, gbps, false);
        const std::uint32_t backward = static_cast<std::uint32_t>(s.capacity.size());
        for (int c = 0; c < perDirection; ++c)
            addChannel(linkId, gbps, false);
        const std::uint32_t ia = s.index.at(link.a);
        const std::uint32_t ib = s.index.at(link.b);
        s.switchHops[ia].push_back(Hop{ib, forward, link.count, perDirection, link.lengthMeters,
                                       static_cast<std::uint32_t>(s.switchHops[ia].size())});
        s.switchHops[ib].push_back(Hop{ia, backward, link.count, perDirection, link.lengthMeters,
                                       static_cast<std::uint32_t>(s.switchHops[ib].size())});
    }

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

    s.linkChannels = s.capacity.size();
    constexpr auto kNone = std::numeric_limits<std::uint32_t>::max();
    s.upGroup.assign(s.index.size(), kNone);
    s.downGroup.assign(s.index.size(), kNone);
    s.peerUp.assign(s.index.size(), kNone);
    s.peerSize.assign(s.index.size(), 0);
    if (adaptive && grouping == Grouping::Groups) {
        for (std::uint32_t u = 0; u < s.switchHops.size(); ++u) {
            if (!symmetricAbove(s, u))
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
                s.channelIsServer.push_back(0);
                s.upGroup[u] = static_cast<std::uint32_t>(s.capacity.size() - 1);
                s.capacity.push_back(fromAbove);
                s.channelLink.push_back(s.channelLink[s.switchHops[u].front().channel0]);
                s.channelIsServer.push_back(0);
                s.downGroup[u] = static_cast<std::uint32_t>(s.capacity.size() - 1);
            }
        }
        addPeerGroups(s);
    }
    findTwins(s);
    s.hopBase.assign(s.switchHops.size() + 1, 0);
    for (std::size_t u = 0; u < s.switchHops.size(); ++u)
        s.hopBase[u + 1] = s.hopBase[u] + static_cast<std::uint32_t>(s.switchHops[u].size());
    m_s = built;
}

void FabricNetwork::findTwins(Structure& s) {
    // Switches with the same neighbours, in the same order, by the same cables of the same
    // lengths, in the same tier, are twins: every other switch is as far from one as from
    // the other (a shortest path to either ends through a shared neighbour and never passes
    // the other twin), and a route between two switches is the route between their
    // representatives with the twins' own cables put in. The leaves of a pod or of a rail
    // group are twins, so one search and one spread serve them all.
    constexpr auto kNone = std::numeric_limits<std::uint32_t>::max();
    const std::size_t nodes = s.switchHops.size();
    s.twinOf.resize(nodes);
    std::map<std::vector<std::tuple<std::uint32_t, int, double, int>>, std::uint32_t> first;
    std::vector<std::tuple<std::uint32_t, int, double, int>> key;
    for (std::uint32_t u = 0; u < nodes; ++u) {
        s.twinOf[u] = u;
        if (s.switchHops[u].empty())
            continue;
        key.clear();
        for (const Hop& hop : s.switchHops[u])
            key.emplace_back(hop.to, hop.members, hop.meters, s.tier[u]);
        s.twinOf[u] = first.try_emplace(key, u).first->second;
    }
    // Every twin and representative lists its channels in one order (slots): its cables
    // out, the cables into it, its group channels. Twins' slots correspond one to one, so
    // a representative's route becomes a twin's by changing the slots it uses.
    std::vector<char> represents(nodes, 0);
    for (std::uint32_t u = 0; u < nodes; ++u)
        if (s.twinOf[u] != u)
            represents[s.twinOf[u]] = represents[u] = 1;
    s.slots.assign(nodes, {});
    const auto hopTo = [&](std::uint32_t from, std::uint32_t to, int occurrence) -> const Hop* {
        for (const Hop& hop : s.switchHops[from])
            if (hop.to == to && occurrence-- == 0)
                return &hop;
        return nullptr;
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

std::size_t FabricNetwork::twinnedSwitches() const {
    std::size_t twinned = 0;
    for (std::uint32_t u = 0; u < m_s->twinOf.size(); ++u)
        twinned += m_s->twinOf[u] != u;
    return twinned;
}

void FabricNetwork::addPeerGroups(Structure& s) {
    constexpr auto kNone = std::numeric_limits<std::uint32_t>::max();
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
        s.channelIsServer.push_back(0);
        for (const std::uint32_t p : peers) {
            s.peerUp[p] = static_cast<std::uint32_t>(s.capacity.size() - 1);
            s.peerSize[p] = static_cast<std::uint32_t>(peers.size());
        }
    }
}

std::vector<std::uint32_t> FabricNetwork::channelsLeaving(model::NodeId from,
                                                          model::LinkId link) const {
    std::vector<std::uint32_t> channels;
    const auto found = m_s->index.find(from);
    if (found == m_s->index.end() || found->second >= m_s->switchHops.size())
        return channels;
    for (const Hop& hop : m_s->switchHops[found->second])
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

bool FabricNetwork::symmetricAbove(const Structure& s, std::uint32_t u) {
    // A group channel is exact only if every flow through u loads u's uplinks in
    // proportion to their cables. That holds when all switches above u look alike from
    // u's tier: the same number of cables from u, and the same neighbours at u's tier,
    // as in every leaf/spine and fat-tree. Drawings that break it keep per-cable channels.
    std::vector<std::uint32_t> reference;
    int cables = -1;
    bool first = true;
    for (const Hop& hop : s.switchHops[u]) {
        if (s.tier[hop.to] <= s.tier[u])
            continue;
        if (cables >= 0 && hop.members != cables)
            return false;
        cables = hop.members;
        std::vector<std::uint32_t> peers;
        for (const Hop& down : s.switchHops[hop.to])
            if (s.tier[down.to] == s.tier[u])
                peers.push_back(down.to);
        std::sort(peers.begin(), peers.end());
        if (first) {
            reference = std::move(peers);
            first = false;
        } else if (peers != reference) {
            return false;
        }
    }
    return true;
}

int FabricNetwork::nicCount(model::NodeId server) const {
    return server.value < m_s->nics.size() ? static_cast<int>(m_s->nics[server.value].size()) : 0;
}

const FabricNetwork::Cable& FabricNetwork::cable(Endpoint endpoint) const {
    const std::vector<Cable>* cables =
        endpoint.server.value < m_s->nics.size() ? &m_s->nics[endpoint.server.value] : nullptr;
    if (!cables || endpoint.nic < 0 || endpoint.nic >= static_cast<int>(cables->size()))
        throw std::invalid_argument("server " + m_s->topology->node(endpoint.server).name +
                                    " has no NIC " + std::to_string(endpoint.nic));
    return (*cables)[static_cast<std::size_t>(endpoint.nic)];
}

model::Gbps FabricNetwork::nicGoodput(Endpoint endpoint) const {
    return model::Gbps(m_s->capacity[cable(endpoint).up]);
}
std::uint32_t FabricNetwork::nicUp(Endpoint endpoint) const {
    return cable(endpoint).up;
}
std::uint32_t FabricNetwork::nicDown(Endpoint endpoint) const {
    return cable(endpoint).down;
}

const FabricNetwork::Distances& FabricNetwork::distancesTo(std::uint32_t representative) const {
    if (m_distances.empty())
        m_distances.resize(m_s->switchHops.size());
    auto& distance = m_distances[representative];
    if (!distance.empty())
        return distance;
    distance.assign(m_s->switchHops.size(), -1);
    std::deque<std::uint32_t> queue{representative};
    distance[representative] = 0;
    while (!queue.empty()) {
        const std::uint32_t u = queue.front();
        queue.pop_front();
        for (const Hop& hop : m_s->switchHops[u])
            if (distance[hop.to] < 0) {
                distance[hop.to] = static_cast<std::int16_t>(distance[u] + 1);
                queue.push_back(hop.to);
            }
    }
    return distance;
}

int FabricNetwork::hops(std::uint32_t node, std::uint32_t target) const {
    const std::uint32_t twin = m_s->twinOf[target];
    const Distances& distance = distancesTo(twin);
    if (twin == target)
        return distance[node];
    // A twin's distances are its representative's with the two twins' own entries
    // exchanged (0 and 2): only representatives keep a table, which at 131K GPUs is a
    // few dozen tables instead of two thousand.
    if (node == target)
        return 0;
    if (node == twin)
        return distance[target];
    return distance[node];
}

std::uint32_t& FabricNetwork::nearChoice(std::uint32_t node, std::uint32_t target) const {
    // Sorted by node: a twin target has a few dozen near switches, and a binary search
    // over them beat a hash map's division and pointer chase on every static-ECMP hop.
    if (m_nearChoice.empty())
        m_nearChoice.resize(m_s->switchHops.size());
    auto& near = m_nearChoice[target];
    auto it = std::lower_bound(near.begin(), near.end(), node,
                               [](const auto& entry, std::uint32_t n) { return entry.first < n; });
    if (it == near.end() || it->first != node)
        it = near.insert(it, {node, std::numeric_limits<std::uint32_t>::max()});
    return it->second;
}

const FabricNetwork::Choice& FabricNetwork::choiceToward(std::uint32_t node,
                                                         std::uint32_t target) const {
    constexpr auto kUnknown = std::numeric_limits<std::uint32_t>::max();
    if (m_choiceTo.empty())
        m_choiceTo.resize(m_s->switchHops.size());
    // Two or more hops from a twin target, the next hops toward it are those toward its
    // representative: the twins are the only switches whose distances differ, and neither
    // can be a next hop from that far (findTwins). Only representatives keep a table per
    // switch; the few switches near a twin keep theirs in m_nearChoice. Static ECMP asks
    // this once per hop of every flow, so the common case is two look-ups.
    std::uint32_t* slot = nullptr;
    if (const std::uint32_t twin = m_s->twinOf[target]; twin != target) {
        if (node != twin && node != target && distancesTo(twin)[node] >= 2)
            target = twin;
        else
            slot = &nearChoice(node, target);
    }
    if (!slot) {
        std::vector<std::uint32_t>& table = m_choiceTo[target];
        if (table.empty())
            table.assign(m_s->switchHops.size(), kUnknown);
        slot = &table[node];
    }
    if (*slot != kUnknown)
        return m_choices[*slot];
    const int distance = hops(node, target);
    const std::vector<Hop>& hops = m_s->switchHops[node];
    m_candidates.clear();
    std::uint64_t hash = mix(node);
    for (std::uint32_t i = 0; i < hops.size(); ++i)
        if (this->hops(hops[i].to, target) == distance - 1) {
            m_candidates.push_back(i);
            hash = mix(hash ^ i);
        }
    if (m_candidates.empty())
        throw std::logic_error("choiceToward: no next hop from a reachable switch");
    const auto sameAs = [&](const Choice& c) {
        if (c.count != m_candidates.size())
            return false;
        for (std::uint32_t k = 0; k < c.count; ++k)
            if (m_choiceHops[c.first + k].channel0 != hops[m_candidates[k]].channel0)
                return false;
        return true;
    };
    const auto known = m_choiceByHash.find(hash);
    if (known != m_choiceByHash.end() && sameAs(m_choices[known->second])) {
        *slot = known->second;
        return m_choices[known->second];
    }
    Choice choice;
    choice.first = static_cast<std::uint32_t>(m_choiceHops.size());
    choice.count = static_cast<std::uint32_t>(m_candidates.size());
    choice.membersEach = static_cast<std::uint32_t>(hops[m_candidates.front()].members);
    for (const std::uint32_t i : m_candidates) {
        m_choiceHops.push_back(hops[i]);
        choice.members += static_cast<std::uint32_t>(hops[i].members);
        if (hops[i].members != static_cast<int>(choice.membersEach))
            choice.membersEach = 0;
    }
    const auto id = static_cast<std::uint32_t>(m_choices.size());
    m_choices.push_back(choice);
    m_choiceByHash.emplace(hash, id); // keeps the first on a (vanishingly rare) collision
    *slot = id;
    return m_choices[id];
}

bool FabricNetwork::reaches(Endpoint from, Endpoint to) const {
    if (from.server == to.server)
        return true;
    return hops(cable(from).switchNode, cable(to).switchNode) >= 0;
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
    const Cable& source = cable(from);
    int switchHops = hops(source.switchNode, cable(to).switchNode);
    for (int k = 1; switchHops < 0 && k < nicCount(to.server); ++k) {
        to.nic = (to.nic + 1) % nicCount(to.server);
        switchHops = hops(source.switchNode, cable(to).switchNode);
    }
    if (switchHops < 0)
        throw std::invalid_argument("no path from " + m_s->topology->node(from.server).name +
                                    " to " + m_s->topology->node(to.server).name);
    const Cable& sink = cable(to);
    route.elements.push_back({source.up, 1.0});
    route.wireMeters = source.meters + sink.meters;
    route.switchHops = switchHops + 1;

    if (source.switchNode != sink.switchNode) {
        const auto key =
            mix(m_seed ^ mix(from.server.value * 131ULL + static_cast<std::uint64_t>(from.nic)) ^
                mix((to.server.value * 131ULL + static_cast<std::uint64_t>(to.nic)) << 1) ^
                mix(flowKey << 2));
        appendMiddle(source.switchNode, sink.switchNode, key, route);
    }
    route.elements.push_back({sink.down, 1.0});
}

void FabricNetwork::appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t key,
                                 Route& route) const {
    if (!adaptive()) {
        // Static ECMP: at every switch the hash picks one cable among the equal-cost ones.
        // Not cached: the choice depends on the flow.
        for (std::uint32_t u = from; u != to;) {
            const Choice& choice = choiceToward(u, to);
            const std::uint32_t pick = below(mix(key ^ u), choice.members);
            const Hop* hop = &m_choiceHops[choice.first];
            std::uint32_t member = pick;
            if (choice.membersEach > 0) {
                hop += pick / choice.membersEach;
                member = pick % choice.membersEach;
            } else {
                for (; member >= static_cast<std::uint32_t>(hop->members); ++hop)
                    member -= static_cast<std::uint32_t>(hop->members);
            }
            route.elements.push_back({hop->channel0 + member, 1.0});
            route.wireMeters += hop->meters;
            u = hop->to;
        }
        return;
    }
    // Twins share their representatives' spread, with their own cables put in; a pair of
    // twins of one another has no representative pair and is spread as it is.
    std::uint32_t a = m_s->twinOf[from];
    std::uint32_t b = m_s->twinOf[to];
    // Representatives cabled to each other would put the wrong cable in; so would one
    // standing for both ends.
    if (a == b || hops(a, b) <= 1) {
        a = from;
        b = to;
    }
    const std::uint64_t pair = (static_cast<std::uint64_t>(a) << 32) | b;
    auto it = m_middles.find(pair);
    if (it == m_middles.end()) {
        Middle computed;
        computed.elements = spread(a, b, computed.meters);
        computed.patches = patchesFor(computed.elements, a, b);
        it = m_middles.emplace(pair, std::move(computed)).first;
    }
    const Middle& middle = it->second;
    const std::size_t base = route.elements.size();
    route.elements.insert(route.elements.end(), middle.elements.begin(), middle.elements.end());
    for (const Patch& patch : middle.patches) {
        const std::uint32_t twin = patch.toSide ? to : from;
        if (twin != (patch.toSide ? b : a))
            route.elements[base + patch.position].channel = m_s->slots[twin][patch.slot];
    }
    route.wireMeters += middle.meters;
}

std::vector<FabricNetwork::Patch>
FabricNetwork::patchesFor(const std::vector<PathElement>& elements, std::uint32_t a,
                          std::uint32_t b) const {
    // Which elements are the ends' own channels, found once per pair of representatives.
    std::vector<Patch> patches;
    const auto slotOf = [&](std::uint32_t node, std::uint32_t channel) -> std::optional<int> {
        const auto& slots = m_s->slots[node];
        for (std::size_t i = 0; i < slots.size(); ++i)
            if (slots[i] == channel)
                return static_cast<int>(i);
        return std::nullopt;
    };
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const auto index = static_cast<std::uint32_t>(i);
        if (const auto slot = slotOf(a, elements[i].channel))
            patches.push_back({index, static_cast<std::uint32_t>(*slot), false});
        else if (const auto other = slotOf(b, elements[i].channel))
            patches.push_back({index, static_cast<std::uint32_t>(*other), true});
    }
    return patches;
}

const std::vector<FabricNetwork::GroupHop>& FabricNetwork::groupHops(std::uint32_t node,
                                                                     bool up) const {
    auto& cache = up ? m_upGroupHops : m_downGroupHops;
    if (cache.empty())
        cache.resize(m_s->switchHops.size());
    std::optional<std::vector<GroupHop>>& group = cache[node];
    if (group)
        return *group;
    group.emplace();
    const std::vector<Hop>& hops = m_s->switchHops[node];
    for (std::uint32_t i = 0; i < hops.size(); ++i) {
        const Hop& hop = hops[i];
        if (m_s->tier[hop.to] <= m_s->tier[node])
            continue;
        if (up) {
            group->push_back({node, i, hop.members});
            continue;
        }
        const std::vector<Hop>& above = m_s->switchHops[hop.to];
        for (std::uint32_t j = 0; j < above.size(); ++j)
            if (above[j].to == node)
                group->push_back({hop.to, j, above[j].members});
    }
    return *group;
}

std::vector<PathElement> FabricNetwork::spread(std::uint32_t from, std::uint32_t to,
                                               double& meters) const {
    // Adaptive routing: at every switch the flow spreads over all equal-cost cables in
    // proportion to their number, hop by hop; then every group of cables the flow loads
    // in proportion to their number becomes its group channel. The scratch is dense and
    // kept between calls, since a 16K-GPU fat-tree asks for thousands of switch pairs
    // and allocating per pair once cost most of the routing time.
    spreadHopByHop(from, to, meters);
    std::vector<PathElement> elements;
    appendSingleCables(elements);
    appendGroupChannels(elements);
    clearSpreadScratch();
    return elements;
}

void FabricNetwork::spreadHopByHop(std::uint32_t from, std::uint32_t to, double& meters) const {
    // A frontier of fractions per distance. The equal-cost hops come from the interned
    // per-target choices, so a core with a link into every pod is scanned once per
    // target, not once per switch pair.
    const std::size_t nodes = m_s->switchHops.size();
    SpreadScratch& scratch = m_spreadScratch;
    if (scratch.reached.size() != nodes) {
        scratch.reached.assign(nodes, 0.0);
        scratch.upUsed.assign(nodes, 0);
        scratch.downUsed.assign(nodes, 0);
        scratch.upGroup.assign(nodes, -1.0);
        scratch.downGroup.assign(nodes, -1.0);
        scratch.load.assign(m_s->hopBase.back(), -1.0);
    }
    std::vector<std::uint32_t>& frontier = scratch.frontier;
    std::vector<std::uint32_t>& next = scratch.next;
    std::vector<double>& fractions = scratch.fractions;
    scratch.uses.clear();
    frontier.assign(1, from);
    fractions.assign(1, 1.0);
    meters = 0;
    // A node is at one distance only, so each hop is used once at most.
    while (!(frontier.size() == 1 && frontier.front() == to)) {
        next.clear();
        bool first = true;
        for (std::size_t k = 0; k < frontier.size(); ++k) {
            const std::uint32_t u = frontier[k];
            const Choice& choice = choiceToward(u, to);
            for (std::uint32_t c = 0; c < choice.count; ++c) {
                const Hop& hop = m_choiceHops[choice.first + c];
                const double share = fractions[k] * hop.members / choice.members;
                scratch.uses.push_back({u, hop.index, share});
                if (scratch.reached[hop.to] == 0.0)
                    next.push_back(hop.to);
                scratch.reached[hop.to] += share;
                if (first) {
                    meters += hop.meters;
                    first = false;
                }
            }
        }
        // Visit the next level in node order, as the sums above and below expect.
        std::sort(next.begin(), next.end());
        frontier.swap(next);
        fractions.resize(frontier.size());
        for (std::size_t k = 0; k < frontier.size(); ++k) {
            fractions[k] = scratch.reached[frontier[k]];
            scratch.reached[frontier[k]] = 0.0;
        }
    }
    for (const Use& use : scratch.uses) {
        scratch.load[m_s->hopBase[use.from] + use.hop] = use.fraction;
        if (isUp(use))
            ++scratch.upUsed[use.from];
        else if (isDown(use))
            ++scratch.downUsed[m_s->switchHops[use.from][use.hop].to];
    }
}

bool FabricNetwork::isUp(const Use& use) const {
    return m_s->tier[m_s->switchHops[use.from][use.hop].to] > m_s->tier[use.from];
}

bool FabricNetwork::isDown(const Use& use) const {
    return m_s->tier[m_s->switchHops[use.from][use.hop].to] < m_s->tier[use.from];
}

double FabricNetwork::groupShare(std::uint32_t node, bool up) const {
    // Worked out the first time one of the group's hops comes up: the flow's share of
    // the group when it loads every cable of it in proportion to its cables, else 0.
    SpreadScratch& scratch = m_spreadScratch;
    double& share = up ? scratch.upGroup[node] : scratch.downGroup[node];
    if (share >= 0)
        return share;
    (up ? scratch.upGroupNodes : scratch.downGroupNodes).push_back(node);
    const auto loadOf = [&](std::uint32_t owner, std::uint32_t hop) {
        const double load = scratch.load[m_s->hopBase[owner] + hop];
        return load < 0 ? 0.0 : load;
    };
    const std::vector<GroupHop>& group = groupHops(node, up);
    double total = 0;
    int members = 0;
    for (const GroupHop& g : group) {
        total += loadOf(g.owner, g.index);
        members += g.members;
    }
    share = 0;
    const std::uint32_t used = up ? scratch.upUsed[node] : scratch.downUsed[node];
    if (total <= 0 || used != group.size())
        return share;
    for (const GroupHop& g : group)
        if (std::abs(loadOf(g.owner, g.index) - total * g.members / members) > 1e-9 * total)
            return share;
    share = total;
    return share;
}

void FabricNetwork::appendSingleCables(std::vector<PathElement>& elements) const {
    // Every hop not inside a group the flow loads evenly: the group saturates exactly
    // when each of its links does, so its channel stands for them.
    constexpr auto kNone = std::numeric_limits<std::uint32_t>::max();
    for (const Use& use : m_spreadScratch.uses) {
        const Hop& hop = m_s->switchHops[use.from][use.hop];
        if (isUp(use) && m_s->upGroup[use.from] != kNone && groupShare(use.from, true) > 0)
            continue;
        if (isDown(use) && m_s->downGroup[hop.to] != kNone && groupShare(hop.to, false) > 0)
            continue;
        elements.push_back({hop.channel0, use.fraction});
    }
}

void FabricNetwork::appendGroupChannels(std::vector<PathElement>& elements) const {
    // Group channels follow the single cables, in node order (as the solver's sums have
    // always seen them).
    constexpr auto kNone = std::numeric_limits<std::uint32_t>::max();
    SpreadScratch& scratch = m_spreadScratch;
    std::sort(scratch.upGroupNodes.begin(), scratch.upGroupNodes.end());
    std::sort(scratch.downGroupNodes.begin(), scratch.downGroupNodes.end());
    // A peer group the flow climbs past whole and evenly is one channel (its uplinks
    // saturate together); otherwise each switch's own uplink group.
    scratch.peers.clear();
    for (const std::uint32_t node : scratch.upGroupNodes)
        if (scratch.upGroup[node] > 0) {
            if (m_s->peerUp[node] != kNone)
                scratch.peers.emplace_back(m_s->peerUp[node], node);
            else
                elements.push_back({m_s->upGroup[node], scratch.upGroup[node]});
        }
    std::stable_sort(scratch.peers.begin(), scratch.peers.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t i = 0; i < scratch.peers.size();) {
        std::size_t j = i;
        double total = 0;
        while (j < scratch.peers.size() && scratch.peers[j].first == scratch.peers[i].first)
            total += scratch.upGroup[scratch.peers[j++].second];
        const std::uint32_t node = scratch.peers[i].second;
        bool whole = j - i == m_s->peerSize[node];
        for (std::size_t k = i; whole && k < j; ++k)
            whole = std::abs(scratch.upGroup[scratch.peers[k].second] * static_cast<double>(j - i) -
                             total) <= 1e-9 * total;
        if (whole)
            elements.push_back({scratch.peers[i].first, total});
        else
            for (std::size_t k = i; k < j; ++k)
                elements.push_back({m_s->upGroup[scratch.peers[k].second],
                                    scratch.upGroup[scratch.peers[k].second]});
        i = j;
    }
    for (const std::uint32_t node : scratch.downGroupNodes)
        if (scratch.downGroup[node] > 0)
            elements.push_back({m_s->downGroup[node], scratch.downGroup[node]});
}

void FabricNetwork::clearSpreadScratch() const {
    // Leave the scratch as it was found.
    SpreadScratch& scratch = m_spreadScratch;
    for (const std::uint32_t node : scratch.upGroupNodes)
        scratch.upGroup[node] = -1.0;
    for (const std::uint32_t node : scratch.downGroupNodes)
        scratch.downGroup[node] = -1.0;
    scratch.upGroupNodes.clear();
    scratch.downGroupNodes.clear();
    for (const Use& use : scratch.uses) {
        scratch.load[m_s->hopBase[use.from] + use.hop] = -1.0;
        scratch.upUsed[use.from] = 0;
        scratch.downUsed[m_s->switchHops[use.from][use.hop].to] = 0;
    }
}

model::Seconds FabricNetwork::latency(const Route& route) const {
    if (route.elements.empty())
        return model::Seconds(0);
    return model::nanoseconds(2 * m_s->fabric.nicLatencyNs) +
           model::nanoseconds(route.switchHops * m_s->fabric.switchLatencyNs) +
           model::Seconds(route.wireMeters * kSecondsPerMeter);
}

} // namespace fabriclab::sim
