// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/BlockItem.hpp"

#include "views/canvas/CanvasPalette.hpp"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace fabriclab::views {
namespace {

constexpr double kWidth = 200;
constexpr double kHeight = 64;
constexpr double kStackStep = 4; // offset of the cards drawn behind, hinting "many"
constexpr double kChip = 8;
constexpr double kInset = 0.04;      // share of a wide card's width left as air each side
constexpr double kBandHeight = 0.08; // a wide row's card height, as a share of its width
constexpr double kTitlePixels = 13;  // text size on screen, whatever the zoom
constexpr double kDetailPixels = 12;
constexpr double kMinTextPixels = 30; // narrower cards on screen show no text

} // namespace

BlockItem::BlockItem(model::GroupKey key) : m_key(key) {
    setFlag(ItemIsSelectable);
    setCacheMode(DeviceCoordinateCache);
}

QSizeF BlockItem::size() {
    return {kWidth, kHeight};
}

QRectF BlockItem::frameFor(const model::Block& block) {
    const double spanX = block.right - block.left;
    const double spanY = block.bottom - block.top;
    const double width = std::max(kWidth, spanX * (1 - 2 * kInset));
    const double height = std::max({kHeight, spanY * 1.1, width * kBandHeight});
    const double centreX = (block.left + block.right) / 2 - block.x;
    const double centreY = (block.top + block.bottom) / 2 - block.y;
    return {centreX - width / 2, centreY - height / 2, width, height};
}

void BlockItem::setLook(const BlockLook& look) {
    if (look == m_look)
        return;
    if (look.frame != m_look.frame)
        prepareGeometryChange();
    m_look = look;
    update();
}

QRectF BlockItem::boundingRect() const {
    return m_look.frame.adjusted(-3, -3, 2 * kStackStep + 3, 2 * kStackStep + 3);
}

QPainterPath BlockItem::shape() const {
    QPainterPath path;
    path.addRect(m_look.frame.adjusted(0, 0, 2 * kStackStep, 2 * kStackStep));
    return path;
}

void BlockItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QPalette& palette = scene() ? scene()->palette() : QPalette();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool selected = isSelected();
    const QColor accent = selected ? CanvasPalette::selectionColor(palette)
                                   : CanvasPalette::tierColor(model::NodeKind::Leaf, palette);
    const QColor fill = CanvasPalette::fillFor(accent, palette);
    const QRectF front = m_look.frame;
    const double radius = std::min(6.0, front.height() / 4);

    painter->setRenderHint(QPainter::Antialiasing, lod >= 0.3);
    // A hairline pen keeps the outline one pixel wide however far out the view is.
    QPen outline(accent, selected ? 3 : 1.5);
    outline.setCosmetic(true);
    painter->setPen(outline);
    for (int card = 2; card >= 0; --card) {
        painter->setBrush(card == 0 ? fill
                                    : CanvasPalette::mix(fill, palette.color(QPalette::Base), 0.4));
        painter->drawRoundedRect(front.translated(card * kStackStep, card * kStackStep), radius,
                                 radius);
    }

    // Text in device pixels: a pod card 60 pixels wide in a fitted 16K-GPU view still says
    // which pod it is and how many GPUs it holds.
    const QRectF onScreen = painter->worldTransform().mapRect(front);
    if (onScreen.width() < kMinTextPixels / 2 || onScreen.height() < kTitlePixels + 4)
        return;
    painter->save();
    painter->setWorldTransform(QTransform());
    painter->setRenderHint(QPainter::TextAntialiasing, true);
    const QRectF text = onScreen.adjusted(8, 5, -8, -5);
    QFont font = painter->font();
    font.setPixelSize(static_cast<int>(kTitlePixels));
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(palette.color(QPalette::Text));
    const QFontMetricsF bold(font);
    double y = text.top();
    if (bold.horizontalAdvance(m_look.title) > text.width()) {
        // Too narrow for the title: the short one, centred, and the GPUs under it.
        const QRectF line(onScreen.left(), y, onScreen.width(), bold.height());
        painter->drawText(line, Qt::AlignHCenter, m_look.shortTitle);
        font.setBold(false);
        font.setPixelSize(static_cast<int>(kDetailPixels));
        painter->setFont(font);
        if (y + 2 * bold.height() <= text.bottom())
            painter->drawText(
                line.translated(0, bold.height()), Qt::AlignHCenter,
                QFontMetricsF(font).elidedText(m_look.shortGpus, Qt::ElideRight, onScreen.width()));
        painter->restore();
        return;
    }
    // Title and GPUs share the first line when they fit; the GPUs move below when not.
    const bool oneLine =
        bold.horizontalAdvance(m_look.title + QStringLiteral("  ") + m_look.gpus) <= text.width();
    painter->drawText(QRectF(text.left(), y, text.width(), bold.height()), Qt::AlignLeft,
                      m_look.title);
    if (oneLine) {
        painter->drawText(QRectF(text.left(), y, text.width(), bold.height()), Qt::AlignRight,
                          m_look.gpus);
    } else if (!m_look.gpus.isEmpty() && y + 2 * bold.height() <= text.bottom()) {
        y += bold.height();
        painter->drawText(QRectF(text.left(), y, text.width(), bold.height()), Qt::AlignLeft,
                          bold.elidedText(m_look.gpus, Qt::ElideRight, text.width()));
    }
    y += bold.height() + 2;
    font.setBold(false);
    font.setPixelSize(static_cast<int>(kDetailPixels));
    painter->setFont(font);
    const QFontMetricsF regular(font);
    if (y + regular.height() <= text.bottom())
        painter->drawText(QRectF(text.left(), y, text.width(), regular.height()), Qt::AlignLeft,
                          regular.elidedText(m_look.counts, Qt::ElideRight, text.width()));
    y += regular.height() + 3;

    // One chip per rail present, so a rail-optimized unit reads at a glance.
    if (y + kChip <= text.bottom()) {
        painter->setPen(Qt::NoPen);
        double x = text.left();
        for (const int rail : m_look.rails) {
            if (x + kChip > text.right())
                break;
            painter->setBrush(CanvasPalette::railColor(rail, palette));
            painter->drawRoundedRect(QRectF(x, y, kChip, kChip), 2, 2);
            x += kChip + 3;
        }
    }
    painter->restore();
}

} // namespace fabriclab::views
