// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/Collectives.hpp"
#include "model/topology/Link.hpp"

#include <cstddef>
#include <vector>

namespace fabriclab::sim {

/// A collective's simulated timeline, ready to play back: frames of fabric throughput
/// and per-link utilization over the collective's whole simulated time. Playback reads
/// frames; it never simulates.
struct Playback {
    /// A link this busy is a bottleneck: max-min sharing froze the flows crossing it.
    static constexpr float kSaturated = 0.99f;

    double seconds = 0;                 ///< simulated length of the collective
    int steps = 1;                      ///< identical fabric steps it runs (ring: 2(n-1))
    int stepsPerTile = 1;               ///< steps each drawn repetition stands for
    std::vector<double> times;          ///< start of each frame, simulated seconds
    std::vector<double> throughputGbps; ///< fabric goodput during the frame, all flows
    std::vector<model::LinkId> links;   ///< links that carry traffic in some frame
    /// frames x links, frame-major: the busiest direction (or cable) of each link, 0-1.
    std::vector<float> utilization;

    std::size_t frameCount() const { return times.size(); }
    /// The frame showing at simulated time `t` (the last that started at or before it).
    std::size_t frameAt(double t) const;
    float utilizationAt(std::size_t frame, std::size_t link) const {
        return utilization[frame * links.size() + link];
    }
    /// The busiest any link gets over the whole playback.
    float peakUtilization(std::size_t link) const;
};

/// Lays a collective's simulated phase out over its whole time: the phase repeats
/// `phaseRepeats` times (a ring step per repeat), each followed by the time the phase
/// does not use (latency, or a slower scale-up stage). Past `maxTiles` repeats, each drawn
/// repeat stands for several identical steps, stretched: the shape is the same and a
/// 16K-GPU ring's 32,766 steps would be a blur. Needs the phase simulated with
/// recordLinks (runCollective's last argument) for link utilization; without it, only
/// throughput.
Playback buildPlayback(const FabricNetwork& network, const CollectiveResult& collective,
                       int maxTiles = 24);

} // namespace fabriclab::sim
