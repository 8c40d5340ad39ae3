// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/CompareController.hpp"

#include "model/core/Cancellation.hpp"
#include "model/fabric/Generators.hpp"
#include "model/report/FabricComparison.hpp"
#include "model/validation/PublishedFigures.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/EnginePool.hpp"

#include <QtConcurrent/QtConcurrentMap>

#include <vector>

namespace fabriclab::views {
namespace {

/// The worker: one fabric on the snapshot, never the live document.
CompareRow runFabric(const model::Design& design, const model::Catalog& catalog,
                     const QString& fabricId, const model::ComparisonOptions& options) {
    CompareRow row;
    row.fabricId = fabricId;
    try {
        const model::ComparedFabric compared =
            model::compareOnFabric(design, catalog, fabricId.toStdString(), options);
        row.fabricName = QString::fromStdString(compared.fabricName);
        row.basis = QString::fromStdString(compared.basis);
        row.error = QString::fromStdString(compared.error);
        if (!compared.ok())
            return row;
        const model::RunReport& report = *compared.report;
        for (const std::string& warning : report.warnings)
            row.warnings << QString::fromStdString(warning);
        row.theoreticalBisectionGbps = report.bisection.minCut.value;
        row.effectiveBisectionGbps = report.effective.gbps;
        row.collectiveSeconds = report.collective.seconds;
        row.hasWorkload = report.step.has_value() && report.training.has_value();
        row.outcome = compared.outcome;
        row.ownership = compared.ownership;
    } catch (const model::Cancelled&) {
        // The whole comparison is dropped with it (the watcher was cancelled too).
        row.error = QStringLiteral("cancelled");
    }
    return row;
}

} // namespace

QStringList CompareController::fabricIds() {
    QStringList ids;
    for (const std::string& id : model::comparableFabrics(model::Catalog::builtin()))
        ids << QString::fromStdString(id);
    return ids;
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
    const model::Catalog& catalog = m_document.catalog();
    if (!m_chosen.isEmpty()) {
        QStringList known;
        for (const QString& id : m_chosen) {
            const auto candidate = model::comparisonCandidate(id.toStdString());
            if (catalog.findFabric(candidate.fabricId) && !known.contains(id))
                known << id;
        }
        return known;
    }
    const std::vector<std::string> ids =
        m_includeCloud ? model::comparableFabrics(catalog)
                       : model::defaultComparisonFabrics(m_document.design(), catalog);
    const auto& generator = m_document.design().generator;
    const bool alsoAs = !m_alsoKind.isEmpty() && generator &&
                        m_alsoKind.toStdString() != generator->kind &&
                        model::findGenerator(m_alsoKind.toStdString());
    QStringList list;
    for (const std::string& id : ids) {
        const QString fabric = QString::fromStdString(id);
        if (!alsoAs) {
            list << fabric;
            continue;
        }
        list << fabric + QLatin1Char('@') + QString::fromStdString(generator->kind)
             << fabric + QLatin1Char('@') + m_alsoKind;
    }
    return list;
}

void CompareController::setAlsoKind(const QString& kind) {
    if (m_alsoKind == kind)
        return;
    m_alsoKind = kind;
    edited();
}

void CompareController::setIncludeCloudFabrics(bool include) {
    if (m_includeCloud == include)
        return;
    m_includeCloud = include;
    edited();
}

void CompareController::setChosenFabrics(const QStringList& ids) {
    if (m_chosen == ids)
        return;
    m_chosen = ids;
    edited();
}

void CompareController::setOwnershipMode(model::OwnershipMode mode) {
    if (m_mode == mode)
        return;
    m_mode = mode;
    edited();
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
    m_snapshot = design;
    const model::Catalog& catalog = m_document.catalog();
    model::ComparisonOptions options;
    // The full simulation (effective bisection, busbw, step time) without the detail only
    // the results view draws.
    options.run.detail = false;
    options.run.stop = m_stop.get_token();
    options.ownership.mode = m_mode;
    options.evidence = &model::builtinPublishedFigures();
    m_watcher.setFuture(
        QtConcurrent::mapped(&enginePool(), ids, [design, &catalog, options](const QString& id) {
            enterEngineThread();
            return runFabric(*design, catalog, id, options);
        }));
}

void CompareController::runFinished() {
    m_busy = false;
    if (!m_watcher.isCanceled() && m_running == m_revision) {
        auto result = std::make_shared<CompareResult>();
        result->revision = m_running;
        result->rows = m_watcher.future().results();
        result->mode = m_mode;
        std::vector<model::FabricOutcome> outcomes;
        for (const CompareRow& row : result->rows)
            if (row.ok())
                outcomes.push_back(row.outcome);
        // The rules are the model's; this only hands them the figures.
        result->verdict = model::fabricVerdict(outcomes, model::verdictContext(*m_snapshot));
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
