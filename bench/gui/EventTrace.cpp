// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/gui/EventTrace.hpp"

#include <chrono>

#include <QEvent>
#include <QJsonObject>
#include <QMetaEnum>

#include <algorithm>
#include <ctime>
#include <sys/resource.h>

namespace fabriclab::bench {
namespace {

QString eventName(QEvent::Type type) {
    const char* name = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
    return name ? QString::fromLatin1(name) : QString::number(type);
}

/// The nearest FabricLab object holding `object` (itself included): a QLabel or a QTimer
/// alone does not say which panel was busy. Class names are static, so they outlive a
/// receiver its handler deletes.
const char* fabriclabOwner(const QObject* object) {
    for (; object; object = object->parent())
        if (const char* name = object->metaObject()->className();
            QByteArrayView(name).startsWith("fabriclab::"))
            return name;
    return nullptr;
}

} // namespace

qint64 threadCpuNs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<qint64>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

ThreadSwitches threadSwitches() {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return {usage.ru_nvcsw, usage.ru_nivcsw};
}

qint64 steadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

TracingApplication::TracingApplication(int& argc, char** argv) : QApplication(argc, argv) {
    m_clock.start();
}

void TracingApplication::startTracing(double thresholdMs) {
    m_thresholdMs = thresholdMs;
    m_slow.clear();
    m_tracingSinceNs = steadyNs();
    m_tracing = true;
}

bool TracingApplication::notify(QObject* receiver, QEvent* event) {
    if (!m_tracing)
        return QApplication::notify(receiver, event);
    // Noted before delivery (the handler may delete both), building no string: the name is
    // the receiver's own, shared.
    const QEvent::Type type = event->type();
    const char* className = receiver->metaObject()->className();
    const char* owner = fabriclabOwner(receiver);
    // Which of a controller's watchers or timers: they are named where it matters.
    const QString name = receiver->objectName();
    const qint64 start = m_clock.nsecsElapsed();
    const qint64 cpuStart = threadCpuNs();
    ++m_depth;
    const bool handled = QApplication::notify(receiver, event);
    --m_depth;
    const double ms = static_cast<double>(m_clock.nsecsElapsed() - start) / 1e6;
    if (ms >= m_thresholdMs) {
        const double cpuMs = static_cast<double>(threadCpuNs() - cpuStart) / 1e6;
        QString who = QString::fromLatin1(className);
        if (!name.isEmpty())
            who += QStringLiteral(" '%1'").arg(name);
        if (owner && owner != className)
            who += QStringLiteral(" in ") + QString::fromLatin1(owner);
        m_slow.push_back({ms, cpuMs, m_depth, eventName(type), who, steadyNs()});
    }
    return handled;
}

namespace {

QJsonObject toJson(const SlowEvent& e, qint64 tracingSinceNs) {
    return QJsonObject{
        {QStringLiteral("endMs"), static_cast<double>(e.endNs - tracingSinceNs) / 1e6},
        {QStringLiteral("ms"), e.ms},
        {QStringLiteral("cpuMs"), e.cpuMs},
        {QStringLiteral("depth"), e.depth},
        {QStringLiteral("event"), e.event},
        {QStringLiteral("receiver"), e.receiver}};
}

} // namespace

QJsonArray TracingApplication::within(qint64 beginNs, qint64 endNs) const {
    QJsonArray out;
    for (const SlowEvent& e : m_slow) {
        const auto startNs = e.endNs - static_cast<qint64>(e.ms * 1e6);
        if (e.depth == 0 && e.endNs >= beginNs && startNs <= endNs)
            out.append(toJson(e, m_tracingSinceNs));
    }
    return out;
}

QJsonArray TracingApplication::slowest(int count) const {
    std::vector<SlowEvent> sorted = m_slow;
    std::sort(sorted.begin(), sorted.end(),
              [](const SlowEvent& a, const SlowEvent& b) { return a.ms > b.ms; });
    QJsonArray out;
    for (std::size_t i = 0; i < sorted.size() && static_cast<int>(i) < count; ++i)
        out.append(toJson(sorted[i], m_tracingSinceNs));
    return out;
}

} // namespace fabriclab::bench
