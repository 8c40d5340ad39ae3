// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/advice/PublishedFigure.hpp"

#include <optional>
#include <string>
#include <vector>

namespace fabriclab::model {

/// How far from a published measurement a figure may stand before it is called an
/// extrapolation: 4x the servers either way. A ring's per-step cost and the fabric's
/// tiers are the same within that span on the fabrics in the validation set (one to two
/// switch tiers), while beyond it a design meets tiers, hash collisions and latencies no
/// measurement saw.
inline constexpr double kEvidenceReach = 4.0;

/// The published measurement nearest to a design on one fabric.
struct Evidence {
    std::string figureId;
    std::string source;
    std::string gpu;
    int servers = 0;
    double bytes = 0;
    bool sameGpu = false;
    /// The design's servers / the measurement's (8 for a 64-server design against an
    /// 8-server run; 0.5 for one half its size).
    double scale = 0;
    /// No measurement of this fabric within kEvidenceReach of the design's servers.
    bool extrapolation = true;
};

/// The figure of `figures` on `fabricId` nearest to a design of `servers` servers of
/// `gpu`, moving `bytes`: the same GPU where one exists, then the fewest-times scale away,
/// then the nearest message size. Nothing when no figure names the fabric.
std::optional<Evidence> nearestEvidence(const std::vector<PublishedFigure>& figures,
                                        const std::string& fabricId, const std::string& gpu,
                                        int servers, double bytes);

} // namespace fabriclab::model
