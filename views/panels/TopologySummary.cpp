// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/TopologySummary.hpp"

namespace fabriclab::views {

TopologySummary TopologySummary::of(const model::Topology& topology) {
    return {topology.gpuCount(), topology.serverCount(), topology.switchCounts(),
            topology.cableCounts()};
}

} // namespace fabriclab::views
