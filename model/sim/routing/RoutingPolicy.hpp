// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/Route.hpp"
#include "model/sim/routing/FabricStructure.hpp"

#include <cstdint>
#include <memory>
#include <span>

namespace fabriclab::sim::routing {

/// How a fabric carries a flow between two switches: the seam where ECMP, the spreads of
/// adaptive routing and packet spraying, Valiant's detours on a dragonfly, and any later
/// policy (UGAL) plug in.
/// FabricNetwork handles the NICs at both ends; a policy routes the middle, over the
/// channels of a FabricStructure laid out as its registry entry asks (RoutingPolicies.hpp).
///
/// A policy owns its route caches, which fill as it routes: its methods are const to the
/// caller and not safe to share between threads. Each thread routes on its own clone.
/// One flow of a pattern about to be routed, as a policy that weighs whole patterns sees it.
struct ExpectedFlow {
    std::uint32_t from = 0; ///< switch index where the flow enters the fabric
    std::uint32_t to = 0;   ///< switch index where it leaves
    double gbps = 0;        ///< what its source NIC can send
};

class RoutingPolicy {
public:
    virtual ~RoutingPolicy() = default;
    /// Whether the policy chooses its paths from the whole pattern (UGAL): only then do
    /// callers list a pattern's flows for expectFlows.
    virtual bool weighsPatterns() const { return false; }
    /// The flows of the pattern routed next, before any of them: a policy that weighs
    /// patterns decides from their load here, once, so the routes do not depend on the
    /// order the flows are routed in (a pattern routed twice routes alike). Routes asked
    /// for after it follow that pattern until the next call; an empty list (or none ever)
    /// routes as an empty pattern.
    virtual void expectFlows(std::span<const ExpectedFlow> /*flows*/) const {}
    /// A copy, caches included, for another thread.
    virtual std::unique_ptr<RoutingPolicy> clone() const = 0;
    /// Switches a route from switch `from` to switch `to` crosses after `from`; -1 when the
    /// policy has no route between them.
    virtual int hops(std::uint32_t from, std::uint32_t to) const = 0;
    /// Appends the channels from switch `from` to a different switch `to`, with the
    /// fraction of the flow's rate each carries, and adds their cable length. `flowKey`
    /// is a well-mixed hash of the flow and the network's seed, for policies that hash.
    virtual void appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t flowKey,
                              Route& route) const = 0;

protected:
    RoutingPolicy() = default;
    RoutingPolicy(const RoutingPolicy&) = default;
    RoutingPolicy& operator=(const RoutingPolicy&) = default;
};

} // namespace fabriclab::sim::routing
