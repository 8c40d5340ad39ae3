// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/LinkUtilizationChart.hpp"

#include "views/models/NumberFormat.hpp"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

namespace fabriclab::views {

QString LinkUtilizationChart::displayTitle() {
    return tr("Link utilization over simulated time");
}

QString LinkUtilizationChart::shortLabel() {
    return tr("Link utilization");
}

LinkUtilizationChart::LinkUtilizationChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {}

void LinkUtilizationChart::showNothing(const QString& reason) {
    m_frames.clear();
    clear();
    setPlaceholder(reason);
}

void LinkUtilizationChart::showLink(const sim::Playback& playback, std::size_t index,
                                    const QString& linkName) {
    clear();
    m_frames.clear();
    auto* series = new QLineSeries;
    series->setName(tr("utilization of %1").arg(linkName));
    // Frames hold a value until the next one starts: drawn as steps.
    for (std::size_t f = 0; f < playback.frameCount(); ++f) {
        const double start = playback.times[f] * 1e3;
        const double end =
            (f + 1 < playback.frameCount() ? playback.times[f + 1] : playback.seconds) * 1e3;
        const double value = playback.utilizationAt(f, index);
        m_frames.push_back({playback.times[f], value});
        series->append(start, 100.0 * value);
        series->append(end, 100.0 * value);
    }
    auto* x = addValueAxis(Qt::AlignBottom, tr("simulated time (ms)"), QStringLiteral("%.3g"));
    x->setRange(0, playback.seconds * 1e3);
    x->setTickCount(5);
    auto* y = addValueAxis(Qt::AlignLeft, tr("%"), QStringLiteral("%.0f"));
    y->setRange(0, 100);
    y->setTickCount(3);
    addSeries(series, {x, y});
    chart()->legend()->hide(); // the panel's title names the link
    setPointTooltip(series, [](const QPointF& point) {
        return tr("at %1 ms: %2 %").arg(point.x(), 0, 'g', 3).arg(point.y(), 0, 'f', 0);
    });
    setCaption(tr("%1 runs at up to %2 of its capacity during the collective; a link at 99% "
                  "or more limits the flows crossing it.")
                   .arg(linkName, percentText(playback.peakUtilization(index))));
    setHasData(!m_frames.empty());
}

ChartTable LinkUtilizationChart::table() const {
    ChartTable table;
    table.header = {tr("frame start (s)"), tr("utilization (%)")};
    for (const Frame& frame : m_frames)
        table.rows << QStringList{QString::number(frame.startSeconds, 'g', 9),
                                  QString::number(100.0 * frame.utilization, 'g', 9)};
    return table;
}

} // namespace fabriclab::views
