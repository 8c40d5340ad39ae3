// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/FabricNetwork.hpp"

#include <optional>
#include <stop_token>

namespace fabriclab::sim {

/// The adversarial pattern of a dragonfly: every server of group g sends, on every NIC, to
/// the server in the same place in group g + 1 (the last group to the first), so each pair
/// of neighbouring groups' direct global links carry a whole group's injection. It is where
/// minimal, Valiant and UGAL routing part (docs/reference/design-space.md §2).
struct GroupShift {
    double offeredGbps = 0; ///< what the NICs inject
    /// The most any routing can deliver: a flow crosses its groups' direct global links or
    /// at least two global links, so at most (direct + all global) / 2, and at most offered.
    double capacityGbps = 0;
    double deliveredGbps = 0; ///< at the flows' max-min fair rates, every flow active at once
};

/// The pattern on `network` under its own routing; nothing on a fabric without three groups
/// (routing::dragonflyGroups). Polls `stop` while routing and solving.
std::optional<GroupShift> groupShift(const FabricNetwork& network, std::stop_token stop = {});

} // namespace fabriclab::sim
