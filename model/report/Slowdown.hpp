// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Design.hpp"
#include "model/report/RunReport.hpp"

#include <string>
#include <vector>

namespace fabriclab::model {

/// One sentence of "why is this slower?", with the elements it speaks of so a view can
/// point at them.
struct SlowdownReason {
    std::string text;
    std::vector<LinkId> links;
    std::vector<NodeId> nodes;
};

/// Why the design's collective and step run as they do, most telling first, from what
/// the run computed: the collective against what the servers' NICs carry; the tiers
/// whose links the playback finds saturated, and for how much of the collective's time;
/// leaf oversubscription; what static ECMP loses to hash collisions; what failures take
/// out; the communication the step waits on. Nothing is simulated again.
std::vector<SlowdownReason> explainSlowdown(const Design& design, const RunReport& report);

} // namespace fabriclab::model
