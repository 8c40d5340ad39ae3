// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/EnginePool.hpp"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace fabriclab::views {
namespace {

/// Nice value of engine threads on Linux: well below the GUI thread's share
/// (a nice-0 thread weighs about nine times a nice-10 one) yet never starved.
constexpr int kEngineNice = 10;

} // namespace

QThreadPool& enginePool() {
    // One thread a core by default, as the global pool has. Destroyed at exit after the
    // controllers, whose destructors stop their runs and wait for them.
    static QThreadPool pool;
    return pool;
}

void enterEngineThread() {
    thread_local bool lowered = false;
    if (lowered)
        return;
    lowered = true;
#if defined(__linux__)
    // QThread priorities do nothing under Linux's default scheduler; a nice value does,
    // and on Linux it belongs to the calling thread alone.
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kEngineNice);
#else
    QThread::currentThread()->setPriority(QThread::LowPriority);
#endif
}

void destroyOffGuiThread(std::function<void()> destroy) {
    const QCoreApplication* app = QCoreApplication::instance();
    if (app == nullptr || QThread::currentThread() != app->thread()) {
        destroy();
        return;
    }
    // Ahead of queued engine work: memory is given back soon, not after the next run.
    constexpr int kBeforeEngineWork = 1;
    enginePool().start(
        [destroy = std::move(destroy)] {
            enterEngineThread();
            destroy();
        },
        kBeforeEngineWork);
}

} // namespace fabriclab::views
