// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/routing/SpreadRouting.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabriclab::sim::routing {

void SpreadRouting::appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t,
                                 Route& route) const {
    // Twins share their representatives' spread, with their own cables put in. Two twins of
    // one another share the spread between their representative and its first other twin:
    // the leaves of one plane of a million-GPU fabric are all twins, and spreading each of
    // their quarter-million pairs apart took most of its run.
    std::uint32_t a = m_s->twinOf[from];
    std::uint32_t b = m_s->twinOf[to];
    if (a == b)
        b = partnerOf(a);
    // Representatives cabled to each other would put the wrong cable in.
    if (m_paths.hops(a, b) <= 1) {
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

std::uint32_t SpreadRouting::partnerOf(std::uint32_t representative) const {
    if (m_partners.empty()) {
        // Each representative's first twin after itself, found in one pass.
        m_partners.assign(m_s->twinOf.size(), FabricStructure::kNone);
        for (std::uint32_t u = 0; u < m_s->twinOf.size(); ++u) {
            std::uint32_t& partner = m_partners[m_s->twinOf[u]];
            if (u != m_s->twinOf[u] && partner == FabricStructure::kNone)
                partner = u;
        }
    }
    return m_partners[representative];
}

std::vector<SpreadRouting::Patch>
SpreadRouting::patchesFor(const std::vector<PathElement>& elements, std::uint32_t a,
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

const std::vector<SpreadRouting::GroupHop>& SpreadRouting::groupHops(std::uint32_t node,
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
            group->push_back({node, i, hop.capacity});
            continue;
        }
        const std::vector<Hop>& above = m_s->switchHops[hop.to];
        for (std::uint32_t j = 0; j < above.size(); ++j)
            if (above[j].to == node)
                group->push_back({hop.to, j, above[j].capacity});
    }
    return *group;
}

std::vector<PathElement> SpreadRouting::spread(std::uint32_t from, std::uint32_t to,
                                               double& meters) const {
    // At every switch the flow spreads over all equal-cost cables as the policy's weight
    // says, hop by hop; then every group of cables the flow loads in proportion to their
    // capacity becomes its group channel. The scratch is dense and
    // kept between calls, since a 16K-GPU fat-tree asks for thousands of switch pairs
    // and allocating per pair once cost most of the routing time.
    spreadHopByHop(from, to, meters);
    std::vector<PathElement> elements;
    appendSingleCables(elements);
    appendGroupChannels(elements);
    clearSpreadScratch();
    return elements;
}

double SpreadRouting::deliverable(std::uint32_t node, std::uint32_t target) const {
    // What the equal-cost paths from `node` can carry to `target`: each next hop adds its
    // own capacity or what lies beyond it, whichever is less. The bottleneck of a series
    // of hops, summed over parallel ones, so a degraded cable anywhere down the paths
    // shows; exact on the up/down paths of a Clos, where the paths from two next hops
    // meet only at the target's side.
    if (node == target)
        return std::numeric_limits<double>::infinity();
    const std::uint64_t key = (static_cast<std::uint64_t>(node) << 32) | target;
    if (const auto known = m_deliverable.find(key); known != m_deliverable.end())
        return known->second;
    // A copy: the recursion below may intern new choices and move the tables.
    const EqualCostHops::Choice choice = m_paths.choiceToward(node, target);
    double total = 0;
    for (std::uint32_t c = 0; c < choice.count; ++c) {
        const Hop hop = m_paths.hopsOf(choice)[c];
        total += std::min(hop.capacity, deliverable(hop.to, target));
    }
    m_deliverable.emplace(key, total);
    return total;
}

bool SpreadRouting::weighChoice(const EqualCostHops::Choice& choice, std::uint32_t target) const {
    std::vector<double>& weights = m_spreadScratch.weights;
    weights.clear();
    // Where every bundle between two tiers is alike, what a next hop delivers follows its
    // cables: skip the weighing, which would cost a tenth of a 131K-GPU run.
    if (m_weight == SpreadWeight::ByCables || choice.count < 2 || !m_s->unevenBundles)
        return false;
    for (std::uint32_t c = 0; c < choice.count; ++c) {
        const Hop hop = m_paths.hopsOf(choice)[c];
        weights.push_back(std::min(hop.capacity, deliverable(hop.to, target)));
    }
    // Weights in proportion to the cables (every healthy Clos) split by cables, so such
    // a fabric's numbers do not depend on the weighing's rounding.
    const Hop first = m_paths.hopsOf(choice)[0];
    for (std::uint32_t c = 1; c < choice.count; ++c) {
        const int members = m_paths.hopsOf(choice)[c].members;
        if (std::abs(weights[c] * first.members - weights[0] * members) >
            1e-12 * weights[0] * members)
            return true;
    }
    weights.clear();
    return false;
}

void SpreadRouting::spreadHopByHop(std::uint32_t from, std::uint32_t to, double& meters) const {
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
            // A copy, as weighing may intern choices; then split the fraction by cables,
            // or by the weights where they differ from the cables.
            const EqualCostHops::Choice choice = m_paths.choiceToward(u, to);
            const bool weighed = weighChoice(choice, to);
            double weightTotal = 0;
            for (const double weight : scratch.weights)
                weightTotal += weight;
            for (std::uint32_t c = 0; c < choice.count; ++c) {
                const Hop& hop = m_paths.hopsOf(choice)[c];
                const double share = weighed ? fractions[k] * scratch.weights[c] / weightTotal
                                             : fractions[k] * hop.members / choice.members;
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

bool SpreadRouting::isUp(const Use& use) const {
    return m_s->tier[m_s->switchHops[use.from][use.hop].to] > m_s->tier[use.from];
}

bool SpreadRouting::isDown(const Use& use) const {
    return m_s->tier[m_s->switchHops[use.from][use.hop].to] < m_s->tier[use.from];
}

double SpreadRouting::groupShare(std::uint32_t node, bool up) const {
    // Worked out the first time one of the group's hops comes up: the flow's share of
    // the group when it loads every cable of it in proportion to its capacity (so the
    // group saturates exactly when each cable does), else 0.
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
    double capacity = 0;
    for (const GroupHop& g : group) {
        total += loadOf(g.owner, g.index);
        capacity += g.capacity;
    }
    share = 0;
    const std::uint32_t used = up ? scratch.upUsed[node] : scratch.downUsed[node];
    if (total <= 0 || used != group.size())
        return share;
    for (const GroupHop& g : group)
        if (std::abs(loadOf(g.owner, g.index) - total * g.capacity / capacity) > 1e-9 * total)
            return share;
    share = total;
    return share;
}

void SpreadRouting::appendSingleCables(std::vector<PathElement>& elements) const {
    // Every hop not inside a group the flow loads in proportion to capacity: such a group
    // saturates exactly when each of its links does, so its channel stands for them.
    constexpr auto kNone = FabricStructure::kNone;
    for (const Use& use : m_spreadScratch.uses) {
        const Hop& hop = m_s->switchHops[use.from][use.hop];
        if (isUp(use) && m_s->upGroup[use.from] != kNone && groupShare(use.from, true) > 0)
            continue;
        if (isDown(use) && m_s->downGroup[hop.to] != kNone && groupShare(hop.to, false) > 0)
            continue;
        elements.push_back({hop.channel0, use.fraction});
    }
}

void SpreadRouting::appendGroupChannels(std::vector<PathElement>& elements) const {
    // Group channels follow the single cables, in node order (as the solver's sums have
    // always seen them).
    constexpr auto kNone = FabricStructure::kNone;
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

void SpreadRouting::clearSpreadScratch() const {
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

} // namespace fabriclab::sim::routing
