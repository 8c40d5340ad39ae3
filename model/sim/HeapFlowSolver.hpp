// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/FlowSolver.hpp"

namespace fabriclab::sim {

/// Progressive filling driven by a min-heap of constraint fair levels R_c / W_c, where
/// R_c is the capacity left and W_c the penalty-weighted consumption of the variables
/// still growing. Each variable is frozen once; freezing it updates its constraints and
/// pushes their new levels (stale heap entries are skipped by version), so a solve costs
/// O(elements x log constraints) instead of a rescan of every constraint per round.
class HeapFlowSolver final : public FlowSolver {
private:
    void doSolve() override;
};

} // namespace fabriclab::sim
