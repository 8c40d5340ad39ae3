// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"

#include "model/workload/TrainingAcrossSites.hpp"

class QBarSet;

namespace fabriclab::views {

/// Training across sites: a step of synchronous data parallelism and a step of DiLoCo side
/// by side, each as the site's own step plus what it waits on the WAN, with the time and
/// cost to train and the nearest published DiLoCo run in words. Only a design with sites
/// gives it figures; the dashboard shows it then.
class AcrossSitesChart : public ChartPanel {
    Q_OBJECT

public:
    explicit AcrossSitesChart(QWidget* parent = nullptr);
    static constexpr const char* kId = "across-sites";
    static QString displayTitle();
    static QString shortLabel();

    void showSites(const model::TrainingAcrossSites& sites);
    void showNothing(const QString& reason) override;
    ChartTable table() const override;
    void showRunReport(const RunFeed& feed) override;

protected:
    void applySeriesColors() override;

private:
    std::optional<model::TrainingAcrossSites> m_sites;
    QBarSet* m_waiting = nullptr; ///< owned by the chart's series
};

} // namespace fabriclab::views
