// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/BlockItem.hpp"

#include "views/canvas/CanvasPalette.hpp"

#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace fabriclab::views {
namespace {

constexpr double kWidth = 200;
constexpr double kHeight = 64;
constexpr double kStackStep = 4; // offset of the cards drawn behind, hinting "many"
constexpr double kTextLod = 0.3;
constexpr double kChip = 8;

} // namespace

BlockItem::BlockItem(model::GroupKey key) : m_key(key) {
    setFlag(ItemIsSelectable);
    setCacheMode(DeviceCoordinateCache);
}

QSizeF BlockItem::size() {
    return {kWidth, kHeight};
}

void BlockItem::setLook(const BlockLook& look) {
    if (look == m_look)
        return;
    m_look = look;
    update();
}

QRectF BlockItem::boundingRect() const {
    return QRectF(-kWidth / 2 - 3, -kHeight / 2 - 3, kWidth + 2 * kStackStep + 6,
                  kHeight + 2 * kStackStep + 6);
}

QPainterPath BlockItem::shape() const {
    QPainterPath path;
    path.addRect(
        QRectF(-kWidth / 2, -kHeight / 2, kWidth + 2 * kStackStep, kHeight + 2 * kStackStep));
    return path;
}

void BlockItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QPalette& palette = scene() ? scene()->palette() : QPalette();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool selected = isSelected();
    const QColor accent = selected ? CanvasPalette::selectionColor(palette)
                                   : CanvasPalette::tierColor(model::NodeKind::Leaf, palette);
    const QColor fill = CanvasPalette::fillFor(accent, palette);
    const QRectF front(-kWidth / 2, -kHeight / 2, kWidth, kHeight);

    painter->setRenderHint(QPainter::Antialiasing, lod >= kTextLod);
    painter->setPen(QPen(accent, selected ? 3 : 1.5));
    for (int card = 2; card >= 0; --card) {
        painter->setBrush(card == 0 ? fill
                                    : CanvasPalette::mix(fill, palette.color(QPalette::Base), 0.4));
        painter->drawRoundedRect(front.translated(card * kStackStep, card * kStackStep), 6, 6);
    }
    if (lod < kTextLod)
        return;

    QFont font = painter->font();
    font.setPixelSize(13);
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(palette.color(QPalette::Text));
    const QRectF text = front.adjusted(10, 6, -10, -6);
    painter->drawText(text, Qt::AlignLeft | Qt::AlignTop, m_look.title);
    painter->drawText(text, Qt::AlignRight | Qt::AlignTop, m_look.gpus);
    font.setBold(false);
    font.setPixelSize(12);
    painter->setFont(font);
    painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, m_look.counts);

    // One chip per rail present, so a rail-optimized unit reads at a glance.
    painter->setPen(Qt::NoPen);
    double x = text.left();
    for (const int rail : m_look.rails) {
        if (x + kChip > text.right())
            break;
        painter->setBrush(CanvasPalette::railColor(rail, palette));
        painter->drawRoundedRect(QRectF(x, text.bottom() - kChip, kChip, kChip), 2, 2);
        x += kChip + 3;
    }
}

} // namespace fabriclab::views
