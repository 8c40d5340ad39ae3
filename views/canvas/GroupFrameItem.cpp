// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/GroupFrameItem.hpp"

#include "views/canvas/CanvasPalette.hpp"

#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace fabriclab::views {
namespace {

// Servers of neighbouring units are 8 units apart: side margins of 4 keep frames apart.
constexpr double kSideMargin = 4;
constexpr double kMargin = 12;
constexpr double kBelow = 24; // clears the names drawn under servers
constexpr double kTitleHeight = 18;

} // namespace

GroupFrameItem::GroupFrameItem(model::GroupKey key) : m_key(key) {
    // Behind the links, which are behind the nodes.
    setZValue(-2);
}

void GroupFrameItem::setTitle(const QString& title) {
    if (title == m_title)
        return;
    m_title = title;
    update();
}

void GroupFrameItem::setArea(const QRectF& membersRect) {
    // The title goes below the members: above them run the uplinks, which would hide it.
    const QRectF rect =
        membersRect.adjusted(-kSideMargin, -kMargin, kSideMargin, kBelow + kTitleHeight);
    if (rect == m_rect)
        return;
    prepareGeometryChange();
    m_rect = rect;
}

QRectF GroupFrameItem::boundingRect() const {
    return m_rect.adjusted(-1, -1, 1, 1);
}

void GroupFrameItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QPalette& palette = scene() ? scene()->palette() : QPalette();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QColor accent = CanvasPalette::tierColor(model::NodeKind::Leaf, palette);
    painter->setRenderHint(QPainter::Antialiasing, lod >= 0.3);
    QPen pen(CanvasPalette::mix(palette.color(QPalette::Base), accent, 0.5), 1, Qt::DashLine);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(CanvasPalette::mix(palette.color(QPalette::Base), accent, 0.06));
    painter->drawRoundedRect(m_rect, 8, 8);
    if (lod < 0.3)
        return;
    QFont font = painter->font();
    font.setPixelSize(12);
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(
        CanvasPalette::mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.6));
    painter->drawText(m_rect.adjusted(8, 0, -8, -3), Qt::AlignLeft | Qt::AlignBottom, m_title);
}

} // namespace fabriclab::views
