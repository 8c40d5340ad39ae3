// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

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
    /// When that longest stall began and ended, steadyNs().
    qint64 longestBeginNs() const { return m_longestBeginNs; }
    qint64 longestEndNs() const { return m_longestEndNs; }

private:
    void note();

    QTimer m_timer;
    qint64 m_lastNs = 0;
    double m_longest = 0;
    qint64 m_longestBeginNs = 0;
    qint64 m_longestEndNs = 0;
};

} // namespace fabriclab::bench
