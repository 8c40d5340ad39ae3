// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/SimulationActions.hpp"

#include "views/canvas/CanvasView.hpp"
#include "views/sim/ComparePanel.hpp"
#include "views/sim/PlaybackClock.hpp"
#include "views/sim/ResultsDashboard.hpp"
#include "views/sim/ScalingRunner.hpp"
#include "views/sim/SimulationController.hpp"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <QToolBar>

namespace fabriclab::app {

using views::SimulationController;

SimulationActions::SimulationActions(QMainWindow& window, views::TopologyDocument& document,
                                     views::CanvasView& canvas, views::ResultsDashboard& dashboard,
                                     views::ComparePanel& compare, QMenu& menu)
    : QObject(&window), m_controller(new SimulationController(document, this)),
      m_stage(new QLabel(&window)) {
    dashboard.setScene(&canvas.topologyScene());
    const auto add = [&](const QString& text, const QKeySequence& key, const QString& tip) {
        QAction* action = menu.addAction(text);
        action->setShortcut(key);
        action->setStatusTip(tip);
        window.addAction(action); // shortcuts work wherever the focus is
        return action;
    };
    QAction* run =
        add(tr("&Run simulation"), QKeySequence(Qt::Key_F5), tr("Simulate the design now"));
    QAction* stop = add(tr("&Stop simulation"), QKeySequence(Qt::Key_Escape),
                        tr("Stop the simulation in flight; the last results stay, marked stale"));
    QAction* live = add(tr("&Live updates"), QKeySequence(),
                        tr("Simulate after every edit (off by itself for designs that take "
                           "over a second)"));
    live->setCheckable(true);
    live->setChecked(m_controller->isLive());
    menu.addSeparator();
    QAction* play =
        add(tr("&Play / pause"), QKeySequence(Qt::Key_Space), tr("Play the simulated timeline"));
    QAction* step =
        add(tr("S&tep"), QKeySequence(Qt::Key_F4), tr("Step to the next change of rates"));
    menu.addSeparator();
    menu.addAction(compare.compareAction());
    window.addAction(compare.compareAction());

    auto& clock = dashboard.clock();
    connect(run, &QAction::triggered, m_controller, &SimulationController::run);
    connect(stop, &QAction::triggered, m_controller, &SimulationController::cancel);
    connect(live, &QAction::toggled, m_controller, &SimulationController::setLive);
    connect(m_controller, &SimulationController::liveChanged, live, &QAction::setChecked);
    connect(play, &QAction::triggered, &clock, &views::PlaybackClock::togglePlaying);
    connect(&canvas, &views::CanvasView::spaceTapped, &clock, &views::PlaybackClock::togglePlaying);
    connect(step, &QAction::triggered, &clock, &views::PlaybackClock::step);

    connect(m_controller, &SimulationController::resultReady, &dashboard,
            &views::ResultsDashboard::showResult);
    connect(m_controller, &SimulationController::stateChanged, &dashboard,
            &views::ResultsDashboard::showState);
    connect(m_controller, &SimulationController::progress, &dashboard,
            &views::ResultsDashboard::showProgress);
    auto* scaling = m_scaling = new views::ScalingRunner(document, *m_controller, this);
    connect(scaling, &views::ScalingRunner::started, &dashboard,
            &views::ResultsDashboard::showScalingPending);
    connect(scaling, &views::ScalingRunner::studyReady, &dashboard,
            &views::ResultsDashboard::showScaling);
    connect(scaling, &views::ScalingRunner::failed, &dashboard,
            &views::ResultsDashboard::showScalingFailed);
    connect(m_controller, &SimulationController::message, &window,
            [&window](const QString& text) { window.statusBar()->showMessage(text, 8000); });

    // Progress in the status bar while a run is under way, out of the way otherwise. A
    // label, not a QProgressBar: that one repaints the window synchronously on every
    // value (over 100 ms on a large design), the very stall the worker is there to avoid.
    m_stage->hide();
    window.statusBar()->addWidget(m_stage);
    connect(m_controller, &SimulationController::progress, this,
            [this](int permille, const QString& stage) {
                m_stage->setText(tr("Simulating: %1 (%2%)").arg(stage).arg(permille / 10));
            });
    connect(m_controller, &SimulationController::stateChanged, this,
            [this, stop](SimulationController::State state) {
                const bool running = state == SimulationController::State::Running;
                m_stage->setVisible(running);
                stop->setEnabled(running);
            });
    stop->setEnabled(false);

    auto* bar = window.addToolBar(tr("Simulation"));
    bar->setObjectName(QStringLiteral("SimulationToolBar"));
    bar->addAction(run);
    bar->addAction(live);
    bar->addAction(compare.compareAction());
}

} // namespace fabriclab::app
