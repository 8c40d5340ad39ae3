// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Sites.hpp"

#include <QRectF>

#include <vector>

class QGraphicsItem;
class QGraphicsScene;

namespace fabriclab::views {

/// Training across sites, drawn around the fabric: a frame naming it the first site, the
/// other sites as a stack of cards beside it (each the same fabric), and the WAN between
/// them labelled with its circuits, latency and what DiLoCo sends over it.
class SitesOverlay {
public:
    /// Draws the sites around `content` (the fabric as drawn), replacing any drawn before.
    void show(QGraphicsScene& scene, const QRectF& content, const model::Sites& sites);
    /// Takes everything it drew off the scene.
    void clear(QGraphicsScene& scene);
    /// What it covers, empty when nothing is drawn: the canvas fits it into view.
    QRectF rect() const { return m_rect; }
    std::size_t itemCount() const { return m_items.size(); }
    /// Everything drawn: frames, cards, the WAN and its notes (LinkNoteItems).
    const std::vector<QGraphicsItem*>& items() const { return m_items; }

private:
    std::vector<QGraphicsItem*> m_items; ///< owned by the scene while shown
    QRectF m_rect;
};

} // namespace fabriclab::views
