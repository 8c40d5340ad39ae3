// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The benchmark's tables, printed once every case has run.
#pragma once

#include "bench/BenchCases.hpp"

#include <cstdio>
#include <vector>

namespace fabriclab::bench {

/// Prints the case table, case d's solve-time curve and notes on what each time covers.
/// `baselineMb` is the peak memory of a child that does nothing (libraries, runtime).
void printReport(std::FILE* out, const std::vector<CaseResult>& rows, const BenchOptions& options,
                 double baselineMb);

/// One line for stderr while the cases run.
void printProgress(std::FILE* out, const CaseResult& row);

} // namespace fabriclab::bench
