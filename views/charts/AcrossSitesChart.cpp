// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/AcrossSitesChart.hpp"

#include "views/charts/RunFeed.hpp"

#include "views/models/NumberFormat.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace fabriclab::views {

QString AcrossSitesChart::displayTitle() {
    return tr("Training across sites: synchronous data parallelism against DiLoCo");
}

QString AcrossSitesChart::shortLabel() {
    return tr("Across sites");
}

AcrossSitesChart::AcrossSitesChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {}

void AcrossSitesChart::showRunReport(const RunFeed& feed) {
    const model::RunReport& report = feed.report;
    if (report.sites)
        showSites(*report.sites);
    else if (!report.stepRefusal.empty())
        showNothing(engineSentence(report.stepRefusal));
    else
        showNothing(tr("The design trains on one site: give it sites (a count and the WAN "
                       "between them) to weigh DiLoCo against synchronous training across "
                       "them."));
}

void AcrossSitesChart::showNothing(const QString& reason) {
    m_sites.reset();
    m_waiting = nullptr;
    clear();
    setPlaceholder(reason);
}

void AcrossSitesChart::showSites(const model::TrainingAcrossSites& t) {
    clear();
    m_waiting = nullptr;
    m_sites = t;
    const model::AcrossSitesMode& sync = t.synchronous;
    const model::AcrossSitesMode& diloco = t.diloco;
    const double longest = std::max(sync.stepSeconds, diloco.stepSeconds);
    const AxisUnit unit = durationAxis(longest);
    auto* series = new QHorizontalStackedBarSeries;
    series->setBarWidth(0.6);
    auto* training = new QBarSet(tr("the site's own step"));
    *training << t.siteStepSeconds / unit.divisor << t.siteStepSeconds / unit.divisor;
    auto* waiting = new QBarSet(tr("waiting on the WAN"));
    *waiting << sync.stallSeconds / unit.divisor << diloco.stallSeconds / unit.divisor;
    series->append(training);
    series->append(waiting);
    const QString dilocoName = tr("DiLoCo, H = %1").arg(t.sites.outer.innerSteps);
    auto* y = addCategoryAxis(Qt::AlignLeft, {tr("synchronous"), dilocoName});
    auto* x = addValueAxis(Qt::AlignBottom, unit.unit, QStringLiteral("%.3g"));
    x->setMin(0);
    x->setMax(longest / unit.divisor * 1.05);
    x->applyNiceNumbers();
    addSeries(series, {x, y});
    m_waiting = waiting;
    applySeriesColors();
    const double divisor = unit.divisor;
    setBarTooltip(series, [divisor, dilocoName](const QString& set, int index, double value) {
        return tr("%1, %2: %3 a step")
            .arg(index == 0 ? tr("synchronous") : dilocoName, set, durationText(value * divisor));
    });

    const auto days = [](const model::AcrossSitesMode& m) {
        return numberText(m.trainSeconds / 86400, 1);
    };
    QString text =
        tr("%1 sites, %2 GPUs, joined by %3 a span, %4 ms one way. Synchronous data "
           "parallelism waits %5 a step on the WAN (%6 of the time training, %7 days to "
           "train %8 tokens); DiLoCo waits %9 (%10, %11 days), sending %12x fewer bytes.")
            .arg(numberText(t.sites.count), numberText(static_cast<double>(t.gpus)),
                 bandwidthText(t.sites.wan.gbps * t.sites.wan.links),
                 numberText(t.sites.wan.latencyMs, 1), durationText(sync.stallSeconds),
                 percentText(sync.utilization), days(sync), numberText(t.trainTokens, 0),
                 durationText(diloco.stallSeconds), percentText(diloco.utilization), days(diloco))
            .arg(numberText(t.wanBytesRatio, 0));
    if (t.quality)
        text +=
            tr(" Quality is borrowed, not simulated: the nearest published DiLoCo run "
               "(%1 B parameters, %2 replicas, H = %3) came out %4 % in %5 against %6 "
               "(%7).")
                .arg(numberText(t.quality->paramsB, t.quality->paramsB < 1 ? 3 : 1),
                     numberText(t.quality->replicas), numberText(t.quality->innerSteps),
                     (t.quality->deltaPercent > 0 ? QStringLiteral("+") : QString()) +
                         numberText(t.quality->deltaPercent, 2),
                     QString::fromUtf8(t.quality->metric), QString::fromUtf8(t.quality->against),
                     QString::fromUtf8(t.quality->source));
    setCaption(text);
    setHasData(true);
}

void AcrossSitesChart::applySeriesColors() {
    // Time lost to the WAN in the warning colour the dashboard's notes use, whatever the theme.
    if (m_waiting)
        m_waiting->setColor(QColor(0xc0, 0x70, 0x00));
}

ChartTable AcrossSitesChart::table() const {
    ChartTable t;
    t.header = {QStringLiteral("training"),           QStringLiteral("site step (s)"),
                QStringLiteral("waiting on WAN (s)"), QStringLiteral("step (s)"),
                QStringLiteral("utilization"),        QStringLiteral("days to train"),
                QStringLiteral("cost to train (USD)")};
    if (!m_sites)
        return t;
    const auto row = [&](const QString& name, const model::AcrossSitesMode& m) {
        t.rows << QStringList{name,
                              csvNumber(m_sites->siteStepSeconds, 6),
                              csvNumber(m.stallSeconds, 6),
                              csvNumber(m.stepSeconds, 6),
                              csvNumber(m.utilization, 4),
                              csvNumber(m.trainSeconds / 86400, 3),
                              csvNumber(m.costUsd, 0)};
    };
    row(QStringLiteral("synchronous"), m_sites->synchronous);
    row(QStringLiteral("diloco"), m_sites->diloco);
    return t;
}

} // namespace fabriclab::views
