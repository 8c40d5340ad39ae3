// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/ScalingRunner.hpp"

#include "model/core/Cancellation.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/EnginePool.hpp"
#include "views/sim/SimulationController.hpp"

#include <QtConcurrent/QtConcurrentRun>

namespace fabriclab::views {

ScalingRunner::ScalingRunner(TopologyDocument& document, SimulationController& simulation,
                             QObject* parent)
    : QObject(parent), m_document(document), m_simulation(simulation) {
    qRegisterMetaType<ScalingStudyPtr>();
    connect(&m_simulation, &SimulationController::resultReady, this, [this](const RunResultPtr& r) {
        if (r->ok() && r->revision == m_simulation.revision())
            start();
    });
    connect(&m_document, &TopologyDocument::changed, this, [this] { m_stop.request_stop(); });
    m_watcher.setObjectName(QStringLiteral("scalingStudy"));
    connect(&m_watcher, &QFutureWatcher<ScalingStudyPtr>::finished, this, &ScalingRunner::finished);
}

ScalingRunner::~ScalingRunner() {
    m_stop.request_stop();
    m_watcher.waitForFinished();
}

void ScalingRunner::start() {
    if (m_watcher.isRunning()) {
        // Never wait on the GUI thread: stop the old study and start once it has let go.
        m_stop.request_stop();
        m_restart = true;
        return;
    }
    m_stop = std::stop_source();
    m_running = m_simulation.revision();
    m_error.clear();
    Q_EMIT started();
    model::ScalingOptions options;
    options.stop = m_stop.get_token();
    // Snapshot on the GUI thread; the catalog is immutable.
    m_watcher.setFuture(QtConcurrent::run(
        &enginePool(),
        [this, design = m_document.snapshot(), &catalog = m_document.catalog(),
         options]() -> ScalingStudyPtr {
            enterEngineThread();
            try {
                return std::make_shared<const model::ScalingStudy>(
                    model::scalingStudy(*design, catalog, options));
            } catch (const model::Cancelled&) {
                return nullptr;
            } catch (const std::exception& e) {
                m_error = QString::fromStdString(e.what()); // read after finished()
                return nullptr;
            }
        }));
}

void ScalingRunner::finished() {
    if (m_restart) {
        m_restart = false;
        start();
        return;
    }
    if (m_running != m_simulation.revision())
        return; // overtaken by an edit
    const ScalingStudyPtr study = m_watcher.result();
    if (study)
        Q_EMIT studyReady(study);
    else if (!m_error.isEmpty())
        Q_EMIT failed(m_error);
}

} // namespace fabriclab::views
