// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// One side (FabricLab or SimGrid) of one benchmark case: run in fresh child processes,
// repeated, summarized by the median run.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace fabriclab::bench {

/// What one run of a side reports.
struct Sample {
    double seconds = 0;             ///< the timed region, wall clock
    double setupSeconds = 0;        ///< untimed preparation worth reporting (routing, platform)
    double solveSeconds = 0;        ///< FabricLab: FlowSolver::solve() alone, inside `seconds`
    double makespan = 0;            ///< simulated seconds, for drains
    double makespanWithLatency = 0; ///< FabricLab's drains: with start-up latencies
    double events = 0;              ///< FabricLab's drains: solver runs
    double pairs = 0;               ///< flows of the traffic pattern
    double flows = 0;               ///< of which cross the fabric (the solvers' flows)
    std::vector<double> perFlow;    ///< rates (Gb/s) or finish times (s), to compare the sides
};

struct SideResult {
    bool ran = false;  ///< false: skipped or failed
    std::string error; ///< why it failed
    Sample median;     ///< the run with the median time
    double peakMb = 0; ///< largest peak resident set over the runs
};

/// Runs `body` `runs` times, each in a fresh child process (see runInChild), and keeps
/// the run with the median time. Stops at the first failure.
SideResult measureSide(int runs, const std::function<Sample()>& body);

/// Largest |a - b| / max(|a|, |b|) over the flows (0 where both are 0); infinity when
/// the lengths differ.
double maxRelativeDifference(const std::vector<double>& a, const std::vector<double>& b);

/// Seconds since `start` on the steady clock, for the timed regions.
double elapsedSince(double start);
double clockSeconds();

} // namespace fabriclab::bench
