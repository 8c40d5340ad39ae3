// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QAction;
class QLabel;
class QMainWindow;
class QMenu;

namespace fabriclab::views {
class CanvasView;
class ComparePanel;
class ResultsDashboard;
class ScalingRunner;
class SimulationController;
class TopologyDocument;
} // namespace fabriclab::views

namespace fabriclab::app {

/// Wires the simulator into the window: the controller that runs the engine off the GUI
/// thread, the Simulation menu (Run F5, Stop Esc, Live, Play/Pause Space, Step F4,
/// Compare fabrics), progress in the status bar, results into the dashboard and the
/// comparison panel. Wiring only, like FileActions.
class SimulationActions : public QObject {
    Q_OBJECT

public:
    SimulationActions(QMainWindow& window, views::TopologyDocument& document,
                      views::CanvasView& canvas, views::ResultsDashboard& dashboard,
                      views::ComparePanel& compare, QMenu& menu);

    views::SimulationController& controller() const { return *m_controller; }
    views::ScalingRunner& scaling() const { return *m_scaling; }

private:
    views::SimulationController* m_controller;
    views::ScalingRunner* m_scaling;
    QLabel* m_stage;
};

} // namespace fabriclab::app
