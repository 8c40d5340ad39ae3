// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/Bisection.hpp"
#include "model/sim/FabricNetwork.hpp"

#include <array>
#include <cstdint>
#include <stop_token>

namespace fabriclab::sim {

/// What one tier of cables carries under the bisection traffic, both directions summed.
struct TierLoad {
    double capacityGbps = 0; ///< goodput of every cable of the tier, both directions
    double carriedGbps = 0;  ///< what the permutation's flows put on them
};

/// What the fabric delivers across a halving under its own routing.
struct EffectiveBisection {
    double gbps = 0;  ///< steady-state goodput from the first half to the second
    double ratio = 0; ///< gbps / theoretical min cut
    /// Per model::LinkTier (server links, leaf-spine, spine-core, other), indexed by its
    /// value: where the traffic crosses and how close to full each tier runs.
    std::array<TierLoad, model::kLinkTierCount> tiers{};
};

/// Random permutation traffic across the halves of `theoretical`: every NIC of a server
/// in one half sends to the same NIC of a random partner in the other half and back,
/// one flow per NIC. Static ECMP loses throughput where hashes collide; adaptive routing
/// spreads and recovers it. The rates are the max-min fair steady state. `seed` picks the
/// permutation (and the network's own seed the ECMP hashes).
/// Polls `stop` while routing and solving (throws model::Cancelled). `tiers` false leaves
/// EffectiveBisection::tiers empty: what the CLI's report prints needs no tier loads.
EffectiveBisection effectiveBisection(const FabricNetwork& network,
                                      const model::BisectionResult& theoretical,
                                      std::uint64_t seed = 1, std::stop_token stop = {},
                                      bool tiers = true);

} // namespace fabriclab::sim
