// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

namespace fabriclab::model {

/// The worst leaf's downlink : uplink bandwidth (2.0 for 2:1). A leaf with no uplinks in
/// a design with more than one leaf is not counted (it is unconnected, a problem of its
/// own); 1.0 when there are no leaves or a single one.
double leafOversubscription(const Topology& topology);

} // namespace fabriclab::model
