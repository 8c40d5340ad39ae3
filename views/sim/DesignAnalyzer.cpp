// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/DesignAnalyzer.hpp"

#include "model/analysis/Bisection.hpp"
#include "model/analysis/Oversubscription.hpp"
#include "model/core/Cancellation.hpp"
#include "model/cost/CostModel.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/EnginePool.hpp"
#include "views/sim/SharedBisection.hpp"

#include <QtConcurrent/QtConcurrentRun>

namespace fabriclab::views {
namespace {

// Long enough to coalesce a slider drag or a burst of undos, short enough to feel live.
constexpr int kDebounceMs = 120;

DesignFigures analyze(const model::Topology& topology, const model::Fabric& fabric,
                      const model::PriceCatalog& prices,
                      QFuture<SharedBisection::Result> sharedBisection) {
    DesignFigures f;
    f.counts = TopologySummary::of(topology);
    const auto oversubscription = model::leafOversubscription(topology);
    f.oversubscriptionMeasured = oversubscription.has_value();
    f.oversubscription = oversubscription.value_or(1.0);
    const auto problems = topology.problems();
    f.problems = static_cast<int>(problems.size());
    if (!problems.empty())
        f.firstProblem = QString::fromStdString(problems.front());
    try {
        const model::BisectionResult bisection = SharedBisection::await(sharedBisection);
        f.bisectionGbps = bisection.minCut.value;
        f.bisectionRatio = bisection.ratio;
        f.bisectionSplit = QString::fromStdString(bisection.split);
    } catch (const model::Cancelled&) {
        throw; // overtaken by a newer edit: the caller drops this analysis
    } catch (const std::exception&) {
        // A topology the bisection refuses: its problems say why; no bisection is shown.
    }
    try {
        const auto cost = model::estimateCost(topology, fabric, prices);
        f.capexUsd = cost.capex.value;
        f.perGpuHourUsd = cost.perGpuHour;
    } catch (const std::exception&) {
        // An inline fabric whose parts have no price: the figures show no cost.
    }
    return f;
}

} // namespace

DesignAnalyzer::DesignAnalyzer(TopologyDocument& document, QObject* parent)
    : QObject(parent), m_document(document) {
    qRegisterMetaType<DesignFigures>();
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &DesignAnalyzer::start);
    connect(&m_document, &TopologyDocument::changed, this, [this] {
        ++m_generation;
        m_debounce.start();
    });
    m_watcher.setObjectName(QStringLiteral("designFigures"));
    connect(&m_watcher, &QFutureWatcher<std::optional<DesignFigures>>::finished, this, [this] {
        if (!m_watcher.isCanceled() && m_running == m_generation) {
            if (const std::optional<DesignFigures> figures = m_watcher.result()) {
                m_figures = *figures;
                Q_EMIT figuresChanged(m_figures);
            } else {
                // Its bisection was cancelled under it, yet no newer edit is known here:
                // analyse again against the bisection the document has now.
                m_pending = true;
            }
        }
        if (m_pending) {
            m_pending = false;
            start();
        }
    });
    // Debounced like an edit, not at once: a window opened on a file loads it right after
    // this, and the empty design's zeros would show until the file's figures replace them.
    m_debounce.start();
}

DesignAnalyzer::~DesignAnalyzer() {
    m_watcher.cancel();
    m_watcher.waitForFinished();
}

void DesignAnalyzer::refresh() {
    m_debounce.stop();
    start();
}

void DesignAnalyzer::start() {
    if (m_watcher.isRunning()) {
        m_pending = true;
        return;
    }
    m_running = m_generation;
    // The snapshot is the simulation's too: the worker never reads the live document.
    m_watcher.setFuture(QtConcurrent::run(
        &enginePool(),
        [design = m_document.snapshot(), prices = m_document.catalog().prices(),
         bisection = SharedBisection::of(m_document).current()]() -> std::optional<DesignFigures> {
            enterEngineThread();
            // Nothing may escape a pool task: QFuture would hand it to whoever waits next,
            // the destructor included, as an exception nobody catches.
            try {
                return analyze(design->topology, design->fabric.spec, prices, bisection);
            } catch (const model::Cancelled&) {
                return std::nullopt;
            } catch (const std::exception& e) {
                DesignFigures refused; // what could not be analysed, said where problems are
                refused.problems = 1;
                refused.firstProblem = QString::fromStdString(e.what());
                return refused;
            }
        }));
}

} // namespace fabriclab::views
