// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/ReportExport.hpp"

#include "app/gui/MainWindow.hpp"
#include "app/gui/SimulationActions.hpp"
#include "app/gui/Theme.hpp"
#include "views/charts/ChartPanel.hpp"
#include "views/charts/CompareChart.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/CompareController.hpp"
#include "views/sim/EnginePool.hpp"
#include "views/sim/ResultsDashboard.hpp"
#include "views/sim/ScalingRunner.hpp"
#include "views/sim/SimulationController.hpp"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

namespace fabriclab::app {
namespace {

/// The progress bar's range: stages before the pages, then a step per page.
constexpr int kStages = 4;
constexpr int kRange = 100;

} // namespace

ReportExport::ReportExport(MainWindow& window) : QObject(&window), m_window(window) {
    // Above the Export menu, which ExportActions put above Quit.
    QMenu* file = window.fileMenu();
    QAction* before = nullptr;
    for (QAction* action : file->actions())
        if (action->menu() && action->menu()->title() == tr("&Export"))
            before = action;
    if (!before && !file->actions().isEmpty())
        before = file->actions().last();
    auto* action = new QAction(tr("Export &report…"), file);
    action->setObjectName(QStringLiteral("exportReport"));
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    file->insertAction(before, action);
    connect(action, &QAction::triggered, this, [this] {
        const QString name = QString::fromStdString(m_window.document().design().name);
        const QString path = QFileDialog::getSaveFileName(
            &m_window, tr("Export report"),
            (name.isEmpty() ? tr("design") : name) + tr(" - report.pdf"), tr("PDF (*.pdf)"));
        if (!path.isEmpty())
            exportReport(path);
    });
    connect(&m_facts, &QFutureWatcher<views::ReportFacts>::finished, this,
            [this] { write(m_facts.result()); });
    connect(this, &ReportExport::exported, &window, [&window](const QString& path, int pages) {
        window.statusBar()->showMessage(
            tr("Wrote %1 (%n pages)", nullptr, pages).arg(QDir::toNativeSeparators(path)), 5000);
    });
    connect(this, &ReportExport::failed, &window,
            [this, &window](const QString& path, const QString& why) {
                if (!m_interactive)
                    return; // the caller reports it
                auto* box = new QMessageBox(
                    QMessageBox::Warning, tr("Report not written"),
                    tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), why),
                    QMessageBox::Ok, &window);
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
            });
}

ReportExport::~ReportExport() {
    m_facts.waitForFinished();
}

void ReportExport::exportReport(const QString& path) {
    if (m_busy)
        return;
    m_busy = true;
    m_path = path;
    if (m_interactive) {
        m_progress =
            new QProgressDialog(tr("Preparing the report…"), tr("Cancel"), 0, kRange, &m_window);
        m_progress->setWindowTitle(tr("Export report"));
        m_progress->setWindowModality(Qt::WindowModal);
        m_progress->setMinimumDuration(0);
        m_progress->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_progress, &QProgressDialog::canceled, this,
                [this] { finish(tr("the export was cancelled")); });
        m_progress->setValue(0);
    }
    advance();
}

void ReportExport::stage(const QString& text) {
    if (!m_progress)
        return;
    m_progress->setLabelText(text);
    m_progress->setValue(std::min(m_progress->value() + kRange / (2 * kStages), kRange / 2));
}

void ReportExport::waitFor(const QMetaObject::Connection& connection) {
    m_waits.append(connection);
}

void ReportExport::stopWaiting() {
    for (const auto& connection : std::as_const(m_waits))
        disconnect(connection);
    m_waits.clear();
}

void ReportExport::advance() {
    stopWaiting();
    if (!m_busy)
        return;
    auto& controller = m_window.simulation()->controller();
    const views::RunResultPtr& result = controller.result();
    if (!result || result->revision != controller.revision()) {
        stage(tr("Simulating the design…"));
        waitFor(connect(&controller, &views::SimulationController::resultReady, this,
                        &ReportExport::advance));
        if (!controller.isRunning())
            controller.run();
        return;
    }
    if (!result->ok())
        return finish(result->error);

    auto& scaling = m_window.simulation()->scaling();
    if (scaling.isRunning()) {
        stage(tr("Working out how the design scales…"));
        waitFor(connect(&scaling, &views::ScalingRunner::studyReady, this, &ReportExport::advance));
        waitFor(connect(&scaling, &views::ScalingRunner::failed, this, &ReportExport::advance));
        return;
    }

    views::CompareController* comparisons = m_window.comparisons();
    const auto& comparison = comparisons->result();
    if (!comparison || comparisons->isStale() || comparison->revision != comparisons->revision()) {
        stage(tr("Comparing fabrics…"));
        waitFor(connect(comparisons, &views::CompareController::finished, this,
                        &ReportExport::advance));
        waitFor(connect(comparisons, &views::CompareController::cancelled, this,
                        [this] { finish(tr("the fabric comparison was stopped")); }));
        if (m_progress)
            waitFor(connect(comparisons, &views::CompareController::progress, this,
                            [this](int done, int total) {
                                if (m_progress)
                                    m_progress->setLabelText(
                                        tr("Comparing fabrics: %1 of %2…").arg(done).arg(total));
                            }));
        comparisons->compare();
        return;
    }

    stage(tr("Working out the bill of materials and the cabling…"));
    std::vector<std::string> fabrics;
    for (const views::CompareRow& row : comparison->rows)
        fabrics.push_back(row.fabricId.toStdString());
    m_facts.setFuture(
        QtConcurrent::run(&views::enginePool(), [result, &catalog = m_window.document().catalog(),
                                                 fabrics = std::move(fabrics)] {
            return views::reportFacts(*result->design, catalog, fabrics, result->report.cost);
        }));
}

void ReportExport::write(const views::ReportFacts& facts) {
    if (!m_busy)
        return; // cancelled meanwhile
    auto& controller = m_window.simulation()->controller();
    if (!controller.result() || controller.result()->revision != controller.revision())
        return advance(); // the design changed while the bill was worked out
    stage(tr("Drawing the pages…"));
    // The dashboard stages its charts over a few turns of the event loop: all of them now.
    m_window.dashboard()->finishChartUpdates();
    views::DesignReportInputs inputs;
    inputs.result = controller.result();
    inputs.comparison = m_window.comparisons()->result();
    inputs.charts = m_window.dashboard()->charts();
    const auto compareCharts =
        m_window.findChildren<views::ChartPanel*>(QString::fromLatin1(views::CompareChart::kId));
    inputs.compareChart = compareCharts.isEmpty() ? nullptr : compareCharts.first();
    inputs.canvas = m_window.canvas();
    inputs.catalog = &m_window.document().catalog();
    inputs.version = QApplication::applicationVersion();
    inputs.created = QDateTime::currentDateTime();
    // Paper is white: a dark theme's charts and canvas are drawn light for the report, then
    // the theme goes back.
    const bool dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    if (dark)
        applyTheme(Theme::Light);
    QString error;
    const int pages =
        views::writeDesignReport(inputs, facts, m_path, &error, [this](int page, int total) {
            if (!m_progress)
                return;
            m_progress->setLabelText(tr("Writing page %1 of %2…").arg(page).arg(total));
            m_progress->setValue(kRange / 2 + (kRange / 2) * page / std::max(total, 1));
        });
    if (dark)
        applyTheme(savedTheme());
    finish(error, pages);
}

void ReportExport::finish(const QString& why, int pages) {
    if (!m_busy)
        return;
    m_busy = false;
    stopWaiting();
    if (m_progress) {
        QProgressDialog* dialog = m_progress;
        m_progress.clear();
        dialog->disconnect(this);
        dialog->close();
    }
    if (pages > 0)
        Q_EMIT exported(m_path, pages);
    else
        Q_EMIT failed(m_path, why);
}

} // namespace fabriclab::app
