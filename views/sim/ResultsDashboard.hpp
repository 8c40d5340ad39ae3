// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/sim/RunResult.hpp"
#include "views/sim/ScalingRunner.hpp"
#include "views/sim/SimulationController.hpp"

#include <QList>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <deque>
#include <functional>

class QLabel;

namespace fabriclab::views {

class BisectionChart;
class BusBandwidthChart;
class ChartPanel;
class CostChart;
class PlaybackClock;
class ScalingChart;
class StepTimeChart;
class ThroughputChart;
class TopologyScene;

/// The results of the last run, as charts: bisection, the collective's throughput over
/// simulated time and its bus bandwidth against message size, the step, the cost; a
/// playback bar whose clock drives the throughput cursor, the growing bisection bars
/// and the link colours on the canvas. Shows what the engine computed; derives nothing.
class ResultsDashboard : public QWidget {
    Q_OBJECT

public:
    explicit ResultsDashboard(QWidget* parent = nullptr);
    ~ResultsDashboard() override;

    /// Where link utilization is drawn during playback (the canvas's scene).
    void setScene(TopologyScene* scene);
    PlaybackClock& clock() const { return *m_clock; }
    /// Every chart, in the order they are laid out; each exports itself.
    QList<ChartPanel*> charts() const;
    /// Shows only the charts named (ChartPanel::name), side by side, in that order, as
    /// presentation mode does; an empty list shows them all again.
    void focusCharts(const QStringList& names);
    const QStringList& focusedCharts() const { return m_focus; }
    const RunResultPtr& shown() const { return m_shown; }
    /// The header line: state, then the figures in words.
    QString summaryText() const;
    /// Whether charts are still being brought up to the shown result (see showResult).
    bool isUpdatingCharts() const { return !m_pending.empty(); }
    /// Brings every chart up to the shown result at once: for exports and tests.
    void finishChartUpdates();

Q_SIGNALS:
    /// Every chart shows `result` (emitted after the last staged update).
    void chartsShown(const fabriclab::views::RunResultPtr& result);

public Q_SLOTS:
    void showResult(const fabriclab::views::RunResultPtr& result);
    void showState(fabriclab::views::SimulationController::State state);
    void showProgress(int permille, const QString& stage);
    void showScaling(const fabriclab::views::ScalingStudyPtr& study);
    void showScalingPending();
    void showScalingFailed(const QString& reason);

private:
    void showFrame(double seconds);
    void updateNextChart();
    void layoutCharts();
    QStringList m_focus;

    QLabel* m_state;
    QLabel* m_summary;
    QLabel* m_legend;
    PlaybackClock* m_clock;
    BisectionChart* m_bisection;
    ThroughputChart* m_throughput;
    BusBandwidthChart* m_busBw;
    StepTimeChart* m_step;
    CostChart* m_cost;
    ScalingChart* m_scaling;
    QWidget* m_grid;
    QPointer<TopologyScene> m_scene;
    RunResultPtr m_shown;
    SimulationController::State m_runState = SimulationController::State::Idle;
    std::size_t m_frame = static_cast<std::size_t>(-1); ///< frame drawn on the canvas
    /// Chart updates still to make for the shown result, one per turn of the event loop:
    /// rebuilding all five charts at once kept the GUI thread away for 25-35 ms.
    std::deque<std::function<void()>> m_pending;
    QTimer m_stagger;
};

} // namespace fabriclab::views
