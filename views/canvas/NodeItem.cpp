// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/NodeItem.hpp"

#include "views/canvas/CanvasPalette.hpp"

#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace fabriclab::views {
namespace {

// Servers sit kServerSpacing (40) apart in generated layouts, so they must stay narrower;
// leaves and spines of the largest samples sit 160 apart.
constexpr double kServerWidth = 32;
constexpr double kServerHeight = 24;
constexpr double kSwitchWidth = 104;
constexpr double kSwitchHeight = 28;
constexpr double kOutline = 1.5;

// Below this many device pixels per scene unit text is unreadable; skipping it is most
// of the cost of painting a zoomed-out fabric.
constexpr double kTextLod = 0.35;
// Servers show their GPU count inside and, close up, their name underneath.
constexpr double kNameLod = 1.0;
constexpr double kNameHeight = 12;

} // namespace

NodeItem::NodeItem(model::NodeId id) : m_id(id) {
    setFlag(ItemIsSelectable);
    // Switches are mostly text; a cached pixmap makes panning a dense fabric cheap.
    setCacheMode(DeviceCoordinateCache);
}

NodeLook NodeItem::lookOf(const model::Node& node) {
    return {QString::fromStdString(node.name), node.kind, node.server.gpus, node.placement.rail,
            node.placement.group};
}

QSizeF NodeItem::sizeFor(model::NodeKind kind) {
    return kind == model::NodeKind::Server ? QSizeF(kServerWidth, kServerHeight)
                                           : QSizeF(kSwitchWidth, kSwitchHeight);
}

void NodeItem::setLook(const NodeLook& look) {
    if (look == m_look)
        return;
    if (sizeFor(look.kind) != sizeFor(m_look.kind))
        prepareGeometryChange();
    m_look = look;
    update();
}

QRectF NodeItem::boundingRect() const {
    const QSizeF size = sizeFor(m_look.kind);
    const double pad = kOutline + 1; // room for the thicker selection outline
    const double below = m_look.kind == model::NodeKind::Server ? kNameHeight : 0;
    // A server's name may be wider than its box: it gets the whole server spacing.
    const double width =
        std::max(size.width(), m_look.kind == model::NodeKind::Server ? 40.0 : 0.0);
    return QRectF(-width / 2 - pad, -size.height() / 2 - pad, width + 2 * pad,
                  size.height() + 2 * pad + below);
}

QPainterPath NodeItem::shape() const {
    const QSizeF size = sizeFor(m_look.kind);
    QPainterPath path;
    path.addRect(QRectF(QPointF(-size.width() / 2, -size.height() / 2), size));
    return path;
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QPalette& palette = scene() ? scene()->palette() : QPalette();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool server = m_look.kind == model::NodeKind::Server;
    const QSizeF size = sizeFor(m_look.kind);
    const QRectF box(QPointF(-size.width() / 2, -size.height() / 2), size);

    // A failed node keeps its place, greyed and struck through, so the drill reads at a
    // glance; a degraded one keeps its colours with an amber outline.
    const bool down = m_look.failure == 2;
    const QColor accent = m_look.failure > 0 ? CanvasPalette::failureColor(down)
                          : m_look.kind == model::NodeKind::Leaf && m_look.rail >= 0
                              ? CanvasPalette::railColor(m_look.rail, palette)
                              : CanvasPalette::tierColor(m_look.kind, palette);
    const QColor fill = down     ? palette.color(QPalette::Mid)
                        : server ? palette.color(QPalette::Button)
                                 : CanvasPalette::fillFor(accent, palette);
    const bool selected = isSelected();

    if (lod < kTextLod) {
        // Far out a node is a few pixels: a flat box in its accent is all that shows.
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setPen(Qt::NoPen);
        painter->setBrush(selected ? CanvasPalette::selectionColor(palette)
                                   : (server ? fill : accent));
        painter->drawRect(box);
        return;
    }

    painter->setRenderHint(QPainter::Antialiasing, true);
    QPen outline(selected ? CanvasPalette::selectionColor(palette) : accent,
                 selected ? kOutline * 2 : kOutline);
    painter->setPen(outline);
    painter->setBrush(
        selected ? CanvasPalette::mix(fill, CanvasPalette::selectionColor(palette), 0.25) : fill);
    const double radius = server ? 5 : 3;
    painter->drawRoundedRect(box, radius, radius);
    if (down) {
        painter->drawLine(box.topLeft(), box.bottomRight());
        painter->drawLine(box.bottomLeft(), box.topRight());
    }

    QFont font = painter->font();
    font.setPixelSize(server ? 11 : 12);
    font.setBold(server);
    painter->setFont(font);
    painter->setPen(palette.color(server ? QPalette::ButtonText : QPalette::Text));
    const QString text = server ? QString::number(m_look.gpus) : m_look.name;
    painter->drawText(box.adjusted(3, 0, -3, 0), Qt::AlignCenter,
                      painter->fontMetrics().elidedText(text, Qt::ElideMiddle,
                                                        static_cast<int>(box.width() - 6)));
    if (server && lod >= kNameLod) {
        font.setPixelSize(9);
        font.setBold(false);
        painter->setFont(font);
        painter->setPen(palette.color(QPalette::Text));
        const QRectF name(-20, box.bottom() + 1, 40, kNameHeight - 1);
        painter->drawText(name, Qt::AlignHCenter | Qt::AlignTop,
                          painter->fontMetrics().elidedText(m_look.name, Qt::ElideMiddle, 40));
    }
}

} // namespace fabriclab::views
