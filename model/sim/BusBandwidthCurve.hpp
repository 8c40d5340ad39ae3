// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/Collectives.hpp"

#include <stop_token>
#include <string>
#include <vector>

namespace fabriclab::sim {

/// One message size of an nccl-tests style sweep.
struct BusBwPoint {
    double bytes = 0;
    double seconds = 0;
    double algBwGBps = 0;
    double busBwGBps = 0;
    model::CollectiveAlgorithm algorithm = model::CollectiveAlgorithm::Ring; ///< as run
    model::CollectiveProtocol protocol = model::CollectiveProtocol::Simple;  ///< as run
    std::string chosenBy = "nccl"; ///< CollectiveResult::chosenBy
    /// Static ECMP: busbw of the slowest and fastest of `ecmpDraws` draws of flow keys
    /// (CollectiveResult); both equal busBwGBps with one draw.
    double busBwMinGBps = 0;
    double busBwMaxGBps = 0;
    int ecmpDraws = 1;
};

/// Message sizes from `minBytes` to `maxBytes`, each `factor` times the last, as
/// nccl-tests' -b, -e and -f flags give them (8 B to 8 GiB by doubling by default).
std::vector<double> messageSizes(double minBytes = 8, double maxBytes = 8.0 * (1ull << 30),
                                 double factor = 2);

/// Times the collective `spec.op` with `spec.algorithm` at every size, each as
/// runCollective() does: what `fabriclab-cli nccl-tests` prints and the app's
/// bus-bandwidth chart draws. Throws what runCollective throws; model::Cancelled when stopped.
/// `phases` (optional) holds phases already simulated on this network and group.
std::vector<BusBwPoint> busBandwidthCurve(const FabricNetwork& network,
                                          const CollectiveGroup& group,
                                          const model::CollectiveSpec& spec,
                                          const std::vector<double>& sizes,
                                          std::stop_token stop = {}, PhaseCache* phases = nullptr);

} // namespace fabriclab::sim
