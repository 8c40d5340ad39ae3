// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/StepTimeChart.hpp"

#include "views/charts/RunFeed.hpp"

#include "views/models/NumberFormat.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace fabriclab::views {
namespace {

QString parallelismName(model::Parallelism p) {
    switch (p) {
    case model::Parallelism::Data:
        return ChartPanel::tr("data (DP)");
    case model::Parallelism::Tensor:
        return ChartPanel::tr("tensor (TP)");
    case model::Parallelism::Pipeline:
        return ChartPanel::tr("pipeline (PP)");
    case model::Parallelism::Expert:
        return ChartPanel::tr("expert (EP)");
    case model::Parallelism::Context:
        return ChartPanel::tr("context (CP)");
    }
    return {};
}

} // namespace

QString StepTimeChart::displayTitle() {
    return tr("Training step: compute and communication");
}

QString StepTimeChart::shortLabel() {
    return tr("Training step");
}

void StepTimeChart::showRunReport(const RunFeed& feed) {
    const model::RunReport& report = feed.report;
    if (report.step)
        showStep(*report.step);
    else if (!report.stepRefusal.empty())
        showNothing(engineSentence(report.stepRefusal));
    else
        showNothing(tr("The design has no workload: add one (model, GPU, parallelism) to see "
                       "the training step."));
}

StepTimeChart::StepTimeChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {}

void StepTimeChart::showNothing(const QString& reason) {
    m_segments.clear();
    clear();
    setPlaceholder(reason);
}

void StepTimeChart::showStep(const model::StepTime& s) {
    clear();
    m_segments = {{s.communicationBound ? tr("communication-bound compute") : tr("compute"),
                   s.busySeconds, 0, 0}};
    QStringList exposedParts;
    for (int i = 0; i < model::kParallelismCount; ++i) {
        const auto kind = static_cast<model::Parallelism>(i);
        const model::CommPart& part = s.part(kind);
        if (!(part.seconds > 0))
            continue;
        // Scale-up tensor parallelism is inside the measured MFU: it neither waits nor hides.
        if (!part.onFabric)
            continue;
        m_segments.push_back(
            {parallelismName(kind), part.exposedSeconds, part.idealSeconds, part.hiddenSeconds});
        if (part.exposedSeconds > 0)
            exposedParts << tr("%1 %2").arg(parallelismName(kind),
                                            durationText(part.exposedSeconds));
    }
    double insideMfu = 0;
    double hidden = 0;
    for (const Segment& segment : m_segments) {
        insideMfu += segment.insideMfuSeconds;
        hidden += segment.hiddenSeconds;
    }
    const double longest = std::max({s.stepSeconds, s.computeSeconds, insideMfu, hidden});
    const AxisUnit unit = durationAxis(longest);
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
    x->setMax(longest / unit.divisor * 1.05);
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
    text += exposedParts.isEmpty() ? tr("; none of the rest is exposed.")
                                   : tr(" (exposed: %1).").arg(exposedParts.join(tr(", ")));
    if (s.communicationBound)
        text += tr(" Even on an ideal fabric this job's communication outlasts the compute the "
                   "MFU implies, so communication sets the step: the MFU is too high for this "
                   "split, or overlap too low.");
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
