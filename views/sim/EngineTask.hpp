// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/sim/EnginePool.hpp"

#include <QFuture>
#include <QMetaObject>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace fabriclab::views {

/// Runs `work()` on an engine thread and hands what it returns to `deliver`, called on
/// `receiver`'s thread through the receiver's event queue (dropped if the receiver has
/// gone). The future returned is for waiting only: the receiver waits for it before it
/// goes, since `work` may read what the receiver owns.
///
/// Why not QtConcurrent::run and a QFutureWatcher: the watcher's thread locks the future
/// when a result arrives, while the engine's thread is still inside the future's lock
/// reporting it. The GUI thread, woken by the report, preempted the engine's thread (its
/// priority is lower, see enterEngineThread()) there and then waited for it to be
/// scheduled again: up to 18 ms per result, and GUI stalls of 80 ms with the cores busy.
/// Here the two threads share no lock but the event queue's.
template <typename Work, typename Deliver>
QFuture<void> runForReceiver(QThreadPool& pool, QObject* receiver, Work work, Deliver deliver) {
    return QtConcurrent::run(
        &pool, [receiver, work = std::move(work), deliver = std::move(deliver)]() mutable {
            enterEngineThread();
            QMetaObject::invokeMethod(
                receiver,
                [deliver = std::move(deliver), result = work()]() mutable {
                    deliver(std::move(result));
                },
                Qt::QueuedConnection);
        });
}

/// runForReceiver() on the engine's threads.
template <typename Work, typename Deliver>
QFuture<void> runForReceiver(QObject* receiver, Work work, Deliver deliver) {
    return runForReceiver(enginePool(), receiver, std::move(work), std::move(deliver));
}

} // namespace fabriclab::views
