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
    m_segments = {{tr("compute"), s.computeSeconds, 0, 0}};
    QStringList exposedParts;
    for (int i = 0; i < sim::kParallelismCount; ++i) {
        const auto kind = static_cast<sim::Parallelism>(i);
        const sim::CommPart& part = s.part(kind);
        if (!(part.seconds > 0))
            continue;
        // Scale-up tensor parallelism is inside the measured MFU: it neither waits nor hides.
        if (!part.onFabric)
            continue;
        const double hidden = std::max(0.0, part.seconds - part.exposedSeconds - part.idealSeconds);
        m_segments.push_back(
            {parallelismName(kind), part.exposedSeconds, part.idealSeconds, hidden});
        if (part.exposedSeconds > 0)
            exposedParts << tr("%1 %2").arg(parallelismName(kind),
                                            durationText(part.exposedSeconds));
    }
    const AxisUnit unit = durationAxis(std::max(s.stepSeconds, s.computeSeconds));
    auto* series = new QHorizontalStackedBarSeries;
    series->setBarWidth(0.6);
    for (const Segment& segment : m_segments) {
        auto* set = new QBarSet(segment.label);
        *set << segment.stepSeconds / unit.divisor << segment.insideMfuSeconds / unit.divisor
             << segment.hiddenSeconds / unit.divisor;
        series->append(set);
    }
    auto* y = addCategoryAxis(Qt::AlignLeft, {tr("step"), tr("inside MFU"), tr("hidden")});
    auto* x = addValueAxis(Qt::AlignBottom, unit.unit, QStringLiteral("%.3g"));
    x->setMin(0);
    x->setMax(std::max(s.stepSeconds, s.computeSeconds) / unit.divisor * 1.05);
    x->applyNiceNumbers();
    addSeries(series, {x, y});
    const double divisor = unit.divisor;
    setBarTooltip(series, [divisor](const QString& set, int index, double value) {
        return tr("%1, %2: %3")
            .arg(set,
                 index == 0   ? tr("on the critical path")
                 : index == 1 ? tr("on an ideal fabric, which the MFU already holds")
                              : tr("hidden under compute"),
                 durationText(value * divisor));
    });
    QString text = tr("A step takes %1: %2 of compute at the MFU and %3 that this fabric adds "
                      "beyond an ideal one. Fabric communication is %4 of compute time, %5 of "
                      "it on an ideal fabric and held in the MFU")
                       .arg(durationText(s.stepSeconds), durationText(s.computeSeconds),
                            durationText(s.exposedCommSeconds), percentText(s.commToCompute),
                            durationText(s.idealCommSeconds));
    text += exposedParts.isEmpty() ? tr(", all of it hidden behind compute.")
                                   : tr(" (exposed: %1).").arg(exposedParts.join(tr(", ")));
    text += tr(" %1 tokens/s at %2 MFU.").arg(numberText(s.tokensPerSecond, 0), percentText(s.mfu));
    setCaption(text);
    setHasData(true);
}

ChartTable StepTimeChart::table() const {
    ChartTable t;
    t.header = {QStringLiteral("part"), QStringLiteral("critical path (s)"),
                QStringLiteral("inside MFU (s)"), QStringLiteral("hidden under compute (s)")};
    for (const Segment& segment : m_segments)
        t.rows << QStringList{segment.label, csvNumber(segment.stepSeconds, 6),
                              csvNumber(segment.insideMfuSeconds, 6),
                              csvNumber(segment.hiddenSeconds, 6)};
    return t;
}

} // namespace fabriclab::views
