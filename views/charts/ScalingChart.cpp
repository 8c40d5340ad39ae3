// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/ScalingChart.hpp"

#include "views/models/NumberFormat.hpp"

#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <set>

namespace fabriclab::views {

QString ScalingChart::displayTitle() {
    return tr("Scaling: step time and communication share");
}

QString ScalingChart::shortLabel() {
    return tr("Scaling");
}

ScalingChart::ScalingChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {
    setPlaceholder(tr("The scaling study runs once the design's own results are in…"));
}

void ScalingChart::showNothing(const QString& reason) {
    m_points.clear();
    clear();
    setPlaceholder(reason);
}

void ScalingChart::showStudy(const model::ScalingStudy& study) {
    clear();
    m_points = study.points;
    if (m_points.empty()) {
        setPlaceholder(QString::fromStdString(study.note));
        return;
    }
    double slowest = 0;
    std::set<int> gpus;
    for (const auto& p : m_points) {
        slowest = std::max(slowest, p.stepSeconds);
        gpus.insert(p.gpus);
    }
    const AxisUnit time = durationAxis(slowest);
    // GPU counts double from size to size: log2 on the axis, labelled with the counts.
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (const int g : gpus)
        x->append(numberText(g), std::log2(g));
    x->setRange(std::log2(*gpus.begin()) - 0.2, std::log2(*gpus.rbegin()) + 0.2);
    x->setTitleText(tr("GPUs"));
    chart()->addAxis(x, Qt::AlignBottom);
    auto* y = addValueAxis(Qt::AlignLeft, tr("step (%1)").arg(time.unit), QStringLiteral("%.3g"));
    y->setRange(0, slowest / time.divisor * 1.1);
    y->applyNiceNumbers();
    auto* share = addValueAxis(Qt::AlignRight, tr("comm. %"), QStringLiteral("%.0f"));
    double most = 0;
    for (const auto& p : m_points)
        most = std::max(most, 100 * p.commToCompute);
    share->setRange(0, std::max(1.0, most * 1.15));
    share->applyNiceNumbers();

    // One colour per fabric: its step time solid, its communication share dashed.
    const QColor colours[] = {QColor(40, 120, 200), QColor(230, 130, 30), QColor(60, 160, 90)};
    int index = 0;
    for (const std::string& fabric : study.fabricIds) {
        const QColor colour = colours[index++ % 3];
        auto* step = new QLineSeries;
        step->setName(tr("%1 step").arg(QString::fromStdString(fabric)));
        step->setPointsVisible(true);
        auto* comm = new QLineSeries;
        comm->setName(tr("%1 comm.").arg(QString::fromStdString(fabric)));
        for (const auto& p : m_points)
            if (p.fabricId == fabric) {
                step->append(std::log2(p.gpus), p.stepSeconds / time.divisor);
                comm->append(std::log2(p.gpus), 100 * p.commToCompute);
            }
        addSeries(step, {x, y});
        addSeries(comm, {x, share});
        QPen solid(colour, 2.5);
        step->setPen(solid);
        step->setColor(colour);
        QPen dashed(colour, 1.5);
        dashed.setStyle(Qt::DashLine);
        comm->setPen(dashed);
        const double divisor = time.divisor;
        setPointTooltip(step, [fabric, divisor](const QPointF& p) {
            return tr("%1 at %2 GPUs: step %3")
                .arg(QString::fromStdString(fabric), numberText(std::exp2(p.x()), 0),
                     durationText(p.y() * divisor));
        });
        setPointTooltip(comm, [fabric](const QPointF& p) {
            return tr("%1 at %2 GPUs: communication %3 of compute")
                .arg(QString::fromStdString(fabric), numberText(std::exp2(p.x()), 0),
                     percentText(p.y() / 100));
        });
    }
    if (study.breakEvenGpus) {
        auto* mark = new QLineSeries;
        mark->setName(tr("break-even"));
        const double at = std::log2(*study.breakEvenGpus);
        mark->append(at, 0);
        mark->append(at, y->max());
        addSeries(mark, {x, y});
        QPen pen(QColor(200, 60, 60));
        pen.setStyle(Qt::DotLine);
        pen.setWidthF(2);
        mark->setPen(pen);
    }
    QString text = QString::fromStdString(study.note);
    for (const std::string& skipped : study.skipped)
        text += QLatin1Char(' ') + QString::fromStdString(skipped);
    setCaption(text);
    setHasData(true);
}

ChartTable ScalingChart::table() const {
    ChartTable t;
    t.header = {QStringLiteral("fabric"),
                QStringLiteral("servers"),
                QStringLiteral("gpus"),
                QStringLiteral("step (s)"),
                QStringLiteral("comm/compute"),
                QStringLiteral("busbw (GB/s)"),
                QStringLiteral("capex (USD)"),
                QStringLiteral("per GPU-hour (USD)"),
                QStringLiteral("train GPU-hours"),
                QStringLiteral("train cost (USD)"),
                QStringLiteral("lifetime cost per million tokens (USD)")};
    for (const auto& p : m_points)
        t.rows << QStringList{QString::fromStdString(p.fabricId),
                              QString::number(p.servers),
                              QString::number(p.gpus),
                              csvNumber(p.stepSeconds, 6),
                              csvNumber(p.commToCompute, 4),
                              csvNumber(p.busBwGBps, 3),
                              csvNumber(p.capexUsd, 2),
                              csvNumber(p.perGpuHourUsd, 4),
                              csvNumber(p.trainGpuHours, 1),
                              csvNumber(p.trainCostUsd, 0),
                              csvNumber(p.perMillionTokensUsd, 6)};
    return t;
}

} // namespace fabriclab::views
