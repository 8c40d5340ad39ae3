// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

#include <QString>

namespace fabriclab::views {

/// The counts a preview shows for a candidate topology: GPUs, servers, switches per tier
/// and cables per tier. Cables count physical cables (a link's `count`), sorted by the
/// tiers of their two ends.
struct TopologySummary {
    int gpus = 0;
    int servers = 0;
    int leaves = 0;
    int spines = 0;
    int cores = 0;
    long long serverCables = 0; ///< a server at one end
    long long leafSpineCables = 0;
    long long spineCoreCables = 0;
    long long otherCables = 0; ///< any other pair, as drawn by hand (leaf to core, ...)

    static TopologySummary of(const model::Topology& topology);

    /// "1,024 GPUs · 128 servers · 32 leaves · 16 spines" (cores only when present).
    QString countsText() const;
    /// "1,024 server · 512 leaf–spine cables" (tiers without cables left out).
    QString cablesText() const;
};

} // namespace fabriclab::views
