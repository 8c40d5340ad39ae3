// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"

#include "model/workload/StepTime.hpp"

namespace fabriclab::views {

/// One training step: compute, the communication the step waits on, the communication
/// an end-to-end MFU already holds (its time on the ideal fabric), and the communication
/// hidden behind compute, each by parallelism (data, tensor, pipeline, expert, context),
/// with the communication share in words.
class StepTimeChart : public ChartPanel {
    Q_OBJECT

public:
    explicit StepTimeChart(QWidget* parent = nullptr);
    /// Its name (ChartPanel::name) and titles, as the chart registry lists them.
    static constexpr const char* kId = "step-time";
    static QString displayTitle();
    static QString shortLabel();

    void showStep(const model::StepTime& step);
    void showNothing(const QString& reason) override;
    ChartTable table() const override;
    void showRunReport(const RunFeed& feed) override;

private:
    struct Segment {
        QString label;
        double stepSeconds = 0;      ///< on the step's critical path
        double insideMfuSeconds = 0; ///< what the traffic takes on the ideal fabric
        double hiddenSeconds = 0;    ///< the rest of it, running under compute
    };
    std::vector<Segment> m_segments;
};

} // namespace fabriclab::views
