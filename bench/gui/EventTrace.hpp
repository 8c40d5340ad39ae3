// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QString>

#include <vector>

namespace fabriclab::bench {

/// One event the GUI thread took long over: what it was, who received it, and for how long.
struct SlowEvent {
    double ms = 0;    ///< wall-clock time in the handler
    double cpuMs = 0; ///< of which the GUI thread ran: the rest it was waiting or preempted
    int depth = 0;    ///< 0 for an event the loop delivered, 1+ for one sent from inside another
    QString event;    ///< QEvent::Type by name ("MetaCall", "Paint", "LayoutRequest", ...)
    QString receiver; ///< the receiver's class, then the nearest FabricLab object holding it
    qint64 endNs = 0; ///< when the handler returned, steadyNs()
};

/// A monotonic time in ns shared by the trace and the stall monitor, so a stall's window
/// can be matched with the events that filled it.
qint64 steadyNs();
/// CPU time of the calling thread, ns: set against wall time it tells work from waiting.
qint64 threadCpuNs();
/// How often the calling thread has given up the processor so far: to wait (a lock, a
/// sleep) or because the scheduler preempted it.
struct ThreadSwitches {
    long waited = 0;
    long preempted = 0;
};
ThreadSwitches threadSwitches();

/// QApplication that times every event it delivers, so a stall can be put down to the
/// handler that held the GUI thread: the profile fabriclab-gui-bench prints with
/// --trace-slow. Off until startTracing(); costs clock reads and the receiver's name (a
/// shared string, not a copy) per event.
class TracingApplication : public QApplication {
public:
    TracingApplication(int& argc, char** argv);

    /// Records, from now until stopTracing(), every delivery longer than `thresholdMs`.
    void startTracing(double thresholdMs);
    void stopTracing() { m_tracing = false; }
    /// The slowest `count` deliveries seen, longest first, as JSON objects.
    QJsonArray slowest(int count) const;
    /// The deliveries of depth 0 that overlapped [beginNs, endNs], in the order they ran:
    /// what kept the loop away during one stall.
    QJsonArray within(qint64 beginNs, qint64 endNs) const;

    bool notify(QObject* receiver, QEvent* event) override;

private:
    bool m_tracing = false;
    double m_thresholdMs = 0;
    qint64 m_tracingSinceNs = 0; ///< events report when they ended from here (endMs)
    int m_depth = 0;
    QElapsedTimer m_clock;
    std::vector<SlowEvent> m_slow;
};

} // namespace fabriclab::bench
