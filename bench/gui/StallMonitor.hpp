// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace fabriclab::bench {

/// Measures how long the GUI thread stays away from its event loop: a fine timer that
/// should fire every few milliseconds notes the longest gap between two of its firings.
class StallMonitor : public QObject {
    Q_OBJECT

public:
    static constexpr int kIntervalMs = 2;

    explicit StallMonitor(QObject* parent = nullptr);
    void start();
    /// The longest the event loop was kept from running, ms (gap less the interval).
    double longestStallMs() const { return m_longest; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    double m_longest = 0;
};

} // namespace fabriclab::bench
