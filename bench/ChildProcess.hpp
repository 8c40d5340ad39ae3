// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Running one side of a measurement in a forked child. SimGrid allows one engine per
// process, for the life of the process, so every SimGrid run needs a process of its own;
// and a child's peak resident memory is that of one case alone, not the high-water mark
// of everything the parent ran before.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace fabriclab::bench {

struct ChildOutcome {
    std::vector<double> values; ///< what the body returned
    std::string error;          ///< empty on success: the exception, the signal or the exit status
    double peakRssMb = 0;       ///< the child's peak resident set (wait4 ru_maxrss)

    bool ok() const { return error.empty(); }
};

/// Forks, runs `body` in the child and sends its numbers back through a pipe; the child
/// then leaves with _exit, without running destructors or atexit handlers (a SimGrid
/// engine is never torn down: the exit reclaims it at once). Call it from a parent that
/// holds little memory, since a child starts with its parent's resident pages.
ChildOutcome runInChild(const std::function<std::vector<double>()>& body);

} // namespace fabriclab::bench
