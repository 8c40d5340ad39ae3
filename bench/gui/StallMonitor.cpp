// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/gui/StallMonitor.hpp"

#include "bench/gui/EventTrace.hpp"

#include <algorithm>

namespace fabriclab::bench {

StallMonitor::StallMonitor(QObject* parent) : QObject(parent) {
    m_timer.setInterval(kIntervalMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &StallMonitor::note);
}

void StallMonitor::start() {
    m_lastNs = steadyNs();
    m_lastCpuNs = threadCpuNs();
    const ThreadSwitches switches = threadSwitches();
    m_lastWaited = switches.waited;
    m_lastPreempted = switches.preempted;
    m_stalls.clear();
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
    const qint64 cpuNow = threadCpuNs();
    const ThreadSwitches switches = threadSwitches();
    const double stallMs = static_cast<double>(now - m_lastNs) / 1e6 - kIntervalMs;
    const auto longer = [](const Stall& a, const Stall& b) { return a.ms > b.ms; };
    if (m_stalls.size() < kStallsKept || stallMs > m_stalls.back().ms) {
        const Stall stall{stallMs,
                          m_lastNs,
                          now,
                          static_cast<double>(cpuNow - m_lastCpuNs) / 1e6,
                          switches.waited - m_lastWaited,
                          switches.preempted - m_lastPreempted};
        m_stalls.insert(std::upper_bound(m_stalls.begin(), m_stalls.end(), stall, longer), stall);
        if (m_stalls.size() > kStallsKept)
            m_stalls.pop_back();
    }
    m_lastNs = now;
    m_lastCpuNs = cpuNow;
    m_lastWaited = switches.waited;
    m_lastPreempted = switches.preempted;
}

} // namespace fabriclab::bench
