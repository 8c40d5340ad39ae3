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

    void showReport(const model::RunReport& report);
    void showNothing(const QString& reason);
    ChartTable table() const override;

private:
    std::vector<model::BomLine> m_bom;
};

} // namespace fabriclab::views
