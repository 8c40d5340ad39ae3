// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/Bisection.hpp"
#include "model/sim/FabricNetwork.hpp"

#include <cstdint>

namespace fabriclab::sim {

/// What the fabric delivers across a halving under its own routing.
struct EffectiveBisection {
    double gbps = 0;  ///< steady-state goodput from the first half to the second
    double ratio = 0; ///< gbps / theoretical min cut
};

/// Random permutation traffic across the halves of `theoretical`: every NIC of a server
/// in one half sends to the same NIC of a random partner in the other half and back,
/// one flow per NIC. Static ECMP loses throughput where hashes collide; adaptive routing
/// spreads and recovers it. The rates are the max-min fair steady state. `seed` picks the
/// permutation (and the network's own seed the ECMP hashes).
EffectiveBisection effectiveBisection(const FabricNetwork& network,
                                      const model::BisectionResult& theoretical,
                                      std::uint64_t seed = 1);

} // namespace fabriclab::sim
