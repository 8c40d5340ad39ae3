// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts/ChartPanel.hpp"

#include "model/report/RunReport.hpp"

#include <optional>

QT_BEGIN_NAMESPACE
class QBarSet;
QT_END_NAMESPACE

namespace fabriclab::views {

/// Theoretical bisection (max-flow min cut) against what the fabric's routing delivers
/// to random-permutation traffic, and the same traffic under every other routing (static
/// ECMP, adaptive routing, packet spraying), across the halves and tier by tier. The effective bars
/// grow with playback (setPlaybackFraction) so a presenter can show them fill.
class BisectionChart : public ChartPanel {
    Q_OBJECT

public:
    explicit BisectionChart(QWidget* parent = nullptr);
    /// Its name (ChartPanel::name) and titles, as the chart registry lists them.
    static constexpr const char* kId = "bisection";
    static QString displayTitle();
    static QString shortLabel();

    /// The report's figures, or with `full` its effective bisections computed again over
    /// more draws (model::effectiveBisections). Fewer draws than `fabriclab-cli run` reports
    /// are labelled a preview.
    void showReport(const model::RunReport& report,
                    const model::EffectiveBisections* full = nullptr);
    void showNothing(const QString& reason) override;
    /// Whether the delivered figures shown are a preview over fewer draws than the CLI's.
    bool isPreview() const { return m_preview; }
    /// 0-1: how far playback is; the effective bars show that share of their value.
    void setPlaybackFraction(double fraction);
    ChartTable table() const override;
    void showRunReport(const RunFeed& feed) override;
    void setPlaybackTime(double seconds, double fraction) override;

private:
    struct Bar {
        QString label;
        double theoreticalGbps = 0;
        double effectiveGbps = 0;
        std::vector<double> otherGbps; ///< per other routing, as m_others
    };
    void rebuild();
    void applySeriesColors() override;

    std::vector<Bar> m_bars;
    model::Routing m_ownRouting = model::Routing::Ecmp;
    QString m_routing;                    ///< the fabric's own, in words
    std::vector<model::Routing> m_others; ///< the other routings shown, in report order
    bool m_preview = false;
    int m_draws = 0; ///< draws behind the delivered figures
    double m_fraction = 1;
    double m_divisor = 1;
    QBarSet* m_capacitySet = nullptr;
    QBarSet* m_effectiveSet = nullptr;
    std::vector<QBarSet*> m_otherSets; ///< as m_others
};

} // namespace fabriclab::views
