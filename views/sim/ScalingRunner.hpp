// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/report/ScalingStudy.hpp"

#include <QFutureWatcher>
#include <QObject>

#include <memory>
#include <stop_token>

namespace fabriclab::views {

class SimulationController;
class TopologyDocument;

using ScalingStudyPtr = std::shared_ptr<const model::ScalingStudy>;

/// Runs the scaling study (model::scalingStudy: the design at several sizes on its fabric
/// and a comparison fabric) on a worker once the design's own results are current, so it
/// never delays them. An edit stops it; the next current result starts it again. A study
/// reaches the views only for the revision it was started for.
class ScalingRunner : public QObject {
    Q_OBJECT

public:
    ScalingRunner(TopologyDocument& document, SimulationController& simulation,
                  QObject* parent = nullptr);
    ~ScalingRunner() override;

    bool isRunning() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void started();
    void studyReady(const fabriclab::views::ScalingStudyPtr& study);
    /// The engine could not run the study (a fabric it cannot evaluate, ...).
    void failed(const QString& reason);

private:
    void start();
    void finished();

    TopologyDocument& m_document;
    SimulationController& m_simulation;
    QFutureWatcher<ScalingStudyPtr> m_watcher;
    std::stop_source m_stop;
    quint64 m_running = 0;
    bool m_restart = false; ///< a newer result came while a study ran
    QString m_error;        ///< set by the worker, read once it has finished
};

} // namespace fabriclab::views
