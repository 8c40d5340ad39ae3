// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/LinkNoteItem.hpp"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace fabriclab::views {
namespace {

/// The scene's type (presentation mode enlarges it), a little smaller, bold. In pixels, as
/// the nodes' labels are: a point size would be measured at the screen's 96 dpi and drawn at
/// a printer's 300 (the report), three times larger than its box.
QFont noteFont(const QGraphicsScene* scene) {
    QFont font = scene ? scene->font() : QFont();
    constexpr double kPixelsPerPoint = 96.0 / 72.0;
    const double pixels =
        font.pointSizeF() > 0 ? font.pointSizeF() * kPixelsPerPoint : font.pixelSize();
    font.setPixelSize(std::max(1, static_cast<int>(std::lround(pixels * 0.9))));
    font.setBold(true);
    return font;
}

} // namespace

LinkNoteItem::LinkNoteItem(QString text) : m_text(std::move(text)) {
    setFlag(ItemIgnoresTransformations);
    setZValue(20); // above links, nodes and blocks: a note is what the step is about
    setAcceptedMouseButtons(Qt::NoButton);
    fitFont();
}

QVariant LinkNoteItem::itemChange(GraphicsItemChange change, const QVariant& value) {
    if (change == ItemSceneHasChanged)
        fitFont(); // measured in the type of the scene it joined
    return QGraphicsItem::itemChange(change, value);
}

void LinkNoteItem::fitFont() {
    const QFont font = noteFont(scene());
    if (!m_rect.isNull() && font == m_font)
        return;
    prepareGeometryChange();
    m_font = font;
    const QFontMetricsF metrics(m_font);
    const QSizeF size(metrics.horizontalAdvance(m_text) + 8, metrics.height() + 2);
    m_rect = QRectF(QPointF(-size.width() / 2, -size.height() / 2), size);
}

QRectF LinkNoteItem::boundingRect() const {
    return m_rect.adjusted(-1, -1, 1, 1);
}

void LinkNoteItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    const QPalette palette = scene() ? scene()->palette() : QPalette();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(palette.color(QPalette::Text), 1));
    painter->setBrush(palette.color(QPalette::ToolTipBase));
    painter->drawRoundedRect(m_rect, 4, 4);
    painter->setFont(m_font);
    painter->setPen(palette.color(QPalette::ToolTipText));
    painter->drawText(m_rect, Qt::AlignCenter, m_text);
}

} // namespace fabriclab::views
