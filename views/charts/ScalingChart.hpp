// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"

#include "model/report/ScalingStudy.hpp"

namespace fabriclab::views {

/// Step time and communication share against GPU count on the design's fabric and a
/// comparison fabric, with the break-even size where the faster fabric's saved GPU-hours
/// pay for its capex premium (the engine's scaling study; nothing is derived here).
class ScalingChart : public ChartPanel {
    Q_OBJECT

public:
    explicit ScalingChart(QWidget* parent = nullptr);
    /// Its name (ChartPanel::name) and titles, as the chart registry lists them.
    static constexpr const char* kId = "scaling";
    static QString displayTitle();
    static QString shortLabel();

    void showStudy(const model::ScalingStudy& study);
    void showNothing(const QString& reason) override;
    ChartTable table() const override;

private:
    std::vector<model::ScalingPoint> m_points;
};

} // namespace fabriclab::views
