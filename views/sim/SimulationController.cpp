// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/SimulationController.hpp"

#include "model/core/Cancellation.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/sim/EnginePool.hpp"
#include "views/sim/EngineTask.hpp"
#include "views/sim/SharedBisection.hpp"

#include <chrono>
#include <functional>

namespace fabriclab::views {
namespace {

/// The worker: the engine on a snapshot, never the live document. No result if stopped.
RunResultPtr runSnapshot(quint64 revision, std::shared_ptr<const model::Design> design,
                         const model::Catalog& catalog, QFuture<SharedBisection::Result> bisection,
                         std::stop_token stop, const std::function<void(int, QString)>& report) {
    auto result = std::make_unique<RunResult>();
    result->revision = revision;
    const auto started = std::chrono::steady_clock::now();
    model::RunOptions options;
    options.detail = true;
    // What can be computed is shown; a part that cannot (a workload that no longer fits
    // the GPUs) blanks its own charts, not all of them.
    options.partial = true;
    options.bisectionSeeds = model::interactiveBisectionSeeds(design->topology.serverCount());
    options.stop = stop;
    options.theoretical = [&] { return SharedBisection::await(bisection, stop); };
    options.progress = [&report](const model::RunProgress& p) {
        report(p.permille, QString::fromUtf8(p.stage.data(), static_cast<int>(p.stage.size())));
    };
    try {
        result->report = model::runDesign(*design, catalog, options);
    } catch (const model::Cancelled&) {
        return nullptr;
    } catch (const std::exception& e) {
        result->error = QString::fromStdString(e.what());
    }
    result->wallMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    result->design = std::move(design);
    return shareFreedOffGuiThread(std::move(result));
}

} // namespace

SimulationController::SimulationController(TopologyDocument& document, QObject* parent)
    : QObject(parent), m_document(document) {
    qRegisterMetaType<RunResultPtr>();
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &SimulationController::start);
    connect(&m_document, &TopologyDocument::changed, this, &SimulationController::edited);
    m_debounce.start();
}

SimulationController::~SimulationController() {
    m_stop.request_stop();
    m_task.waitForFinished();
}

void SimulationController::edited() {
    ++m_revision;
    setState(State::Stale);
    if (m_busy)
        m_stop.request_stop(); // the engine lets go within milliseconds
    if (!m_live)
        return;
    // Leading edge: a lone edit after a quiet spell runs at once (next turn of the event
    // loop, so the edits of one undo macro count as one); edits that follow closely, a
    // slider drag or a burst of undos, wait for a pause of kDebounceMs.
    const bool quiet = !m_lastEdit.isValid() || m_lastEdit.elapsed() >= kDebounceMs;
    m_lastEdit.start();
    m_debounce.start(quiet && !m_busy ? 0 : kDebounceMs);
}

void SimulationController::run() {
    m_debounce.stop();
    start();
}

void SimulationController::cancel() {
    m_debounce.stop();
    m_restart = false;
    if (!m_busy)
        return;
    m_stop.request_stop();
    m_cancelled = true;
    setState(State::Cancelled);
}

void SimulationController::setLive(bool live) {
    if (m_live == live)
        return;
    m_live = live;
    Q_EMIT liveChanged(live);
    if (live && m_state == State::Stale)
        m_debounce.start(kDebounceMs);
}

void SimulationController::start() {
    if (m_busy) {
        // One run at a time: the one in flight is for an older revision; stop it and
        // start over once it has.
        m_stop.request_stop();
        m_restart = true;
        return;
    }
    if (m_result && m_result->revision == m_revision && m_state != State::Cancelled)
        return; // already current
    m_stop = std::stop_source();
    m_running = m_revision;
    m_busy = true;
    m_cancelled = false;
    setState(State::Running);
    Q_EMIT progress(0, tr("starting"));
    // The snapshot is taken here, on the GUI thread, and shared with the status bar's
    // figures, as is the theoretical bisection; the catalog is immutable.
    // Progress is posted to this object, not kept in the run's promise: reading a promise's
    // progress text takes the promise's lock, which the engine's thread (at its lower
    // priority) could hold while preempted, and the GUI thread waited up to 13 ms for it
    // with the cores busy. The destructor waits for the run, so `this` outlives the posts.
    auto report = [this, revision = m_revision](int permille, QString stage) {
        QMetaObject::invokeMethod(
            this,
            [this, revision, permille, stage = std::move(stage)] {
                if (m_running == revision && m_busy)
                    Q_EMIT progress(permille, stage);
            },
            Qt::QueuedConnection);
    };
    m_task = runForReceiver(
        this,
        [revision = m_revision, design = m_document.snapshot(), &catalog = m_document.catalog(),
         bisection = SharedBisection::of(m_document).current(), stop = m_stop.get_token(),
         report = std::move(report)] {
            return runSnapshot(revision, design, catalog, bisection, stop, report);
        },
        [this](RunResultPtr result) { finished(std::move(result)); });
}

void SimulationController::finished(RunResultPtr result) {
    m_busy = false;
    if (result && !m_cancelled && m_running == m_revision) {
        m_result = std::move(result);
        setState(m_result->ok() ? State::Current : State::Failed);
        Q_EMIT resultReady(m_result);
        if (m_live && m_result->wallMilliseconds > kLiveLimitMs) {
            setLive(false);
            Q_EMIT message(tr("This design takes %1 s to simulate: live updates are off. "
                              "Press F5 to run it after editing.")
                               .arg(numberText(m_result->wallMilliseconds / 1000, 1)));
        }
    }
    if (m_restart || (m_live && m_running != m_revision && !m_debounce.isActive())) {
        m_restart = false;
        start();
    }
}

void SimulationController::setState(State state) {
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

} // namespace fabriclab::views
