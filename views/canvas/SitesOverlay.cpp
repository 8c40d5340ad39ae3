// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/SitesOverlay.hpp"

#include "views/canvas/CanvasText.hpp"
#include "views/canvas/LinkNoteItem.hpp"
#include "views/models/NumberFormat.hpp"

#include <QCoreApplication>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QPalette>
#include <QPen>

#include <algorithm>

namespace fabriclab::views {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("SitesOverlay", text);
}

} // namespace

void SitesOverlay::clear(QGraphicsScene& scene) {
    for (QGraphicsItem* item : m_items) {
        scene.removeItem(item);
        delete item;
    }
    m_items.clear();
    m_rect = {};
}

void SitesOverlay::show(QGraphicsScene& scene, const QRectF& content, const model::Sites& sites) {
    clear(scene);
    if (content.isEmpty())
        return;
    const QPalette palette = scene.palette();
    // Room around the fabric in scene units, in proportion so it reads at any zoom.
    const double margin = std::max(60.0, 0.06 * std::max(content.width(), content.height()));
    // Room above the fabric for the site's name, clear of the bundle labels under it.
    const QRectF here = content.adjusted(-margin, -2.5 * margin, margin, margin);
    // The other sites: smaller cards (they repeat this one), a WAN's length away, wide
    // enough for the WAN's two notes at the zoom that fits everything in view.
    const double gap = std::max(6 * margin, 0.8 * here.width());
    const QSizeF card(std::max(here.width() * 0.45, 8 * margin), here.height() * 0.75);
    const QPointF cardAt(here.right() + gap, here.center().y() - card.height() / 2);
    const int others = sites.count - 1;
    const double step = margin * 0.6;

    QPen framePen(palette.color(QPalette::Mid), 2, Qt::DashLine);
    framePen.setCosmetic(true);
    auto* frame = new QGraphicsRectItem(here);
    frame->setPen(framePen);
    frame->setBrush(Qt::NoBrush);
    frame->setZValue(-20); // under every node, link and group frame
    m_items.push_back(frame);

    // Up to three cards stacked back to front, so "more than one" reads at a glance.
    const int cards = std::min(others, 3);
    QPen cardPen(palette.color(QPalette::Mid), 2);
    cardPen.setCosmetic(true);
    for (int i = cards - 1; i >= 0; --i) {
        auto* item = new QGraphicsRectItem(QRectF(cardAt + QPointF(i * step, -i * step), card));
        item->setPen(cardPen);
        item->setBrush(palette.color(QPalette::Base));
        item->setZValue(-19 + (cards - i));
        m_items.push_back(item);
    }

    // The WAN: from this site's frame to the nearest card.
    const double y = here.center().y();
    QPen wanPen(palette.color(QPalette::Highlight), 6);
    wanPen.setCosmetic(true);
    auto* wan = new QGraphicsLineItem(QLineF(here.right(), y, cardAt.x(), y));
    wan->setPen(wanPen);
    wan->setZValue(-15);
    m_items.push_back(wan);

    const model::WanLinks& w = sites.wan;
    const auto note = [&](const QString& text, QPointF at) {
        auto* label = new LinkNoteItem(text);
        label->setPos(at);
        m_items.push_back(label);
    };
    note(
        tr("Site 1 of %1: this fabric, one replica of the job").arg(CanvasText::count(sites.count)),
        QPointF(here.center().x(), here.top()));
    note(others == 1 ? tr("Site 2: the same fabric")
                     : tr("Sites 2 to %1: the same fabric").arg(CanvasText::count(sites.count)),
         QPointF(cardAt.x() + card.width() / 2, cardAt.y() + card.height() / 2));
    const double wanMid = (here.right() + cardAt.x()) / 2;
    note(tr("WAN %1 × %2 · %3 ms one way")
             .arg(CanvasText::count(w.links), CanvasText::rate(model::Gbps{w.gbps}),
                  numberText(w.latencyMs, 1)),
         QPointF(wanMid, y - 0.15 * here.height()));
    note(tr("DiLoCo: every %1 steps, %2-bit outer gradients")
             .arg(CanvasText::count(sites.outer.innerSteps),
                  CanvasText::count(sites.outer.payloadBits)),
         QPointF(wanMid, y + 0.15 * here.height()));

    for (QGraphicsItem* item : m_items)
        scene.addItem(item);
    m_rect = here.united(QRectF(cardAt + QPointF(0, -(cards - 1) * step),
                                card + QSizeF((cards - 1) * step, (cards - 1) * step)));
}

} // namespace fabriclab::views
