// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/routing/EcmpRouting.hpp"

#include "model/core/Hash.hpp"

namespace fabriclab::sim::routing {
namespace {

/// A hash mapped onto [0, n) by multiplying rather than dividing (Lemire's reduction):
/// as uniform as `% n` for a well-mixed hash, and a division per hop was a tenth of the
/// time to route a million flows.
std::uint32_t below(std::uint64_t hash, std::uint32_t n) {
    return static_cast<std::uint32_t>(((hash >> 32) * n) >> 32);
}

} // namespace

void EcmpRouting::appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t flowKey,
                               Route& route) const {
    // At every switch the hash picks one cable among the equal-cost ones. Not cached: the
    // choice depends on the flow.
    for (std::uint32_t u = from; u != to;) {
        const EqualCostHops::Choice& choice = m_paths.choiceToward(u, to);
        const std::uint32_t pick = below(model::mix(flowKey ^ u), choice.members);
        const FabricStructure::Hop* hop = m_paths.hopsOf(choice).data();
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
}

} // namespace fabriclab::sim::routing
