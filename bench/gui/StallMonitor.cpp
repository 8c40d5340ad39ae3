// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/gui/StallMonitor.hpp"

#include <algorithm>

namespace fabriclab::bench {

StallMonitor::StallMonitor(QObject* parent) : QObject(parent) {
    m_timer.setInterval(kIntervalMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        const qint64 now = m_clock.nsecsElapsed();
        const double gapMs = static_cast<double>(now - m_last) / 1e6;
        note(gapMs);
        m_last = now;
    });
}

void StallMonitor::start() {
    m_clock.start();
    m_last = 0;
    m_longest = 0;
    m_timer.start();
}

void StallMonitor::stop() {
    if (!m_timer.isActive())
        return;
    m_timer.stop();
    note(static_cast<double>(m_clock.nsecsElapsed() - m_last) / 1e6);
}

void StallMonitor::note(double gapMs) {
    m_longest = std::max(m_longest, gapMs - kIntervalMs);
}

} // namespace fabriclab::bench
