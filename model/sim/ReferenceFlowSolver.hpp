// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/FlowSolver.hpp"

namespace fabriclab::sim {

/// The textbook progressive filling: each round rescans every constraint for the lowest
/// fair level and freezes what it limits. Slow on purpose-free simplicity; tests use it
/// to check HeapFlowSolver rate by rate.
class ReferenceFlowSolver final : public FlowSolver {
private:
    void doSolve() override;
};

} // namespace fabriclab::sim
