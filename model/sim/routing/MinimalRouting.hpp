// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/routing/EqualCostHops.hpp"
#include "model/sim/routing/RoutingPolicy.hpp"

#include <memory>
#include <utility>

namespace fabriclab::sim::routing {

/// What every policy along shortest paths shares: the structure, its equal-cost hops (a
/// cache of the policy's own), hop counts from them, and a clone that copies the caches.
/// A minimal policy derives from MinimalRouting<itself> and writes appendMiddle.
template <class Policy> class MinimalRouting : public RoutingPolicy {
public:
    std::unique_ptr<RoutingPolicy> clone() const override {
        return std::make_unique<Policy>(static_cast<const Policy&>(*this));
    }
    int hops(std::uint32_t from, std::uint32_t to) const override { return m_paths.hops(from, to); }

protected:
    explicit MinimalRouting(std::shared_ptr<const FabricStructure> structure)
        : m_s(std::move(structure)), m_paths(*m_s) {}

    std::shared_ptr<const FabricStructure> m_s;
    EqualCostHops m_paths;
};

} // namespace fabriclab::sim::routing
