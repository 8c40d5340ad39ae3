// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"

#include "model/report/RunReport.hpp"

namespace fabriclab::views {

/// Fabric capex by where it goes (servers' NICs and cables, each switch tier, the optics
/// between tiers) and by category, with power, $/GPU-hour and the cost to train in words.
class CostChart : public ChartPanel {
    Q_OBJECT

public:
    explicit CostChart(QWidget* parent = nullptr);
    /// Its name (ChartPanel::name) and titles, as the chart registry lists them.
    static constexpr const char* kId = "cost";
    static QString displayTitle();
    static QString shortLabel();

    void showReport(const model::RunReport& report);
    void showNothing(const QString& reason) override;
    ChartTable table() const override;
    void showRunReport(const RunFeed& feed) override;

private:
    std::vector<model::BomLine> m_bom;
};

} // namespace fabriclab::views
