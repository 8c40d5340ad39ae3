// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/SharedBisection.hpp"

#include "model/core/Cancellation.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/EnginePool.hpp"

#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <thread>

namespace fabriclab::views {

SharedBisection& SharedBisection::of(TopologyDocument& document) {
    if (auto* existing =
            document.findChild<SharedBisection*>(QString(), Qt::FindDirectChildrenOnly))
        return *existing;
    return *new SharedBisection(document);
}

SharedBisection::SharedBisection(TopologyDocument& document)
    : QObject(&document), m_document(document) {
    connect(&document, &TopologyDocument::changed, this, [this] {
        m_stop.request_stop();
        m_stop = std::stop_source();
        m_started = false;
    });
}

SharedBisection::~SharedBisection() {
    m_stop.request_stop();
    m_future.waitForFinished();
}

QFuture<SharedBisection::Result> SharedBisection::current() {
    if (!m_started) {
        m_started = true;
        ++m_count;
        m_future = QtConcurrent::run(
            &enginePool(), [design = m_document.snapshot(), stop = m_stop.get_token()]() -> Result {
                enterEngineThread();
                try {
                    // What-if failures count: the bar shows the fabric as it runs.
                    if (design->failures.empty())
                        return model::theoreticalBisection(design->topology, stop);
                    return model::theoreticalBisection(
                        model::afterFailures(design->topology, design->failures), stop);
                } catch (const model::Cancelled&) {
                    return std::nullopt;
                }
            });
    }
    return m_future;
}

model::BisectionResult SharedBisection::await(QFuture<Result> future, std::stop_token stop) {
    // Another thread is at it: look at `stop` while it works. A task no thread has
    // started yet runs here (QFuture::waitForFinished takes it off the pool's queue),
    // or a worker waiting on a queued task of its own pool would hold a thread it needs.
    constexpr auto kPoll = std::chrono::milliseconds(2);
    while (!future.isFinished()) {
        model::throwIfStopped(stop);
        if (!future.isStarted()) {
            future.waitForFinished();
            break;
        }
        std::this_thread::sleep_for(kPoll);
    }
    const Result result = future.result();
    if (!result)
        throw model::Cancelled();
    return *result;
}

} // namespace fabriclab::views
