// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/StepTimeChart.hpp"

#include "views/models/NumberFormat.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace fabriclab::views {
namespace {

QString parallelismName(sim::Parallelism p) {
    switch (p) {
    case sim::Parallelism::Data:
        return ChartPanel::tr("data (DP)");
    case sim::Parallelism::Tensor:
        return ChartPanel::tr("tensor (TP)");
    case sim::Parallelism::Pipeline:
        return ChartPanel::tr("pipeline (PP)");
    case sim::Parallelism::Expert:
        return ChartPanel::tr("expert (EP)");
    case sim::Parallelism::Context:
        return ChartPanel::tr("context (CP)");
    }
    return {};
}

} // namespace

StepTimeChart::StepTimeChart(QWidget* parent)
    : ChartPanel(QStringLiteral("step-time"), tr("Training step: compute and communication"),
                 parent) {}

void StepTimeChart::showNothing(const QString& reason) {
    m_segments.clear();
    clear();
    setPlaceholder(reason);
}

void StepTimeChart::showStep(const sim::StepTime& s) {
    clear();
    m_segments = {{tr("compute"), s.computeSeconds, 0}};
    QStringList exposedParts;
    for (int i = 0; i < sim::kParallelismCount; ++i) {
        const auto kind = static_cast<sim::Parallelism>(i);
        const sim::CommPart& part = s.part(kind);
        if (!(part.seconds > 0))
            continue;
        // Scale-up tensor parallelism is inside the measured MFU: it neither waits nor hides.
        const double hidden = part.onFabric ? part.seconds - part.exposedSeconds : 0;
        if (part.exposedSeconds <= 0 && hidden <= 0)
            continue; // scale-up only: part of the measured MFU, nothing to draw
        m_segments.push_back({parallelismName(kind), part.exposedSeconds, hidden});
        if (part.exposedSeconds > 0)
            exposedParts << tr("%1 %2").arg(parallelismName(kind),
                                            durationText(part.exposedSeconds));
    }
    const AxisUnit unit = durationAxis(std::max(s.stepSeconds, s.computeSeconds));
    auto* series = new QHorizontalStackedBarSeries;
    series->setBarWidth(0.6);
    for (const Segment& segment : m_segments) {
        auto* set = new QBarSet(segment.label);
        *set << segment.stepSeconds / unit.divisor << segment.hiddenSeconds / unit.divisor;
        series->append(set);
    }
    auto* y = addCategoryAxis(Qt::AlignLeft, {tr("step"), tr("hidden")});
    auto* x = addValueAxis(Qt::AlignBottom, unit.unit, QStringLiteral("%.3g"));
    x->setMin(0);
    x->setMax(std::max(s.stepSeconds, s.computeSeconds) / unit.divisor * 1.05);
    x->applyNiceNumbers();
    addSeries(series, {x, y});
    const double divisor = unit.divisor;
    setBarTooltip(series, [divisor](const QString& set, int index, double value) {
        return tr("%1, %2: %3")
            .arg(set, index == 0 ? tr("on the critical path") : tr("hidden under compute"),
                 durationText(value * divisor));
    });
    QString text = tr("A step takes %1: %2 of compute and %3 of communication the step waits on. "
                      "Fabric communication is %4 of compute time")
                       .arg(durationText(s.stepSeconds), durationText(s.computeSeconds),
                            durationText(s.exposedCommSeconds), percentText(s.commToCompute));
    text += exposedParts.isEmpty() ? tr(", all of it hidden behind compute.")
                                   : tr(" (exposed: %1).").arg(exposedParts.join(tr(", ")));
    text += tr(" %1 tokens/s at %2 MFU.").arg(numberText(s.tokensPerSecond, 0), percentText(s.mfu));
    setCaption(text);
    setHasData(true);
}

ChartTable StepTimeChart::table() const {
    ChartTable t;
    t.header = {QStringLiteral("part"), QStringLiteral("critical path (s)"),
                QStringLiteral("hidden under compute (s)")};
    for (const Segment& segment : m_segments)
        t.rows << QStringList{segment.label, csvNumber(segment.stepSeconds, 6),
                              csvNumber(segment.hiddenSeconds, 6)};
    return t;
}

} // namespace fabriclab::views
