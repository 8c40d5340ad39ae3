// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/sim/routing/RoutingPolicy.hpp"

#include <memory>
#include <span>

namespace fabriclab::sim::routing {

/// A routing policy as the network builds it: which catalog routing it serves, how it
/// wants the cables cut into channels, and how to make one over the built structure.
/// Adding a policy is its own file and one line in RoutingPolicies.cpp (plus its name in
/// model::Routing, which the fabric catalog spells).
struct RoutingPolicyEntry {
    model::Routing routing;
    ChannelLayout layout;
    std::unique_ptr<RoutingPolicy> (*make)(std::shared_ptr<const FabricStructure>);
    /// Only where it means something other than ECMP: a dragonfly's groups (Valiant).
    /// Reports leave it out elsewhere rather than show ECMP's figures again.
    bool dragonflyOnly = false;
};

/// Every policy FabricLab routes with.
std::span<const RoutingPolicyEntry> routingPolicies();
/// The policy of a fabric's routing; throws std::invalid_argument for one without a policy.
const RoutingPolicyEntry& routingPolicyFor(model::Routing routing);
/// Whether two routings put every flow on the same channels in the same shares, so
/// either's results stand for the other's, on a topology whose hasUnevenBundles is
/// `unevenBundles`: adaptive routing and spraying do wherever bundles are alike.
bool routesAlike(model::Routing a, model::Routing b, bool unevenBundles);

} // namespace fabriclab::sim::routing
