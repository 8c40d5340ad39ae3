// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QTimer>

#include <vector>

namespace fabriclab::bench {

/// Measures how long the GUI thread stays away from its event loop: a fine timer that
/// should fire every few milliseconds notes the longest gap between two of its firings,
/// from start() to stop(), so that what the bench does afterwards does not count.
class StallMonitor : public QObject {
    Q_OBJECT

public:
    static constexpr int kIntervalMs = 2;
    /// How many of the longest stalls are kept, so a profile shows more than the worst.
    static constexpr std::size_t kStallsKept = 6;

    /// One gap between two firings: how long, and when it began and ended, steadyNs().
    struct Stall {
        double ms = 0;
        qint64 beginNs = 0;
        qint64 endNs = 0;
        double cpuMs = 0;   ///< of which the GUI thread ran
        long waited = 0;    ///< times it gave up the processor to wait meanwhile
        long preempted = 0; ///< times the scheduler took the processor from it
    };

    explicit StallMonitor(QObject* parent = nullptr);
    void start();
    /// Ends the measurement; a gap still open (stop() called from a long task) counts.
    void stop();
    /// The longest the event loop was kept from running, ms (gap less the interval).
    double longestStallMs() const { return m_stalls.empty() ? 0 : m_stalls.front().ms; }
    /// The longest stalls, longest first.
    const std::vector<Stall>& longestStalls() const { return m_stalls; }

private:
    void note();

    QTimer m_timer;
    qint64 m_lastNs = 0;
    qint64 m_lastCpuNs = 0;
    long m_lastWaited = 0;
    long m_lastPreempted = 0;
    std::vector<Stall> m_stalls;
};

} // namespace fabriclab::bench
