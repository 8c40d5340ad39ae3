// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

#include <optional>

namespace fabriclab::model {

/// The worst leaf's downlink : uplink bandwidth (2.0 for 2:1), at least 1.0. Only leaves
/// with both servers and uplinks are measured; nullopt when there is no such leaf (no
/// leaves, or a single switch with nothing above it), since any ratio would be made up.
std::optional<double> leafOversubscription(const Topology& topology);

} // namespace fabriclab::model
