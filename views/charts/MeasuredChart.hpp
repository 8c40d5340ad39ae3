// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"

#include "model/validation/MeasuredLog.hpp"

namespace fabriclab::views {

/// One run of a team's nccl-tests log against FabricLab: the measured bus bandwidth and
/// FabricLab's for the same design and sizes (model::compareMeasured), sizes on a log
/// scale, rows outside their tolerance marked.
class MeasuredChart : public ChartPanel {
    Q_OBJECT

public:
    explicit MeasuredChart(QWidget* parent = nullptr);
    /// Its name (ChartPanel::name) and titles, as the chart registry lists them.
    static constexpr const char* kId = "measured-vs-fabriclab";
    static QString displayTitle();
    static QString shortLabel();

    void showRun(const model::MeasuredRun& run, const QString& designName);
    void showNothing(const QString& reason) override;
    ChartTable table() const override;

private:
    void applySeriesColors() override;

    model::MeasuredRun m_run;
    QXYSeries* m_measured = nullptr;
    QXYSeries* m_predicted = nullptr;
    QXYSeries* m_misses = nullptr;
};

} // namespace fabriclab::views
