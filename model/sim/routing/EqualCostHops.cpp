// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/routing/EqualCostHops.hpp"

#include "model/core/Hash.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

namespace fabriclab::sim::routing {

using model::mix;

const EqualCostHops::Distances& EqualCostHops::distancesTo(std::uint32_t representative) const {
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

int EqualCostHops::hops(std::uint32_t node, std::uint32_t target) const {
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

std::uint32_t& EqualCostHops::nearChoice(std::uint32_t node, std::uint32_t target) const {
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

const EqualCostHops::Choice& EqualCostHops::choiceToward(std::uint32_t node,
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

} // namespace fabriclab::sim::routing
