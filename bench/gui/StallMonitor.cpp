// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/gui/StallMonitor.hpp"

#include "bench/gui/EventTrace.hpp"

namespace fabriclab::bench {

StallMonitor::StallMonitor(QObject* parent) : QObject(parent) {
    m_timer.setInterval(kIntervalMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &StallMonitor::note);
}

void StallMonitor::start() {
    m_lastNs = steadyNs();
    m_longest = 0;
    m_longestBeginNs = m_longestEndNs = m_lastNs;
    m_timer.start();
}

void StallMonitor::stop() {
    if (!m_timer.isActive())
        return;
    m_timer.stop();
    note();
}

void StallMonitor::note() {
    const qint64 now = steadyNs();
    const double stallMs = static_cast<double>(now - m_lastNs) / 1e6 - kIntervalMs;
    if (stallMs > m_longest) {
        m_longest = stallMs;
        m_longestBeginNs = m_lastNs;
        m_longestEndNs = now;
    }
    m_lastNs = now;
}

} // namespace fabriclab::bench
