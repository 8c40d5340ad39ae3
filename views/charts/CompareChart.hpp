// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"
#include "views/models/CompareResult.hpp"

#include <QList>

namespace fabriclab::views {

/// Step time and cost to train of every fabric in a comparison, as horizontal grouped
/// bars of the percent difference from the cheapest-capex fabric (the verdict's baseline).
///
/// Relative, not absolute: the two figures differ in unit and by six orders of magnitude
/// (70 s against $1M), so absolute bars need two value axes, one above and one below, and
/// a reader ends up comparing bar lengths drawn to different scales. Percent difference,
/// not a ratio: where compute dominates the step, ratios all sit at 0.98-1.02 and the bars
/// look alike, while a difference from zero shows at once which fabric is faster or
/// cheaper and by how much (negative is better). Tooltips give the absolute figures with their
/// units; the caption is the verdict's headline. Fabrics that did not run, or without a workload,
/// are left out.
class CompareChart : public ChartPanel {
    Q_OBJECT

public:
    explicit CompareChart(QWidget* parent = nullptr);
    /// Its name (ChartPanel::name) and titles, as the chart registry lists them.
    static constexpr const char* kId = "compare";
    static QString displayTitle();
    static QString shortLabel();

    /// Columns: fabric (catalog id), name, step time (s), cost to train (USD), and both as
    /// % difference from the baseline fabric; one row per fabric drawn, top to bottom.
    ChartTable table() const override;

public Q_SLOTS:
    /// Draws a comparison; null clears the chart.
    void setResult(const fabriclab::views::CompareResultPtr& result);

protected:
    void changeEvent(QEvent* event) override;

private:
    void colorLabels();

    struct Bar {
        QString fabricId; ///< the axis label: catalog names run to 70 characters
        QString fabricName;
        double stepSeconds = 0;
        double perMillionTokensUsd = 0; ///< lifetime cost per million tokens; 0 unpriced
        double stepPercent = 0;         ///< difference from the baseline, %
        double costPercent = 0;
    };

    QList<Bar> m_bars;
    QAbstractBarSeries* m_series = nullptr; ///< owned by the chart; null once cleared
    QString m_baselineId;                   ///< the cheapest-capex fabric
    QString m_baseline;                     ///< its name
};

} // namespace fabriclab::views
