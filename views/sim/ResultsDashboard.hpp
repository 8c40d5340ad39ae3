// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/sim/RunResult.hpp"
#include "views/sim/ScalingRunner.hpp"
#include "views/sim/SimulationController.hpp"

#include <QFutureWatcher>
#include <QList>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <deque>
#include <functional>
#include <optional>
#include <stop_token>

class QLabel;

namespace fabriclab::views {

class BisectionChart;
class ChartPanel;
class ElidedLabel;
class PlaybackClock;
class ScalingChart;
class TopologyScene;

/// The results of the last run, as charts: bisection, the collective's throughput over
/// simulated time and its bus bandwidth against message size, the step, the cost; a
/// playback bar whose clock drives the throughput cursor, the growing bisection bars
/// and the link colours on the canvas. Shows what the engine computed; derives nothing.
///
/// A part of a run the engine could not compute (RunReport::collectiveRefusal,
/// stepRefusal) blanks its charts with the reason, and the rest stay. A run whose effective
/// bisection is a preview over fewer draws than `fabriclab-cli run` reports (the app's
/// live runs of large designs) says so, and the dashboard computes the full figure on a
/// worker (model::effectiveBisections) and shows it in place, unless the design changes
/// first.
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
    /// Brings every chart up to the shown result at once: for exports and tests.
    void finishChartUpdates();
    /// Whether the effective bisection shown is a preview still waiting for its full figure.
    bool showsBisectionPreview() const;

Q_SIGNALS:
    /// Every chart shows `result` (emitted after the last staged update).
    void chartsShown(const fabriclab::views::RunResultPtr& result);
    /// The full effective bisection of `result`, shown as a preview before, is in.
    void fullBisectionShown(const fabriclab::views::RunResultPtr& result);

public Q_SLOTS:
    void showResult(const fabriclab::views::RunResultPtr& result);
    void showState(fabriclab::views::SimulationController::State state);
    void showProgress(int permille, const QString& stage);
    void showScaling(const fabriclab::views::ScalingStudyPtr& study);
    void showScalingPending();
    void showScalingFailed(const QString& reason);

protected:
    void changeEvent(QEvent* event) override;

private:
    /// The state label's width and the summary's height, in the current font.
    void fixLabelSizes();
    /// The full effective bisection of a result shown as a preview (empty when stopped).
    struct FullBisection {
        RunResultPtr result;
        std::optional<model::EffectiveBisections> figures;
    };

    void showFrame(double seconds);
    void updateNextChart();
    void layoutCharts();
    /// The header's figures for the shown result, with the full bisection once it is in.
    QString summaryFor(const model::RunReport& report) const;
    void startFullBisection();
    void stopFullBisection();
    void fullBisectionArrived();
    QStringList m_focus;

    QLabel* m_state;
    QLabel* m_summary;
    ElidedLabel* m_legend;
    PlaybackClock* m_clock;
    /// The registry's dashboard charts (ChartRegistry.hpp), in its order.
    QList<ChartPanel*> m_charts;
    BisectionChart* m_bisection = nullptr;
    ScalingChart* m_scaling = nullptr;
    QWidget* m_grid;
    QPointer<TopologyScene> m_scene;
    RunResultPtr m_shown;
    SimulationController::State m_runState = SimulationController::State::Idle;
    std::size_t m_frame = static_cast<std::size_t>(-1); ///< frame drawn on the canvas
    /// Chart updates still to make for the shown result, one per turn of the event loop:
    /// rebuilding all five charts at once kept the GUI thread away for 25-35 ms.
    std::deque<std::function<void()>> m_pending;
    QTimer m_stagger;
    QFutureWatcher<FullBisection> m_fullWatcher;
    std::stop_source m_fullStop;
    std::optional<model::EffectiveBisections> m_full; ///< of m_shown, once computed
};

} // namespace fabriclab::views
