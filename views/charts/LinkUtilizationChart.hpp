// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"

#include "model/sim/Playback.hpp"

#include <vector>

namespace fabriclab::views {

/// One link's utilization over the simulated time of the design's collective, as the
/// playback frames give it: the Explain panel's picture of why a link is the bottleneck.
class LinkUtilizationChart : public ChartPanel {
    Q_OBJECT

public:
    explicit LinkUtilizationChart(QWidget* parent = nullptr);
    /// Its name (ChartPanel::name) and titles, as the chart registry lists them.
    static constexpr const char* kId = "link-utilization";
    static QString displayTitle();
    static QString shortLabel();

    /// The link at `index` of playback.links; `linkName` names it in the legend and table.
    void showLink(const sim::Playback& playback, std::size_t index, const QString& linkName);
    void showNothing(const QString& reason) override;
    ChartTable table() const override;

private:
    struct Frame {
        double startSeconds;
        double utilization; ///< 0-1, the busier direction
    };
    std::vector<Frame> m_frames;
};

} // namespace fabriclab::views
