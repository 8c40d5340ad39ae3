// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/LinkItem.hpp"

#include "views/canvas/CanvasPalette.hpp"

#include <QGraphicsScene>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace fabriclab::views {
namespace {

// Scene units around the line that still count as "on" it for clicks and tooltips.
constexpr double kHitWidth = 8;
constexpr double kMaxWidth = 8;
constexpr double kHairlineLod = 0.1;
// Qt's raster engine draws an aliased cosmetic pen of exactly one pixel with a per-pixel
// line routine, about twice as slow as its span fill for the same pixels; a hair wider
// rasterizes to the same single pixel through the span fill.
constexpr double kThinnestPen = 1.01;

} // namespace

LinkItem::LinkItem(EdgeKey key) : m_key(std::move(key)) {
    setFlag(ItemIsSelectable);
    // Below the nodes, so a line ends under the box it joins.
    setZValue(-1);
}

void LinkItem::setKey(EdgeKey key) {
    m_key = std::move(key);
    setSelected(false);
    setHeat(-1, false);
}

double LinkItem::widthFor(model::Gbps capacity) {
    const double units = std::max(0.0, capacity.value) / 100.0;
    return std::clamp(0.6 + 0.55 * std::log2(units + 1), 1.0, kMaxWidth);
}

void LinkItem::setLook(const LinkLook& look) {
    if (look == m_look)
        return;
    m_look = look;
    update();
}

void LinkItem::setEnds(QPointF a, QPointF b) {
    if (m_line.p1() == a && m_line.p2() == b)
        return;
    prepareGeometryChange();
    m_line = QLineF(a, b);
}

QRectF LinkItem::boundingRect() const {
    // The pen is in device pixels, the rect in scene units: pad generously so that a
    // thick, nearly vertical line still repaints cleanly when zoomed out to about 0.4.
    const double pad = kMaxWidth;
    return QRectF(m_line.p1(), m_line.p2()).normalized().adjusted(-pad, -pad, pad, pad);
}

QPainterPath LinkItem::shape() const {
    QPainterPath path(m_line.p1());
    path.lineTo(m_line.p2());
    QPainterPathStroker stroker;
    stroker.setWidth(kHitWidth);
    return stroker.createStroke(path);
}

void LinkItem::setHeat(float utilization, bool bottleneck, float mean) {
    m_meanHeat = mean;
    if (utilization == m_heat && bottleneck == m_bottleneck)
        return;
    m_heat = utilization;
    m_bottleneck = bottleneck;
    update();
}

void LinkItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QPalette& palette = scene() ? scene()->palette() : QPalette();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    QColor color = m_look.rail >= 0 ? CanvasPalette::railColor(m_look.rail, palette)
                                    : CanvasPalette::linkColor(palette);
    // Far out, thick lines merge into one grey mass: faint hairlines instead show where
    // links concentrate, the way a density plot does.
    const bool far = lod < kHairlineLod && m_look.dense; // few bundles keep their width
    double width = far ? 1.0 : m_look.width;
    // Faint colours are mixed with the background rather than drawn translucent: Qt 6.4
    // blends a translucent span of 96 or more scanlines on its global thread pool and
    // waits for it, which made each long link cost ~20 us and a 16K-GPU canvas 250 ms.
    if (m_look.dense)
        color = CanvasPalette::mix(palette.color(QPalette::Base), color, far ? 0.25 : 0.6);
    if (m_heat >= 0) {
        color = CanvasPalette::heatColor(m_heat);
        width = std::max(width, 2.0) + (m_bottleneck ? 3 : 0);
    }
    if (isSelected()) {
        color = CanvasPalette::selectionColor(palette);
        width += 2;
    }
    if (m_look.failure > 0)
        color = CanvasPalette::failureColor(m_look.failure == 2);
    QPen pen(color, std::max(width, kThinnestPen));
    pen.setCosmetic(true);
    if (m_look.failure > 0)
        pen.setStyle(Qt::DashLine);
    pen.setCapStyle(Qt::FlatCap);
    // Antialiased lines cost about four times as much; zoomed out they add nothing.
    painter->setRenderHint(QPainter::Antialiasing, !m_look.dense && lod >= 0.25);
    painter->setPen(pen);
    painter->drawLine(m_line);
}

} // namespace fabriclab::views
