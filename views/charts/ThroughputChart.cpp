// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/ThroughputChart.hpp"

#include "views/charts/RunFeed.hpp"

#include "views/models/NumberFormat.hpp"

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>

namespace fabriclab::views {

QString ThroughputChart::displayTitle() {
    return tr("Collective: fabric throughput over simulated time");
}

QString ThroughputChart::shortLabel() {
    return tr("Collective over time");
}

void ThroughputChart::showRunReport(const RunFeed& feed) {
    // A part the engine refused blanks its own charts, with its reason; the rest stay.
    const model::RunReport& report = feed.report;
    if (!report.collectiveRefusal.empty())
        showNothing(engineSentence(report.collectiveRefusal));
    else if (report.playback)
        showPlayback(*report.playback, collectiveName(report));
    else
        showNothing(tr("No timeline was simulated."));
}

void ThroughputChart::setPlaybackTime(double seconds, double) {
    setCursor(seconds);
}

ThroughputChart::ThroughputChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {}

void ThroughputChart::showNothing(const QString& reason) {
    m_points.clear();
    m_cursor = nullptr;
    clear();
    setPlaceholder(reason);
}

void ThroughputChart::showPlayback(const sim::Playback& p, const QString& what) {
    clear();
    m_cursor = nullptr;
    m_points.clear();
    m_maxGbps = 0;
    // A frame holds its throughput until the next one starts: draw steps, not slopes.
    for (std::size_t f = 0; f < p.frameCount(); ++f) {
        const double gbps = p.throughputGbps[f];
        if (f > 0)
            m_points.emplace_back(p.times[f], p.throughputGbps[f - 1]);
        m_points.emplace_back(p.times[f], gbps);
        m_maxGbps = std::max(m_maxGbps, gbps);
    }
    if (m_points.empty() || p.seconds <= 0 || !(m_maxGbps > 0)) {
        m_points.clear();
        setPlaceholder(tr("%1 takes %2 without flows to draw: it stays inside one server, or "
                          "the switches reduce in the network (SHARP), which is timed from the "
                          "NICs' line rate rather than simulated flow by flow.")
                           .arg(what, durationText(p.seconds)));
        return;
    }
    const AxisUnit time = durationAxis(p.seconds);
    const AxisUnit rate = bandwidthAxis(m_maxGbps);
    m_timeDivisor = time.divisor;
    auto* line = new QLineSeries;
    line->setName(tr("Fabric goodput"));
    QList<QPointF> drawn;
    for (const QPointF& point : m_points)
        drawn << QPointF(point.x() / time.divisor, point.y() / rate.divisor);
    line->replace(drawn);
    auto* x = addValueAxis(Qt::AlignBottom, tr("simulated time (%1)").arg(time.unit),
                           QStringLiteral("%.3g"));
    auto* y = addValueAxis(Qt::AlignLeft, rate.unit, QStringLiteral("%.0f"));
    x->setRange(0, p.seconds / time.divisor);
    y->setRange(0, std::max(1e-9, m_maxGbps / rate.divisor * 1.1));
    y->applyNiceNumbers();
    addSeries(line, {x, y});
    const double rateDivisor = rate.divisor;
    const double timeDivisor = time.divisor;
    setPointTooltip(line, [=](const QPointF& point) {
        return tr("at %1: %2")
            .arg(durationText(point.x() * timeDivisor), bandwidthText(point.y() * rateDivisor));
    });
    m_cursor = new QLineSeries;
    m_cursor->setName(tr("Playback"));
    QPen pen(QColor(220, 60, 60));
    pen.setWidthF(1.5);
    pen.setStyle(Qt::DashLine);
    m_cursor->setPen(pen);
    addSeries(m_cursor, {x, y});
    m_cursor->setPen(pen); // the theme recolours new series; the cursor keeps its red
    setCursor(0);
    QString text = tr("%1 takes %2 of simulated time; the fabric peaks at %3.")
                       .arg(what, durationText(p.seconds), bandwidthText(m_maxGbps));
    if (p.steps > 1)
        text += tr(" It repeats one fabric step %1 times; each drawn step stands for %2.")
                    .arg(numberText(p.steps), numberText(p.stepsPerTile));
    setCaption(text);
    setHasData(true);
}

void ThroughputChart::setCursor(double seconds) {
    if (!m_cursor)
        return;
    const double x = seconds / m_timeDivisor;
    const auto* y = qobject_cast<QValueAxis*>(chart()->axes(Qt::Vertical).value(0));
    const double top = y ? y->max() : m_maxGbps;
    m_cursor->replace(QList<QPointF>{{x, 0}, {x, top}});
}

ChartTable ThroughputChart::table() const {
    ChartTable t;
    t.header = {QStringLiteral("time (s)"), QStringLiteral("fabric goodput (Gb/s)")};
    for (const QPointF& point : m_points)
        t.rows << QStringList{csvNumber(point.x(), 12), csvNumber(point.y(), 3)};
    return t;
}

} // namespace fabriclab::views
