// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/BisectionChart.hpp"

#include "views/charts/RunFeed.hpp"

#include "views/models/NumberFormat.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QValueAxis>

#include <algorithm>

namespace fabriclab::views {
namespace {

QString routingName(model::Routing routing) {
    return QString::fromUtf8(model::describe(routing));
}

/// A legend entry short enough that four fit under a third of a laptop screen.
QString legendName(model::Routing routing) {
    switch (routing) {
    case model::Routing::Adaptive:
        return ChartPanel::tr("adaptive");
    case model::Routing::Spray:
        return ChartPanel::tr("spraying");
    case model::Routing::Valiant:
        return ChartPanel::tr("Valiant");
    case model::Routing::Ugal:
        return ChartPanel::tr("UGAL");
    case model::Routing::Ecmp:
        break;
    }
    return ChartPanel::tr("ECMP");
}

} // namespace

QString BisectionChart::displayTitle() {
    return tr("Bisection: theoretical against delivered");
}

QString BisectionChart::shortLabel() {
    return tr("Bisection");
}

void BisectionChart::showRunReport(const RunFeed& feed) {
    showReport(feed.report, feed.fullBisection);
}

void BisectionChart::setPlaybackTime(double, double fraction) {
    setPlaybackFraction(fraction);
}

BisectionChart::BisectionChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {}

void BisectionChart::showNothing(const QString& reason) {
    m_bars.clear();
    m_preview = false;
    clear();
    m_capacitySet = nullptr; // clear() deleted them
    m_effectiveSet = nullptr;
    m_otherSets.clear();
    setPlaceholder(reason);
}

void BisectionChart::showReport(const model::RunReport& r, const model::EffectiveBisections* full) {
    const sim::EffectiveBisection& effective = full ? full->effective : r.effective;
    const std::vector<model::RoutingBisection>& others =
        full ? full->otherRoutings : r.otherRoutings;
    m_ownRouting = r.fabric.routing;
    m_routing = routingName(m_ownRouting);
    m_others.clear();
    for (const model::RoutingBisection& other : others)
        m_others.push_back(other.routing);
    const auto carriedByOthers = [&](std::optional<std::size_t> tier) {
        std::vector<double> carried;
        for (const model::RoutingBisection& other : others)
            carried.push_back(tier ? other.effective.tiers[*tier].carriedGbps / 2
                                   : other.effective.gbps);
        return carried;
    };
    m_draws = effective.seeds;
    const int cliDraws = model::RunOptions{}.bisectionSeeds;
    m_preview = effective.seeds > 0 && effective.seeds < cliDraws;
    m_bars = {{tr("Halves"), r.bisection.minCut.value, effective.gbps, carriedByOthers({})}};
    const std::pair<model::LinkTier, QString> tiers[] = {
        {model::LinkTier::Server, tr("Server links")},
        {model::LinkTier::LeafSpine, tr("Leaf–spine")},
        {model::LinkTier::SpineCore, tr("Spine–core")},
        {model::LinkTier::Other, tr("Other")}};
    // The engine sums both directions of a tier; one direction reads on the same scale as
    // the cut across the halves (which is one direction too).
    for (const auto& [tier, label] : tiers) {
        const auto index = static_cast<std::size_t>(tier);
        const auto& mine = effective.tiers[index];
        if (mine.capacityGbps > 0)
            m_bars.push_back(
                {label, mine.capacityGbps / 2, mine.carriedGbps / 2, carriedByOthers(index)});
    }
    // On a dragonfly, the adversarial pattern beside the random halves: where minimal,
    // Valiant and UGAL routing part.
    if (!r.groupShift.empty()) {
        const auto deliveredUnder = [&](model::Routing routing) {
            for (const model::RoutingGroupShift& s : r.groupShift)
                if (s.routing == routing)
                    return s.shift.deliveredGbps;
            return 0.0;
        };
        std::vector<double> others;
        for (const model::Routing routing : m_others)
            others.push_back(deliveredUnder(routing));
        m_bars.push_back({tr("Group shift"), r.groupShift.front().shift.capacityGbps,
                          deliveredUnder(m_ownRouting), others});
    }
    const QString draws = effective.seeds == 1
                              ? tr("one random draw")
                              : tr("%1 random draws").arg(numberText(effective.seeds));
    QString text =
        tr("Min cut %1 across the worst halving (%2): %3 of half the servers' "
           "injection bandwidth. Random-permutation traffic gets %4 under %5 "
           "(%6 of the min cut = %7 line efficiency x %8 routing efficiency; %9 over %10)")
            .arg(bandwidthText(r.bisection.minCut.value), QString::fromStdString(r.bisection.split),
                 percentText(r.bisection.ratio), bandwidthText(effective.gbps), m_routing,
                 percentText(effective.ratio), percentText(effective.lineEfficiency),
                 percentText(effective.routingEfficiency),
                 bandwidthRangeText(effective.minGbps, effective.maxGbps))
            .arg(draws);
    for (const model::RoutingBisection& other : others)
        text += tr("; %1 would deliver %2 (%3)")
                    .arg(routingName(other.routing), bandwidthText(other.effective.gbps),
                         percentText(other.effective.ratio));
    text += tr(". Tier bars: each tier's cables and what the traffic puts on them, per direction.");
    if (!r.groupShift.empty()) {
        QStringList under;
        for (const model::RoutingGroupShift& s : r.groupShift)
            under << tr("%1 %2").arg(legendName(s.routing),
                                     percentText(s.shift.deliveredGbps / s.shift.offeredGbps));
        text += tr(" Group shift (every server sending to its twin in the next group, the "
                   "pattern that defeats minimal routing on a dragonfly): %1 of what the "
                   "servers inject; no routing can deliver more than %2, each flow crossing "
                   "its direct global links or at least two (the capacity bar).")
                    .arg(under.join(tr(", ")), percentText(r.groupShift.front().shift.capacityGbps /
                                                           r.groupShift.front().shift.offeredGbps));
    }
    if (m_preview)
        text += tr(" A %1-draw preview, kept quick for live edits: the %2-draw figure "
                   "fabriclab-cli reports replaces it once computed.")
                    .arg(numberText(effective.seeds), numberText(cliDraws));
    setCaption(text);
    rebuild();
}

void BisectionChart::setPlaybackFraction(double fraction) {
    m_fraction = std::clamp(fraction, 0.0, 1.0);
    if (!m_effectiveSet)
        return;
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        const int at = static_cast<int>(i);
        m_effectiveSet->replace(at, m_bars[i].effectiveGbps * m_fraction / m_divisor);
        for (std::size_t k = 0; k < m_otherSets.size(); ++k)
            m_otherSets[k]->replace(at, m_bars[i].otherGbps[k] * m_fraction / m_divisor);
    }
}

void BisectionChart::applySeriesColors() {
    // One colour per routing mode, whichever the fabric runs: green never means ECMP on
    // one fabric and adaptive routing on the next.
    if (m_capacitySet)
        m_capacitySet->setColor(capacityColor());
    if (m_effectiveSet)
        m_effectiveSet->setColor(routingColor(m_ownRouting));
    for (std::size_t k = 0; k < m_otherSets.size(); ++k)
        m_otherSets[k]->setColor(routingColor(m_others[k]));
}

void BisectionChart::rebuild() {
    clear();
    m_capacitySet = nullptr;
    m_effectiveSet = nullptr;
    m_otherSets.clear();
    if (m_bars.empty()) {
        setHasData(false);
        return;
    }
    double most = 0;
    for (const Bar& bar : m_bars) {
        most = std::max({most, bar.theoreticalGbps, bar.effectiveGbps});
        for (const double other : bar.otherGbps)
            most = std::max(most, other);
    }
    const AxisUnit unit = bandwidthAxis(most);
    m_divisor = unit.divisor;

    auto* theoretical = m_capacitySet = new QBarSet(tr("capacity"));
    m_effectiveSet = new QBarSet(
        m_preview ? tr("%1 (%2-draw preview)").arg(legendName(m_ownRouting), numberText(m_draws))
                  : legendName(m_ownRouting));
    for (const model::Routing routing : m_others)
        m_otherSets.push_back(new QBarSet(legendName(routing)));
    QStringList categories;
    for (const Bar& bar : m_bars) {
        categories << bar.label;
        *theoretical << bar.theoreticalGbps / m_divisor;
        *m_effectiveSet << bar.effectiveGbps * m_fraction / m_divisor;
        for (std::size_t k = 0; k < m_otherSets.size(); ++k)
            *m_otherSets[k] << bar.otherGbps[k] * m_fraction / m_divisor;
    }
    auto* series = new QBarSeries;
    series->append(theoretical);
    series->append(m_effectiveSet);
    for (QBarSet* other : m_otherSets)
        series->append(other);
    auto* x = addCategoryAxis(Qt::AlignBottom, categories);
    auto* y = addValueAxis(Qt::AlignLeft, unit.unit, QStringLiteral("%.0f"));
    y->setMin(0);
    y->setMax(most / m_divisor * 1.08);
    y->applyNiceNumbers();
    addSeries(series, {x, y});
    applySeriesColors();
    const double divisor = m_divisor;
    setBarTooltip(series, [this, divisor](const QString& set, int index, double value) {
        return tr("%1 — %2: %3")
            .arg(m_bars[static_cast<std::size_t>(index)].label, set,
                 bandwidthText(value * divisor));
    });
    setHasData(true);
}

ChartTable BisectionChart::table() const {
    ChartTable t;
    // Halves: the min cut and the delivered bisection; tiers: one direction of each tier.
    t.header = {QStringLiteral("bar"), QStringLiteral("theoretical (Gb/s)"),
                QStringLiteral("delivered, %1 (Gb/s)").arg(m_routing)};
    for (const model::Routing routing : m_others)
        t.header << QStringLiteral("delivered, %1 (Gb/s)").arg(routingName(routing));
    for (const Bar& bar : m_bars) {
        QStringList row{bar.label, csvNumber(bar.theoreticalGbps, 3),
                        csvNumber(bar.effectiveGbps, 3)};
        for (const double other : bar.otherGbps)
            row << csvNumber(other, 3);
        t.rows << row;
    }
    return t;
}

} // namespace fabriclab::views
