// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/BusBandwidthChart.hpp"

#include "views/charts/RunFeed.hpp"

#include "views/models/NumberFormat.hpp"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace fabriclab::views {

QString BusBandwidthChart::displayTitle() {
    return tr("Collective: bus bandwidth against message size");
}

QString BusBandwidthChart::shortLabel() {
    return tr("Bus bandwidth vs size");
}

void BusBandwidthChart::showRunReport(const RunFeed& feed) {
    const model::RunReport& report = feed.report;
    if (!report.collectiveRefusal.empty())
        showNothing(engineSentence(report.collectiveRefusal));
    else
        showCurve(report.busBwCurve, report.collective,
                  engineText(model::toString(report.collective.op)));
}

BusBandwidthChart::BusBandwidthChart(QWidget* parent)
    : ChartPanel(QString::fromLatin1(kId), displayTitle(), parent) {}

void BusBandwidthChart::showNothing(const QString& reason) {
    m_curve.clear();
    clear();
    m_band = nullptr; // clear() deleted them
    m_line = nullptr;
    m_mark = nullptr;
    setPlaceholder(reason);
}

void BusBandwidthChart::applySeriesColors() {
    // The band is what static ECMP's hashes do: the ECMP colour of every chart. The line and
    // the design's mark keep clear of both routing colours, which they do not stand for.
    if (m_line)
        m_line->setColor(capacityColor());
    if (m_mark)
        m_mark->setColor(QColor(130, 80, 180));
    if (!m_band)
        return;
    QColor fill = routingColor(model::Routing::Ecmp);
    fill.setAlphaF(0.3f);
    m_band->setBrush(fill);
    m_band->setPen(Qt::NoPen);
}

void BusBandwidthChart::showCurve(const std::vector<sim::BusBwPoint>& curve,
                                  const sim::CollectiveResult& design, const QString& operation) {
    clear();
    m_band = nullptr;
    m_line = nullptr;
    m_mark = nullptr;
    m_curve = curve;
    if (curve.empty()) {
        setPlaceholder(tr("No message sizes were timed."));
        return;
    }
    // Sizes double from point to point: plot against log2(size) and label in KiB/MiB/GiB.
    auto* line = new QLineSeries;
    line->setName(tr("%1 busbw").arg(operation));
    line->setPointsVisible(true);
    double most = 0;
    for (const auto& p : curve) {
        line->append(std::log2(p.bytes), p.busBwGBps);
        most = std::max(most, p.busBwGBps);
    }
    auto* x = addMessageSizeAxis(curve.front().bytes, curve.back().bytes);
    auto* y = addValueAxis(Qt::AlignLeft, tr("busbw GB/s"), QStringLiteral("%.0f"));
    // Static ECMP: the band from the slowest to the fastest draw of flow hash keys, under
    // the mean's line, so the hash luck a single job may see is in the picture.
    QAreaSeries* band = nullptr;
    if (std::any_of(curve.begin(), curve.end(),
                    [](const sim::BusBwPoint& p) { return p.ecmpDraws > 1; })) {
        auto* fastest = new QLineSeries;
        auto* slowest = new QLineSeries;
        for (const auto& p : curve) {
            fastest->append(std::log2(p.bytes), p.busBwMaxGBps);
            slowest->append(std::log2(p.bytes), p.busBwMinGBps);
            most = std::max(most, p.busBwMaxGBps);
        }
        band = new QAreaSeries(fastest, slowest);
        fastest->setParent(band); // the band draws them; it does not own them by itself
        slowest->setParent(band);
        band->setName(tr("ECMP draws: slowest to fastest"));
    }
    y->setRange(0, std::max(1.0, most * 1.1));
    y->applyNiceNumbers();
    if (band)
        addSeries(band, {x, y});
    addSeries(line, {x, y});
    m_band = band;
    m_line = line;
    setPointTooltip(line, [this](const QPointF& point) {
        const auto at = std::min_element(m_curve.begin(), m_curve.end(), [&](auto a, auto b) {
            return std::abs(std::log2(a.bytes) - point.x()) <
                   std::abs(std::log2(b.bytes) - point.x());
        });
        return tr("%1: busbw %2, algbw %3, %4 (%5)")
            .arg(bytesText(at->bytes), busBandwidthText(at->busBwGBps),
                 busBandwidthText(at->algBwGBps), durationText(at->seconds),
                 engineText(model::toString(at->algorithm)));
    });
    auto* mark = new QScatterSeries;
    mark->setName(tr("this design: %1").arg(bytesText(design.bytes)));
    mark->setMarkerSize(11);
    mark->append(std::log2(std::max(1.0, design.bytes)), design.busBwGBps);
    addSeries(mark, {x, y});
    m_mark = mark;
    applySeriesColors();
    setCaption(tr("At the design's %1 the %2 reaches %3 bus bandwidth (%4 algorithm bandwidth) "
                  "in %5. Small messages are bound by latency, large ones by the fabric; "
                  "bus bandwidth in GB/s as nccl-tests reports it.")
                   .arg(bytesText(design.bytes), operation, busBandwidthText(design.busBwGBps),
                        busBandwidthText(design.algBwGBps), durationText(design.seconds)) +
               (band ? tr(" Static ECMP hashes each flow onto one uplink: the line is the mean "
                          "of %1 draws of hash keys, the band their slowest to fastest.")
                           .arg(numberText(design.ecmpDraws))
                     : QString()));
    setHasData(true);
}

ChartTable BusBandwidthChart::table() const {
    ChartTable t;
    t.header = {QStringLiteral("bytes"),
                QStringLiteral("time (s)"),
                QStringLiteral("algbw (GB/s)"),
                QStringLiteral("busbw (GB/s)"),
                QStringLiteral("algorithm"),
                QStringLiteral("busbw slowest ECMP draw (GB/s)"),
                QStringLiteral("busbw fastest ECMP draw (GB/s)")};
    for (const auto& p : m_curve)
        t.rows << QStringList{csvNumber(p.bytes, 0),
                              csvNumber(p.seconds, 9),
                              csvNumber(p.algBwGBps, 3),
                              csvNumber(p.busBwGBps, 3),
                              engineText(model::toString(p.algorithm)),
                              csvNumber(p.busBwMinGBps, 3),
                              csvNumber(p.busBwMaxGBps, 3)};
    return t;
}

} // namespace fabriclab::views
