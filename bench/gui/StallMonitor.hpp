// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace fabriclab::bench {

/// Measures how long the GUI thread stays away from its event loop: a fine timer that
/// should fire every few milliseconds notes the longest gap between two of its firings,
/// from start() to stop(), so that what the bench does afterwards does not count.
class StallMonitor : public QObject {
    Q_OBJECT

public:
    static constexpr int kIntervalMs = 2;

    explicit StallMonitor(QObject* parent = nullptr);
    void start();
    /// Ends the measurement; a gap still open (stop() called from a long task) counts.
    void stop();
    /// The longest the event loop was kept from running, ms (gap less the interval).
    double longestStallMs() const { return m_longest; }

private:
    void note(double gapMs);

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    double m_longest = 0;
};

} // namespace fabriclab::bench
