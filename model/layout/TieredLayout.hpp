// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

namespace fabriclab::model {

/// Scene units between neighbouring servers, and the least between tiers.
inline constexpr double kServerSpacing = 40;
inline constexpr double kTierSpacing = 160;
/// The least between neighbouring switches: the canvas draws a switch 104 units wide, so a
/// row of switches wider than the server row (a few NVL72 racks under eight rail leaves)
/// sets the width instead of overlapping.
inline constexpr double kSwitchSpacing = 112;

/// Places nodes in rows by role (core on top, then spines, leaves, servers at the bottom),
/// each row ordered by pod, group and rail and centred over the server row, so generated
/// fabrics read like the diagrams architects draw. A pure function of the topology.
void layoutTiers(Topology& topology);

} // namespace fabriclab::model
