// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/FlowSolver.hpp"

#include <cstdint>
#include <vector>

namespace fabriclab::sim {

/// Progressive filling driven by a min-heap of constraint fair levels R_c / W_c, where
/// R_c is the capacity left and W_c the penalty-weighted consumption of the variables
/// still growing. Each variable is frozen once; freezing it updates its constraints and
/// pushes their new levels (stale heap entries are skipped by version), so a solve costs
/// O(elements x log constraints) instead of a rescan of every constraint per round.
class HeapFlowSolver final : public FlowSolver {
private:
    void doSolve() override;
    void index();

    /// Element indices grouped by variable and by constraint (counting sort), rebuilt
    /// only when the structure changes: event-driven runs toggle flows between solves.
    std::vector<std::uint32_t> m_variableStart;
    std::vector<std::uint32_t> m_variableElements;
    std::vector<std::uint32_t> m_constraintStart;
    std::vector<std::uint32_t> m_constraintElements;
    std::uint64_t m_indexedVersion = ~std::uint64_t{0};
};

} // namespace fabriclab::sim
