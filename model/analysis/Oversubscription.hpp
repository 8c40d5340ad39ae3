// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

#include <optional>

namespace fabriclab::model {

/// The leaf that sets a fabric's oversubscription, and what it has on either side.
struct LeafRatio {
    NodeId leaf;
    double ratio = 1;    ///< downGbps / upGbps, at least 1.0
    double downGbps = 0; ///< to its servers
    double upGbps = 0;   ///< to spines and cores
    int downCables = 0;
    int upCables = 0;
};

/// The leaf with the worst downlink : uplink bandwidth; nullopt as for leafOversubscription.
std::optional<LeafRatio> worstLeaf(const Topology& topology);

/// The worst leaf's downlink : uplink bandwidth (2.0 for 2:1), at least 1.0. Only leaves
/// with both servers and uplinks are measured; nullopt when there is no such leaf (no
/// leaves, or a single switch with nothing above it), since any ratio would be made up.
std::optional<double> leafOversubscription(const Topology& topology);

} // namespace fabriclab::model
