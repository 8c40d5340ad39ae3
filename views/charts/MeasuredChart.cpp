// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/MeasuredChart.hpp"

#include "views/models/NumberFormat.hpp"

#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace fabriclab::views {

QString MeasuredChart::displayTitle() {
    return tr("Your measurements against FabricLab: bus bandwidth by message size");
}

QString MeasuredChart::shortLabel() {
    return tr("Measured against FabricLab");
}

MeasuredChart::MeasuredChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {}

void MeasuredChart::showNothing(const QString& reason) {
    m_run = {};
    clear();
    m_measured = nullptr; // clear() deleted them
    m_predicted = nullptr;
    m_misses = nullptr;
    setPlaceholder(reason);
}

void MeasuredChart::applySeriesColors() {
    // Measured in the neutral capacity colour, FabricLab in purple as the design's own mark
    // is elsewhere; a miss in red, as a verdict.
    if (m_measured)
        m_measured->setColor(capacityColor());
    if (m_predicted)
        m_predicted->setColor(QColor(130, 80, 180));
    if (m_misses)
        m_misses->setColor(QColor(200, 50, 50));
}

void MeasuredChart::showRun(const model::MeasuredRun& run, const QString& designName) {
    clear();
    m_measured = nullptr;
    m_predicted = nullptr;
    m_misses = nullptr;
    m_run = run;
    std::vector<const model::MeasuredPoint*> points;
    for (const model::MeasuredPoint& p : run.points)
        if (p.compared)
            points.push_back(&p);
    std::sort(points.begin(), points.end(),
              [](const auto* a, const auto* b) { return a->bytes < b->bytes; });
    if (points.empty()) {
        setPlaceholder(tr("No row of this run could be compared (sizes of 0 bytes)."));
        return;
    }
    auto* measured = new QLineSeries;
    measured->setName(tr("measured (out-of-place)"));
    measured->setPointsVisible(true);
    auto* predicted = new QLineSeries;
    predicted->setName(tr("FabricLab on %1").arg(designName));
    predicted->setPointsVisible(true);
    auto* misses = new QScatterSeries;
    misses->setName(tr("outside tolerance"));
    misses->setMarkerSize(9);
    double most = 0;
    for (const model::MeasuredPoint* p : points) {
        const double x = std::log2(p->bytes);
        measured->append(x, p->measuredBusBwGBps);
        predicted->append(x, p->predictedBusBwGBps);
        if (!p->within)
            misses->append(x, p->measuredBusBwGBps);
        most = std::max({most, p->measuredBusBwGBps, p->predictedBusBwGBps});
    }
    auto* x = addMessageSizeAxis(points.front()->bytes, points.back()->bytes);
    auto* y = addValueAxis(Qt::AlignLeft, tr("busbw GB/s"), QStringLiteral("%.0f"));
    y->setRange(0, std::max(1.0, most * 1.1));
    y->applyNiceNumbers();
    addSeries(measured, {x, y});
    addSeries(predicted, {x, y});
    if (misses->count() > 0) {
        addSeries(misses, {x, y});
        m_misses = misses;
    } else {
        delete misses;
    }
    m_measured = measured;
    m_predicted = predicted;
    const auto pointText = [this](const QPointF& point) {
        const auto at = std::min_element(
            m_run.points.begin(), m_run.points.end(), [&](const auto& a, const auto& b) {
                const double da = a.compared ? std::abs(std::log2(a.bytes) - point.x()) : 1e9;
                const double db = b.compared ? std::abs(std::log2(b.bytes) - point.x()) : 1e9;
                return da < db;
            });
        return tr("%1 (line %2): measured %3 in %4, FabricLab %5 in %6; error %7 of the %8")
            .arg(bytesText(at->bytes))
            .arg(at->line)
            .arg(busBandwidthText(at->measuredBusBwGBps), durationText(at->measuredTimeUs * 1e-6),
                 busBandwidthText(at->predictedBusBwGBps), durationText(at->predictedTimeUs * 1e-6),
                 signedPercentText(at->error), at->byTime ? tr("time") : tr("busbw"));
    };
    setPointTooltip(measured, pointText);
    setPointTooltip(predicted, pointText);
    applySeriesColors();
    setCaption(tr("%1 on %2 server(s) x %3 GPUs: %4 of %5 sizes within tolerance, median "
                  "error %6. FabricLab times each size the log measured on the design's first "
                  "%2 servers; below 1 MiB the time is compared, from there the bus bandwidth "
                  "(10% from 1 GiB, 25% below, 20% for all-to-all).")
                   .arg(QString::fromStdString(run.binary))
                   .arg(run.servers)
                   .arg(run.gpusPerServer)
                   .arg(run.within)
                   .arg(run.compared)
                   .arg(percentText(run.medianAbsError)));
    setHasData(true);
}

ChartTable MeasuredChart::table() const {
    ChartTable t;
    t.header = {QStringLiteral("line"),
                QStringLiteral("bytes"),
                QStringLiteral("measured busbw (GB/s)"),
                QStringLiteral("FabricLab busbw (GB/s)"),
                QStringLiteral("measured time (us)"),
                QStringLiteral("FabricLab time (us)"),
                QStringLiteral("error"),
                QStringLiteral("compared on"),
                QStringLiteral("within tolerance")};
    for (const model::MeasuredPoint& p : m_run.points) {
        if (!p.compared)
            continue;
        t.rows << QStringList{QString::number(p.line),
                              csvNumber(p.bytes, 0),
                              csvNumber(p.measuredBusBwGBps, 3),
                              csvNumber(p.predictedBusBwGBps, 3),
                              csvNumber(p.measuredTimeUs, 3),
                              csvNumber(p.predictedTimeUs, 3),
                              csvNumber(p.error, 4),
                              p.byTime ? QStringLiteral("time") : QStringLiteral("busbw"),
                              p.within ? QStringLiteral("yes") : QStringLiteral("no")};
    }
    return t;
}

} // namespace fabriclab::views
