// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/routing/EcmpRouting.hpp"
#include "model/sim/routing/ValiantRouting.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace fabriclab::sim::routing {

/// UGAL on a dragonfly (Universal Globally-Adaptive Load-balanced, Singh 2005; Kim et al.,
/// ISCA 2008): each flow between two groups goes minimally unless its direct global links
/// are loaded more than twice as much as a Valiant detour's two global hops, so a benign
/// pattern keeps minimal routing's single global hop and an adversarial one spreads like
/// Valiant's.
///
/// A router weighs queues packet by packet; a flow model has only the pattern. So the
/// choice is made once per pattern (expectFlows): for each pair of groups, the share of
/// its flows that detour is the one that balances the direct links' load against twice
/// the detour links' (the hop count UGAL weighs queues by), from every pair's demand and
/// the global links' capacity, refined over a few passes as detours load other pairs'
/// links. Each flow then detours when its key falls in its pair's share, so the routes do
/// not depend on the order flows are routed in. Legs are static ECMP; inside a group, or
/// on a fabric without three groups, it routes as ECMP does.
class UgalRouting final : public RoutingPolicy {
public:
    static constexpr ChannelLayout kLayout = EcmpRouting::kLayout;

    explicit UgalRouting(std::shared_ptr<const FabricStructure> structure);

    std::unique_ptr<RoutingPolicy> clone() const override;
    bool weighsPatterns() const override { return m_valiant.groupCount() >= 3; }
    void expectFlows(std::span<const ExpectedFlow> flows) const override;
    /// Switches crossed after `from` on the minimal route.
    int hops(std::uint32_t from, std::uint32_t to) const override;
    void appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t flowKey,
                      Route& route) const override;

    /// The share of flows from group `a` to group `b` the last pattern detours, 0-1.
    double detourShare(int a, int b) const;

private:
    EcmpRouting m_minimal;
    ValiantRouting m_valiant;
    std::vector<double> m_capacity; ///< global Gb/s between groups, row a, column b
    /// Per group pair, row a, column b: the share of the pattern's flows that detour.
    /// Filled by expectFlows, like a route cache: each copy of the network has its own.
    mutable std::vector<double> m_share;
};

} // namespace fabriclab::sim::routing
