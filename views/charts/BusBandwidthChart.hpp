// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"

#include "model/sim/BusBandwidthCurve.hpp"

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QXYSeries;
QT_END_NAMESPACE

namespace fabriclab::views {

/// Bus bandwidth against message size, the curve nccl-tests prints (8 B to 8 GiB), with
/// the design's own message size marked. Sizes on a log scale, GB/s as nccl-tests.
class BusBandwidthChart : public ChartPanel {
    Q_OBJECT

public:
    explicit BusBandwidthChart(QWidget* parent = nullptr);
    /// Its name (ChartPanel::name) and titles, as the chart registry lists them.
    static constexpr const char* kId = "busbw-vs-size";
    static QString displayTitle();
    static QString shortLabel();

    void showCurve(const std::vector<sim::BusBwPoint>& curve, const sim::CollectiveResult& design,
                   const QString& operation);
    void showNothing(const QString& reason) override;
    ChartTable table() const override;
    void showRunReport(const RunFeed& feed) override;

private:
    void applySeriesColors() override;

    std::vector<sim::BusBwPoint> m_curve;
    QAreaSeries* m_band = nullptr; ///< the ECMP draws' band, when drawn
    QXYSeries* m_line = nullptr;   ///< the mean busbw
    QXYSeries* m_mark = nullptr;   ///< the design's own size
};

} // namespace fabriclab::views
