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

/// What the fabric delivers across a halving under its own routing, over several random
/// draws: which server pairs with which, and how the ECMP hashes of their flows fall (a
/// job's flows get new source ports, and so new hashes, every time it starts).
struct EffectiveBisection {
    double gbps = 0;  ///< mean steady-state goodput from the first half to the second
    double ratio = 0; ///< gbps / theoretical min cut
    double minGbps = 0;
    double maxGbps = 0;
    double stddevGbps = 0; ///< spread over the draws (population standard deviation)
    int seeds = 0;         ///< how many draws the figures cover
    /// ratio = lineEfficiency x routingEfficiency, kept apart because they are different
    /// things: the share of line rate the transport delivers on an idle path (headers,
    /// protocol, the TCP stack), and the share of that the routing keeps when flows meet
    /// (ECMP collisions, adaptive spreading).
    double lineEfficiency = 0;
    double routingEfficiency = 0;
    /// Per model::LinkTier (server links, leaf-spine, spine-core, other), indexed by its
    /// value: where the traffic crosses and how close to full each tier runs.
    std::array<TierLoad, model::kLinkTierCount> tiers{};
};

/// Random permutation traffic across the halves of `theoretical`: every NIC of a server
/// in one half sends to the same NIC of a random partner in the other half and back,
/// one flow per NIC. Static ECMP loses throughput where hashes collide; adaptive routing
/// spreads and recovers it. The rates are the max-min fair steady state. Each of `seeds`
/// draws, from `seed` on, picks its own permutation and its flows' hash keys; the result
/// is their mean with its spread, tier loads averaged too.
/// Polls `stop` while routing and solving (throws model::Cancelled). `tiers` false leaves
/// EffectiveBisection::tiers empty: what the CLI's report prints needs no tier loads.
EffectiveBisection effectiveBisection(const FabricNetwork& network,
                                      const model::BisectionResult& theoretical,
                                      std::uint64_t seed = 1, std::stop_token stop = {},
                                      bool tiers = true, int seeds = 1);

} // namespace fabriclab::sim
