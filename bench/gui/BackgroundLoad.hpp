// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <sys/types.h>

#include <vector>

namespace fabriclab::bench {

/// Busy processes beside the app, as other programs on a loaded machine (a build, a
/// second app): each keeps one core busy from start() until stop(), in a session of its
/// own as such a program has.
///
/// They are forked when constructed, while the bench is still small, and wait on a pipe
/// until start(). They never outlive the bench: stop() and the destructor kill them and
/// reap them, and each one asks the kernel to kill it should the bench end any other way
/// (a crash, a signal). Linux only; elsewhere the constructor throws for any count but 0.
class BackgroundLoad {
public:
    /// Forks `processes` idle children. Throws std::runtime_error when one cannot be
    /// forked (those already forked are killed).
    explicit BackgroundLoad(int processes);
    ~BackgroundLoad();
    BackgroundLoad(const BackgroundLoad&) = delete;
    BackgroundLoad& operator=(const BackgroundLoad&) = delete;

    /// Sets every child spinning; false (errno set) when they cannot be reached.
    bool start();
    /// Kills and reaps every child; later calls do nothing.
    void stop();
    int processes() const { return static_cast<int>(m_children.size()); }

private:
    std::vector<pid_t> m_children;
    int m_go = -1; ///< write end of the pipe the children wait on
};

} // namespace fabriclab::bench
