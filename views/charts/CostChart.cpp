// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/CostChart.hpp"

#include "views/charts/RunFeed.hpp"

#include "views/models/NumberFormat.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <array>

namespace fabriclab::views {
namespace {

QString tierName(model::CostTier tier) {
    switch (tier) {
    case model::CostTier::Servers:
        return ChartPanel::tr("Servers");
    case model::CostTier::Leaf:
        return ChartPanel::tr("Leaf");
    case model::CostTier::Spine:
        return ChartPanel::tr("Spine");
    case model::CostTier::Core:
        return ChartPanel::tr("Core");
    case model::CostTier::LeafSpine:
        return ChartPanel::tr("Leaf–spine");
    case model::CostTier::SpineCore:
        return ChartPanel::tr("Spine–core");
    case model::CostTier::Other:
        return ChartPanel::tr("Other");
    }
    return {};
}

QString categoryName(model::CostCategory category) {
    switch (category) {
    case model::CostCategory::Switches:
        return ChartPanel::tr("Switches");
    case model::CostCategory::Nics:
        return ChartPanel::tr("NICs");
    case model::CostCategory::Cables:
        return ChartPanel::tr("Cables and optics");
    }
    return {};
}

} // namespace

QString CostChart::displayTitle() {
    return tr("Cost: fabric capex by tier");
}

QString CostChart::shortLabel() {
    return tr("Cost");
}

void CostChart::showRunReport(const RunFeed& feed) {
    showReport(feed.report);
}

CostChart::CostChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {}

void CostChart::showNothing(const QString& reason) {
    m_bom.clear();
    clear();
    setPlaceholder(reason);
}

void CostChart::showReport(const model::RunReport& r) {
    clear();
    m_bom = r.cost.bom;
    // Money per (tier, category), from the bill of materials as priced by the engine.
    std::array<std::array<double, 3>, model::kCostTierCount> usd{};
    for (const model::BomLine& line : m_bom)
        usd[static_cast<std::size_t>(line.tier)][static_cast<std::size_t>(line.category)] +=
            line.total().value;
    std::vector<model::CostTier> tiers;
    double most = 0;
    for (int t = 0; t < model::kCostTierCount; ++t) {
        const auto& row = usd[static_cast<std::size_t>(t)];
        const double sum = row[0] + row[1] + row[2];
        if (sum > 0) {
            tiers.push_back(static_cast<model::CostTier>(t));
            most = std::max(most, sum);
        }
    }
    if (tiers.empty()) {
        setPlaceholder(tr("Nothing to price: the design has no switches, NICs or cables."));
        return;
    }
    const bool millions = most >= 2e6;
    const double divisor = millions ? 1e6 : 1e3;
    auto* series = new QStackedBarSeries;
    QStringList categories;
    for (const auto tier : tiers)
        categories << tierName(tier);
    for (int c = 0; c < 3; ++c) {
        auto* set = new QBarSet(categoryName(static_cast<model::CostCategory>(c)));
        for (const auto tier : tiers)
            *set << usd[static_cast<std::size_t>(tier)][static_cast<std::size_t>(c)] / divisor;
        series->append(set);
    }
    auto* x = addCategoryAxis(Qt::AlignBottom, categories);
    auto* y = addValueAxis(Qt::AlignLeft, millions ? tr("US$ million") : tr("US$ thousand"),
                           QStringLiteral("%.4g"));
    y->setRange(0, most / divisor * 1.08);
    y->applyNiceNumbers();
    addSeries(series, {x, y});
    setBarTooltip(series, [categories, divisor](const QString& set, int index, double value) {
        return tr("%1 — %2: %3").arg(categories.value(index), set, usdText(value * divisor));
    });
    QString text = tr("Fabric capex %1 (switches %2, NICs %3, cables and optics %4); %5 of "
                      "power; %6 per GPU-hour over %7 months.")
                       .arg(usdText(r.cost.capex.value), usdText(r.cost.switches.value),
                            usdText(r.cost.nics.value), usdText(r.cost.cables.value),
                            numberText(r.cost.power.value / 1000, 1) + tr(" kW"),
                            QStringLiteral("$") + numberText(r.cost.perGpuHour, 3),
                            numberText(r.cost.amortizationMonths));
    if (r.training)
        text += tr(" Training %1 tokens takes %2 (%3 GPU-hours) and costs %4 rented.")
                    .arg(numberText(r.training->tokens), durationText(r.training->seconds),
                         numberText(r.training->gpuHours, 0), usdText(r.training->costUsd));
    // The whole cluster, as the comparison verdict weighs it: which mode, and per token.
    const model::OwnershipCost& own = r.ownership;
    if (own.priced && own.mode == model::OwnershipMode::Owned)
        text += tr(" Owned over %1 months the cluster costs %2 (GPU servers %3, energy %4): "
                   "%5 per GPU-hour")
                    .arg(numberText(own.months), usdText(own.totalUsd), usdText(own.serversUsd),
                         usdText(own.energyUsd),
                         QStringLiteral("$") + numberText(own.perGpuHourUsd, 2));
    else if (own.priced)
        text +=
            tr(" Rented over %1 months (%2) the cluster costs %3: %4 per GPU-hour")
                .arg(numberText(own.months), QString::fromStdString(own.rentalOffer),
                     usdText(own.totalUsd), QStringLiteral("$") + numberText(own.perGpuHourUsd, 2));
    if (own.priced)
        text += own.perMillionTokensUsd > 0
                    ? tr(", %1 per million tokens trained.")
                          .arg(QStringLiteral("$") + numberText(own.perMillionTokensUsd, 3))
                    : QStringLiteral(".");
    setCaption(text);
    setHasData(true);
}

ChartTable CostChart::table() const {
    ChartTable t;
    t.header = {QStringLiteral("tier"),       QStringLiteral("category"),
                QStringLiteral("item"),       QStringLiteral("quantity"),
                QStringLiteral("unit (USD)"), QStringLiteral("total (USD)"),
                QStringLiteral("power (W)")};
    for (const model::BomLine& line : m_bom)
        t.rows << QStringList{
            engineText(model::toString(line.tier)), engineText(model::toString(line.category)),
            QString::fromStdString(line.item),      QString::number(line.quantity),
            csvNumber(line.unitPrice.value, 2),     csvNumber(line.total().value, 2),
            csvNumber(line.power().value, 1)};
    return t;
}

} // namespace fabriclab::views
