// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/routing/RoutingPolicies.hpp"

#include "model/sim/routing/EcmpRouting.hpp"
#include "model/sim/routing/SpreadRouting.hpp"
#include "model/sim/routing/UgalRouting.hpp"
#include "model/sim/routing/ValiantRouting.hpp"

#include <array>
#include <stdexcept>

namespace fabriclab::sim::routing {
namespace {

template <typename Policy, auto... Arguments>
std::unique_ptr<RoutingPolicy> make(std::shared_ptr<const FabricStructure> structure) {
    return std::make_unique<Policy>(std::move(structure), Arguments...);
}

constexpr std::array kPolicies{
    RoutingPolicyEntry{model::Routing::Ecmp, EcmpRouting::kLayout, &make<EcmpRouting>},
    RoutingPolicyEntry{model::Routing::Adaptive, SpreadRouting::kLayout,
                       &make<SpreadRouting, SpreadWeight::ByDeliverable>},
    RoutingPolicyEntry{model::Routing::Spray, SpreadRouting::kLayout,
                       &make<SpreadRouting, SpreadWeight::ByCables>},
    RoutingPolicyEntry{model::Routing::Valiant, ValiantRouting::kLayout, &make<ValiantRouting>,
                       true},
    RoutingPolicyEntry{model::Routing::Ugal, UgalRouting::kLayout, &make<UgalRouting>, true},
};

} // namespace

std::span<const RoutingPolicyEntry> routingPolicies() {
    return kPolicies;
}

bool routesAlike(model::Routing a, model::Routing b, bool unevenBundles) {
    const auto spread = [](model::Routing r) {
        return r == model::Routing::Adaptive || r == model::Routing::Spray;
    };
    return a == b || (spread(a) && spread(b) && !unevenBundles);
}

const RoutingPolicyEntry& routingPolicyFor(model::Routing routing) {
    for (const RoutingPolicyEntry& entry : kPolicies)
        if (entry.routing == routing)
            return entry;
    throw std::invalid_argument("no routing policy for this fabric's routing");
}

} // namespace fabriclab::sim::routing
