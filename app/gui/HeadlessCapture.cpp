// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/HeadlessCapture.hpp"

#include "app/gui/MainWindow.hpp"
#include "app/gui/SimulationActions.hpp"
#include "model/io/JsonTable.hpp"
#include "model/report/RunReport.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/charts/ChartPanel.hpp"
#include "views/charts/ChartRegistry.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/present/PresentationMode.hpp"
#include "views/sim/CompareController.hpp"
#include "views/sim/ComparePanel.hpp"
#include "views/sim/ExplainPanel.hpp"
#include "views/sim/PlanPanel.hpp"
#include "views/sim/PlaybackClock.hpp"
#include "views/sim/ResultsDashboard.hpp"
#include "views/sim/ScalingRunner.hpp"
#include "views/sim/SimulationController.hpp"
#include "views/teach/TeachingPanel.hpp"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QSaveFile>
#include <QTextStream>

#include <cstdio>

namespace fabriclab::app {
namespace {

/// Long enough for the charts' grow animation (400 ms) to finish before the picture.
constexpr int kSettleMs = 900;
/// A design that takes longer than this to simulate is reported, not waited on forever.
constexpr int kTimeoutMs = 300'000;

} // namespace

QStringList HeadlessCapture::views() {
    return {QStringLiteral("results"),  QStringLiteral("compare"),      QStringLiteral("playback"),
            QStringLiteral("teaching"), QStringLiteral("presentation"), QStringLiteral("explain"),
            QStringLiteral("plan"),     QStringLiteral("welcome")};
}

HeadlessCapture::HeadlessCapture(MainWindow& window, Mode mode, QString target, QString view,
                                 QSize size)
    : QObject(&window), m_window(window), m_mode(mode), m_target(std::move(target)),
      m_view(std::move(view)), m_size(size) {
    m_timeout.setSingleShot(true);
    m_timeout.setInterval(kTimeoutMs);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        fail(tr("gave up waiting for the simulation after %1 s").arg(kTimeoutMs / 1000), 3);
    });
}

void HeadlessCapture::start() {
    m_timeout.start();
    if (m_mode == Mode::Screenshot && m_view == QLatin1String("welcome")) {
        // The first start: no design, so nothing to wait for but the layout.
        QTimer::singleShot(kSettleMs, this, &HeadlessCapture::capture);
        return;
    }
    auto& controller = m_window.simulation()->controller();
    connect(&controller, &views::SimulationController::resultReady, this,
            &HeadlessCapture::resultsArrived);
    auto& scaling = m_window.simulation()->scaling();
    const auto scaled = [this] {
        m_scaling = true;
        partArrived();
    };
    connect(&scaling, &views::ScalingRunner::studyReady, this, scaled);
    connect(&scaling, &views::ScalingRunner::failed, this, scaled);
    controller.run();
}

void HeadlessCapture::resultsArrived() {
    auto& controller = m_window.simulation()->controller();
    const auto& result = controller.result();
    if (!result || result->revision != controller.revision())
        return; // an older revision; the current one follows
    // The engine's own words: "cannot evaluate this design: ...".
    if (!result->ok())
        return fail(result->error, 2);
    const bool compare = m_view == QLatin1String("compare") || m_mode == Mode::ExportCharts;
    if (compare) {
        auto* comparisons = m_window.comparisons();
        connect(comparisons, &views::CompareController::finished, this, [this] {
            m_results = true;
            partArrived();
        });
        if (m_view == QLatin1String("compare"))
            if (auto* dock = m_window.findChild<QDockWidget*>(QStringLiteral("CompareDock")))
                dock->raise();
        m_window.comparePanel()->compareAction()->trigger();
        return;
    }
    if (m_view == QLatin1String("plan")) {
        // The Plan tab, pressed as a user would, once its ranking is in.
        auto* plan = m_window.plan();
        connect(plan, &views::PlanPanel::planned, this, [this] {
            m_results = true;
            partArrived();
        });
        if (auto* dock = m_window.findChild<QDockWidget*>(QStringLiteral("PlanDock")))
            dock->raise();
        plan->plan();
        return;
    }
    if (m_view == QLatin1String("playback")) {
        // Part way through, so the canvas shows link colours and the cursor sits mid-chart.
        // The dashboard stages its charts over a few turns of the event loop; the clock
        // has its timeline only once they are done.
        m_window.dashboard()->finishChartUpdates();
        auto& clock = m_window.dashboard()->clock();
        clock.seek(clock.duration() * 0.45);
    }
    if (m_view == QLatin1String("presentation") && !m_presenting) {
        // Presented from the story's second step when it has one (a step away from the
        // design as saved); a step that changes the design waits for its own results.
        m_presenting = true;
        const std::size_t steps = m_window.document().design().story.size();
        const auto before = controller.revision();
        // In the window at the size asked for, as a screen of that size shows it.
        m_window.presentation()->setFullScreen(false);
        m_window.presentation()->enter(steps > 1 ? 1 : 0);
        if (controller.revision() != before)
            return;
    }
    if (m_view == QLatin1String("explain")) {
        // The link the first reason points at beyond the servers' own cables (where a
        // design loses time), selected as a user would, and explained.
        auto* explain = m_window.explain();
        auto* dock = m_window.findChild<QDockWidget*>(QStringLiteral("ExplainDock"));
        auto* fabric = m_window.findChild<QDockWidget*>(QStringLiteral("FabricDock"));
        if (dock && fabric) {
            // The explanation is the picture: room for its reasons, flows and history.
            dock->raise();
            fabric->hide();
            m_window.giveResultsRoom(0.3);
            m_window.resizeDocks({dock}, {600}, Qt::Horizontal);
        }
        explain->waitForExplanations();
        const model::Design& design = *result->design;
        std::optional<model::LinkId> pick;
        for (const auto& reason : explain->reasons())
            for (const model::LinkId link : reason.links)
                if (!pick &&
                    design.topology.tierOf(design.topology.link(link)) != model::LinkTier::Server)
                    pick = link;
        for (const auto& [id, link] : design.topology.links())
            if (!pick && design.topology.tierOf(link) != model::LinkTier::Server)
                pick = id;
        if (pick)
            m_window.canvas()->topologyScene().selectElements({}, {*pick});
        explain->waitForExplanations();
    }
    if (m_view == QLatin1String("teaching")) {
        // A ring all-reduce a few steps in: links carry their chunks, the caption explains.
        auto* teaching = m_window.teaching();
        if (auto* dock = m_window.findChild<QDockWidget*>(QStringLiteral("TeachDock")))
            dock->raise();
        m_window.giveResultsRoom(0.3); // the canvas is the picture
        teaching->start(teach::Lesson::RingAllReduce);
        teaching->waitForLesson();
        if (!teaching->lesson())
            return fail(tr("no lesson on this design"), 2);
        for (int i = 0; i < 2; ++i)
            teaching->next();
    }
    m_results = true;
    partArrived();
}

void HeadlessCapture::partArrived() {
    if (m_results && m_scaling)
        QTimer::singleShot(kSettleMs, this, &HeadlessCapture::capture);
}

void HeadlessCapture::capture() {
    if (m_done)
        return;
    m_window.dashboard()->finishChartUpdates(); // normally done within the settle time
    if (m_mode == Mode::ExportCharts) {
        if (exportCharts()) {
            m_done = true;
            Q_EMIT finished(0);
        }
        return;
    }
    if (m_window.size() != m_size)
        return fail(tr("the window grew from %1x%2 to %3x%4: a panel asks for more room than "
                       "the window has")
                        .arg(m_size.width())
                        .arg(m_size.height())
                        .arg(m_window.width())
                        .arg(m_window.height()));
    const QImage image = m_window.grab().toImage();
    if (image.isNull() || !image.save(m_target, "PNG"))
        return fail(tr("could not write the screenshot %1").arg(m_target));
    std::fprintf(stderr, "FabricLab: saved %s\n", qPrintable(m_target));
    m_done = true;
    Q_EMIT finished(0);
}

bool HeadlessCapture::exportCharts() {
    QDir dir(m_target);
    if (!dir.mkpath(QStringLiteral("."))) {
        fail(tr("could not create the folder %1").arg(m_target));
        return false;
    }
    // Every exported kind the window holds (the dashboard's, then the Compare panel's).
    QList<views::ChartPanel*> charts;
    for (const QString& id : views::chartIds(views::ChartPlace::Exported))
        charts << m_window.findChildren<views::ChartPanel*>(id);
    for (views::ChartPanel* chart : charts) {
        const QString stem = dir.filePath(chart->name());
        QString error;
        if (!chart->exportPng(stem + QStringLiteral(".png"), &error) ||
            !chart->exportSvg(stem + QStringLiteral(".svg"), &error) ||
            !chart->exportCsv(stem + QStringLiteral(".csv"), &error)) {
            fail(error);
            return false;
        }
        std::fprintf(stderr, "FabricLab: wrote %s.{png,svg,csv}\n", qPrintable(stem));
    }
    // The very numbers `fabriclab-cli run --json` prints, so exported charts can be checked
    // against the CLI.
    const std::string csv = model::jsonToKeyValueCsv(
        model::reportToJson(m_window.simulation()->controller().result()->report));
    QSaveFile summary(dir.filePath(QStringLiteral("summary.csv")));
    if (!summary.open(QIODevice::WriteOnly) || summary.write(QByteArray::fromStdString(csv)) < 0 ||
        !summary.commit()) {
        fail(tr("could not write %1").arg(summary.fileName()));
        return false;
    }
    return true;
}

void HeadlessCapture::fail(const QString& message, int exitCode) {
    if (m_done)
        return;
    m_done = true;
    std::fprintf(stderr, "fabriclab: %s\n", qPrintable(message));
    Q_EMIT finished(exitCode);
}

} // namespace fabriclab::app
