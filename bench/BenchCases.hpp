// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The benchmark cases: the same flows through FabricLab and through SimGrid.
#pragma once

#include "bench/Measure.hpp"

#include <cstddef>
#include <functional>
#include <string>

namespace fabriclab::bench {

struct BenchOptions {
    bool quick = false;         ///< tiny versions of every case (smoke test)
    int repeat = 0;             ///< runs per side; 0 picks each case's default
    std::string cases = "abcd"; ///< which cases to run
    /// Case d: larger sizes skip SimGrid, whose solve grows faster than linearly (about a
    /// minute for a million flows on a 2-core VM).
    std::size_t simgridMaxFlows = std::size_t{1} << 18;
};

struct CaseResult {
    std::string id; ///< "a", "b", "c", "d1K", ...
    std::string title;
    std::string timed;     ///< what each side's time covers
    std::size_t pairs = 0; ///< flows of the pattern
    std::size_t flows = 0; ///< of which cross the fabric (given to both solvers)
    SideResult fabriclab;
    SideResult simgrid;
    std::string simgridSkipped; ///< why SimGrid did not run, when it did not
    double agreement = -1;      ///< max relative difference per flow; -1: not compared
    std::string compared;       ///< "rates" or "finish times"
    double targetMs = 0;        ///< FabricLab's target; 0: none
    double targetMb = 0;
    bool curve = false; ///< a point of case d's solve-time curve
};

/// Runs the selected cases in order, calling `done` after each (for progress output).
void runCases(const BenchOptions& options, const std::function<void(const CaseResult&)>& done);

} // namespace fabriclab::bench
