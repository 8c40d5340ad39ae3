// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/routing/RoutingPolicies.hpp"

#include "model/sim/routing/AdaptiveSpread.hpp"
#include "model/sim/routing/EcmpRouting.hpp"

#include <array>
#include <stdexcept>

namespace fabriclab::sim::routing {
namespace {

template <typename Policy>
std::unique_ptr<RoutingPolicy> make(std::shared_ptr<const FabricStructure> structure) {
    return std::make_unique<Policy>(std::move(structure));
}

constexpr std::array kPolicies{
    RoutingPolicyEntry{model::Routing::Ecmp, EcmpRouting::kLayout, &make<EcmpRouting>},
    RoutingPolicyEntry{model::Routing::Adaptive, AdaptiveSpread::kLayout, &make<AdaptiveSpread>},
};

} // namespace

std::span<const RoutingPolicyEntry> routingPolicies() {
    return kPolicies;
}

const RoutingPolicyEntry& routingPolicyFor(model::Routing routing) {
    for (const RoutingPolicyEntry& entry : kPolicies)
        if (entry.routing == routing)
            return entry;
    throw std::invalid_argument("no routing policy for this fabric's routing");
}

} // namespace fabriclab::sim::routing
