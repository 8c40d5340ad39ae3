// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/TopologySummary.hpp"

#include "model/analysis/Connectivity.hpp"

namespace fabriclab::views {

TopologySummary TopologySummary::of(const model::Topology& topology) {
    return {topology.gpuCount(),    topology.serverCount(),        topology.switchCounts(),
            topology.cableCounts(), model::switchPlanes(topology), model::portsPerNic(topology)};
}

} // namespace fabriclab::views
