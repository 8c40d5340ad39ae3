// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"

#include "model/sim/Playback.hpp"

QT_BEGIN_NAMESPACE
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace fabriclab::views {

/// Aggregate fabric throughput over the simulated time of the design's collective, as
/// the playback frames give it, with a cursor at the playback clock.
class ThroughputChart : public ChartPanel {
    Q_OBJECT

public:
    explicit ThroughputChart(QWidget* parent = nullptr);
    /// Its name (ChartPanel::name) and titles, as the chart registry lists them.
    static constexpr const char* kId = "collective-throughput";
    static QString displayTitle();
    static QString shortLabel();

    /// `what` names the collective in the caption ("all-reduce of 1 GiB, ring").
    void showPlayback(const sim::Playback& playback, const QString& what);
    void showNothing(const QString& reason) override;
    /// Moves the cursor to simulated time `seconds`.
    void setCursor(double seconds);
    ChartTable table() const override;
    void showRunReport(const RunFeed& feed) override;
    void setPlaybackTime(double seconds, double fraction) override;

private:
    std::vector<QPointF> m_points; ///< (seconds, Gb/s), as drawn (steps)
    double m_timeDivisor = 1;
    double m_maxGbps = 0;
    QLineSeries* m_cursor = nullptr;
};

} // namespace fabriclab::views
