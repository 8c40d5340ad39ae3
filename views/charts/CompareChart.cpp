// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/CompareChart.hpp"

#include "views/models/NumberFormat.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QEvent>
#include <QHorizontalBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace fabriclab::views {
namespace {

double percentFrom(double value, double base) {
    return base > 0 ? 100 * (value - base) / base : 0;
}

} // namespace

QString CompareChart::displayTitle() {
    return tr("Each fabric against the cheapest");
}

QString CompareChart::shortLabel() {
    return tr("Fabric comparison");
}

CompareChart::CompareChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {
    setPlaceholder(tr("Compare fabrics runs this design on every fabric and shows them here."));
    // Seven fabrics of two bars each: below this Qt Charts elides the fabric names.
    setMinimumHeight(380);
}

void CompareChart::setResult(const CompareResultPtr& result) {
    m_series = nullptr;
    clear();
    m_bars.clear();
    m_baselineId.clear();
    m_baseline.clear();
    if (!result) {
        setPlaceholder(tr("Compare fabrics runs this design on every fabric and shows them here."));
        return;
    }
    // The verdict is this result's, whether or not there are bars to draw beside it.
    const QString verdict = QString::fromStdString(result->verdict.headline);
    setCaption(verdict);
    // Every bar is set against the fabric the verdict weighed the others against.
    const QString baselineId = QString::fromStdString(result->verdict.baselineId);
    const CompareRow* base = nullptr;
    for (const CompareRow& row : result->rows)
        if (row.ok() && row.hasWorkload && row.fabricId == baselineId)
            base = &row;
    if (!base) {
        setPlaceholder(tr("No fabric has a step time to compare: the design has no workload, or "
                          "no fabric could run it. The table has what was measured."));
        setCaption(verdict);
        return;
    }
    m_baselineId = base->fabricId;
    m_baseline = base->fabricName;
    for (const CompareRow& row : result->rows) {
        if (!row.ok() || !row.hasWorkload)
            continue;
        const model::FabricOutcome& o = row.outcome;
        // The cost the verdict ranks by: the cluster's lifetime cost per trained token.
        const double baseCost = base->outcome.perMillionTokensUsd;
        m_bars.append({row.fabricId, row.fabricName, o.stepSeconds, o.perMillionTokensUsd,
                       percentFrom(o.stepSeconds, base->outcome.stepSeconds),
                       baseCost > 0 && o.perMillionTokensUsd > 0
                           ? percentFrom(o.perMillionTokensUsd, baseCost)
                           : 0.0});
    }

    // A horizontal bar chart lists categories bottom-up; reversed, the first fabric of the
    // table is the top bar.
    QStringList categories;
    auto* step = new QBarSet(tr("Step time"));
    auto* cost = new QBarSet(tr("Cost per token"));
    double low = 0;
    double high = 0;
    for (auto bar = m_bars.crbegin(); bar != m_bars.crend(); ++bar) {
        categories << (bar->fabricId == m_baselineId ? tr("%1 (baseline)").arg(bar->fabricId)
                                                     : bar->fabricId);
        step->append(bar->stepPercent);
        cost->append(bar->costPercent);
        low = std::min({low, bar->stepPercent, bar->costPercent});
        high = std::max({high, bar->stepPercent, bar->costPercent});
    }
    auto* series = new QHorizontalBarSeries;
    series->append(step);
    series->append(cost);

    auto* fabrics = addCategoryAxis(Qt::AlignLeft, categories);
    auto* values = addValueAxis(
        Qt::AlignBottom, tr("% difference from %1; below 0 is faster or cheaper").arg(m_baselineId),
        QStringLiteral("%.1f"));
    // Room beyond the longest bar for its label, on both sides of zero.
    const double span = std::max(high - low, 1.0);
    values->setRange(low < 0 ? low - 0.25 * span : 0, high > 0 ? high + 0.25 * span : 0.25 * span);
    values->applyNiceNumbers();
    addSeries(series, {fabrics, values});
    // Thick bars keep the two labels of a fabric on separate lines. Qt puts the label of a
    // negative bar just right of zero, on the empty side of that bar's own line.
    series->setBarWidth(0.9);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value%"));
    series->setLabelsPrecision(2);
    series->setLabelsVisible(true);
    m_series = series;
    colorLabels();

    const int count = static_cast<int>(m_bars.size());
    setBarTooltip(series, [this, count](const QString& set, int index, double) {
        const Bar& bar = m_bars.at(count - 1 - index);
        const bool isStep = set == tr("Step time");
        const double percent = isStep ? bar.stepPercent : bar.costPercent;
        const QString value = isStep ? tr("%1 s per step").arg(numberText(bar.stepSeconds, 4))
                              : bar.perMillionTokensUsd > 0
                                  ? tr("$%1 per million tokens over the cluster's life")
                                        .arg(numberText(bar.perMillionTokensUsd, 4))
                                  : tr("not priced (no server price for this GPU)");
        return tr("%1: %2, %3 against %4")
            .arg(bar.fabricName, value, signedPercentText(percent / 100), m_baseline);
    });
    setHasData(true);
}

void CompareChart::colorLabels() {
    // The chart theme colours bar labels for the inside of a bar (white); these sit
    // outside, on the chart's background.
    if (!m_series)
        return;
    for (QBarSet* set : m_series->barSets())
        set->setLabelColor(palette().color(QPalette::Text));
}

void CompareChart::changeEvent(QEvent* event) {
    ChartPanel::changeEvent(event); // after ChartPanel has applied the new palette's theme
    if (event->type() == QEvent::PaletteChange)
        colorLabels();
}

ChartTable CompareChart::table() const {
    ChartTable table;
    table.header = {tr("fabric"),
                    tr("name"),
                    tr("step time (s)"),
                    tr("lifetime cost per million tokens (USD)"),
                    tr("step time vs %1 (%)").arg(m_baselineId),
                    tr("cost per token vs %1 (%)").arg(m_baselineId)};
    for (const Bar& bar : m_bars)
        table.rows.append({bar.fabricId, bar.fabricName, csvNumber(bar.stepSeconds, 6),
                           csvNumber(bar.perMillionTokensUsd, 6), csvNumber(bar.stepPercent, 4),
                           csvNumber(bar.costPercent, 4)});
    return table;
}

} // namespace fabriclab::views
