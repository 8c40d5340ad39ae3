// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

namespace fabriclab::views {

/// The counts the previews and the status bar show for a topology: GPUs, servers,
/// switches per tier and physical cables (a link's `count`) by the tiers they join.
struct TopologySummary {
    int gpus = 0;
    int servers = 0;
    model::TierCounts switches;
    model::CableCounts cables;
    int switchPlanes = 1; ///< model::switchPlanes
    int portsPerNic = 1;  ///< model::portsPerNic

    static TopologySummary of(const model::Topology& topology);
};

} // namespace fabriclab::views
