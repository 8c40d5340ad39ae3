// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/routing/FabricStructure.hpp"

#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fabriclab::sim::routing {

/// Shortest paths between switches, the ground every minimal policy stands on: hop counts
/// by breadth-first search, and the equal-cost next hops from a switch toward a target.
/// Both fill lazily and are kept, since a million flows ask about a few thousand pairs;
/// twins (FabricStructure::twinOf) share their representative's tables. A cache: each
/// routing policy owns one, so each thread's copy routes without locks.
class EqualCostHops {
public:
    using Hop = FabricStructure::Hop;

    /// The equal-cost next hops from a switch toward a target switch, in the switch's
    /// own hop order (so ECMP picks stay what they were), with their total cables.
    /// Interned: in a Clos, every leaf offers the same uplinks toward most targets.
    struct Choice {
        std::uint32_t first = 0;       ///< into the interned hops
        std::uint32_t count = 0;       ///< hops
        std::uint32_t members = 0;     ///< cables over all hops
        std::uint32_t membersEach = 0; ///< cables per hop when all hops have the same, else 0
    };

    explicit EqualCostHops(const FabricStructure& structure) : m_s(&structure) {}

    /// Hops from switch `node` to switch `target`; -1 when no path joins them.
    int hops(std::uint32_t node, std::uint32_t target) const;
    /// The next hops from `node` (not `target`, and reaching it) toward `target`.
    const Choice& choiceToward(std::uint32_t node, std::uint32_t target) const;
    /// The hops of a choice.
    std::span<const Hop> hopsOf(const Choice& choice) const {
        return {m_choiceHops.data() + choice.first, choice.count};
    }

private:
    /// Hops from every node to a representative switch; hops fit 16 bits. -1: unreachable.
    using Distances = std::vector<std::int16_t>;
    const Distances& distancesTo(std::uint32_t representative) const;
    /// The entry of m_nearChoice for a switch near a twin target, made unknown if new.
    std::uint32_t& nearChoice(std::uint32_t node, std::uint32_t target) const;

    const FabricStructure* m_s;
    mutable std::vector<Distances> m_distances; ///< per representative, filled lazily
    // Next-hop choices, per target node index then node index, filled lazily: routing a
    // million flows then costs a table look-up per hop, not a scan of a spine's hundreds
    // of links.
    mutable std::vector<std::vector<std::uint32_t>> m_choiceTo;
    /// The same for the switches next to a twin target (further ones use its
    /// representative's): per target, (node, choice) sorted by node.
    mutable std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> m_nearChoice;
    mutable std::vector<Choice> m_choices;
    mutable std::vector<Hop> m_choiceHops;
    mutable std::unordered_map<std::uint64_t, std::uint32_t> m_choiceByHash;
    mutable std::vector<std::uint32_t> m_candidates; ///< scratch for choiceToward
};

} // namespace fabriclab::sim::routing
