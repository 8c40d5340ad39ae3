// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/CompareController.hpp"

#include "model/core/Cancellation.hpp"
#include "model/report/RunReport.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/EnginePool.hpp"

#include <QtConcurrent/QtConcurrentMap>

#include <vector>

namespace fabriclab::views {
namespace {

/// The options every fabric runs with: the full simulation (effective bisection, busbw,
/// step time) without the detail only the results view draws.
model::RunOptions runOptions(const QString& fabricId, std::stop_token stop) {
    model::RunOptions options;
    options.fabricId = fabricId.toStdString();
    options.detail = false;
    options.stop = std::move(stop);
    return options;
}

/// The worker: one fabric on the snapshot, never the live document.
CompareRow runFabric(const model::Design& design, const model::Catalog& catalog,
                     const QString& fabricId, std::stop_token stop) {
    CompareRow row;
    row.fabricId = fabricId;
    row.fabricName = fabricId;
    if (const model::Fabric* fabric = catalog.findFabric(fabricId.toStdString()))
        row.fabricName = QString::fromStdString(fabric->name);
    try {
        const model::RunReport report =
            model::runDesign(design, catalog, runOptions(fabricId, std::move(stop)));
        for (const std::string& warning : report.warnings)
            row.warnings << QString::fromStdString(warning);
        row.theoreticalBisectionGbps = report.bisection.minCut.value;
        row.effectiveBisectionGbps = report.effective.gbps;
        row.collectiveSeconds = report.collective.seconds;
        row.hasWorkload = report.step.has_value() && report.training.has_value();
        row.outcome = model::fabricOutcome(report);
    } catch (const model::Cancelled&) {
        // The whole comparison is dropped with it (the watcher was cancelled too).
        row.error = QStringLiteral("cancelled");
    } catch (const std::exception& e) {
        row.error = QString::fromStdString(e.what());
    }
    return row;
}

} // namespace

QStringList CompareController::fabricIds() {
    return {QStringLiteral("ib-ndr"),
            QStringLiteral("ib-xdr"),
            QStringLiteral("spectrum-x"),
            QStringLiteral("roce-v2"),
            QStringLiteral("roce-v2-untuned"),
            QStringLiteral("ethernet-tcp"),
            QStringLiteral("efa")};
}

CompareController::CompareController(TopologyDocument& document, QObject* parent)
    : QObject(parent), m_document(document) {
    qRegisterMetaType<CompareResultPtr>();
    connect(&m_document, &TopologyDocument::changed, this, &CompareController::edited);
    connect(&m_watcher, &QFutureWatcher<CompareRow>::progressValueChanged, this, [this](int done) {
        if (!m_watcher.isCanceled())
            Q_EMIT progress(done, m_watcher.progressMaximum());
    });
    connect(&m_watcher, &QFutureWatcher<CompareRow>::finished, this,
            &CompareController::runFinished);
}

CompareController::~CompareController() {
    m_stop.request_stop();
    m_watcher.cancel();
    m_watcher.waitForFinished();
}

QStringList CompareController::fabricsToRun() const {
    QStringList ids;
    for (const QString& id : fabricIds())
        if (m_document.catalog().findFabric(id.toStdString()))
            ids << id;
    return ids;
}

void CompareController::compare() {
    if (m_busy && m_running == m_revision && !m_watcher.isCanceled())
        return; // already comparing this revision
    start();
}

void CompareController::cancel() {
    m_restart = false;
    if (!m_busy)
        return;
    m_running = 0; // whatever arrives now belongs to no revision: nothing is shown
    m_stop.request_stop();
    m_watcher.cancel();
}

void CompareController::edited() {
    ++m_revision;
    if (m_busy) {
        // The runs are for a design that no longer exists: let them go (within
        // milliseconds, the engine polls the token) and deliver nothing.
        m_restart = false;
        m_stop.request_stop();
        m_watcher.cancel();
        setStale(true);
    } else if (m_result) {
        setStale(true);
    }
}

void CompareController::start() {
    if (m_busy) {
        // Runs for an older revision are still letting go; start over once they have,
        // so no two comparisons compete for the cores.
        m_stop.request_stop();
        m_watcher.cancel();
        m_restart = true;
        return;
    }
    const QStringList ids = fabricsToRun();
    m_stop = std::stop_source();
    m_running = m_revision;
    m_busy = true;
    Q_EMIT started();
    Q_EMIT progress(0, static_cast<int>(ids.size()));
    // The snapshot is taken here, on the GUI thread, and shared read-only by the workers;
    // the catalog is immutable while the document lives.
    auto design = m_document.snapshot();
    const model::Catalog& catalog = m_document.catalog();
    m_watcher.setFuture(QtConcurrent::mapped(
        &enginePool(), ids, [design, &catalog, stop = m_stop.get_token()](const QString& id) {
            enterEngineThread();
            return runFabric(*design, catalog, id, stop);
        }));
}

void CompareController::runFinished() {
    m_busy = false;
    if (!m_watcher.isCanceled() && m_running == m_revision) {
        auto result = std::make_shared<CompareResult>();
        result->revision = m_running;
        result->rows = m_watcher.future().results();
        result->gpuHourUsd = m_document.catalog().prices().gpuHourUsd;
        result->trainTokens = model::RunOptions{}.trainTokens;
        std::vector<model::FabricOutcome> outcomes;
        for (const CompareRow& row : result->rows)
            if (row.ok())
                outcomes.push_back(row.outcome);
        // The rules are the model's; this only hands them the figures.
        result->verdict = model::fabricVerdict(outcomes, result->gpuHourUsd);
        m_result = std::move(result);
        setStale(false);
        Q_EMIT finished(m_result);
    } else if (!m_restart) {
        Q_EMIT cancelled();
    }
    if (m_restart) {
        m_restart = false;
        start();
    }
}

void CompareController::setStale(bool stale) {
    if (m_stale == stale)
        return;
    m_stale = stale;
    Q_EMIT staleChanged(stale);
}

} // namespace fabriclab::views
