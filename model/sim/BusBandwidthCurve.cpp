// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/BusBandwidthCurve.hpp"

#include "model/core/Cancellation.hpp"

#include <stdexcept>

namespace fabriclab::sim {

std::vector<double> messageSizes(double minBytes, double maxBytes, double factor) {
    if (!(minBytes >= 1) || !(maxBytes >= minBytes) || !(factor > 1))
        throw std::invalid_argument("message sizes need 1 <= min <= max and a factor above 1");
    std::vector<double> sizes;
    for (double bytes = minBytes; bytes <= maxBytes * (1 + 1e-12); bytes *= factor)
        sizes.push_back(bytes);
    return sizes;
}

std::vector<BusBwPoint> busBandwidthCurve(const FabricNetwork& network,
                                          const CollectiveGroup& group,
                                          const model::CollectiveSpec& spec,
                                          const std::vector<double>& sizes, std::stop_token stop,
                                          PhaseCache* phases) {
    std::vector<BusBwPoint> curve;
    curve.reserve(sizes.size());
    PhaseCache own; // each algorithm's fabric phase is simulated once, then scaled
    PhaseCache& cache = phases ? *phases : own;
    for (const double bytes : sizes) {
        model::throwIfStopped(stop);
        model::CollectiveSpec at = spec;
        at.bytes = static_cast<long long>(bytes);
        const CollectiveResult r = runCollective(network, group, at, stop, false, &cache);
        curve.push_back({bytes, r.seconds, r.algBwGBps, r.busBwGBps, r.algorithm, r.protocol,
                         r.chosenBy, r.busBwMinGBps, r.busBwMaxGBps, r.ecmpDraws});
    }
    return curve;
}

} // namespace fabriclab::sim
