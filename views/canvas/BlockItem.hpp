// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/layout/LevelOfDetail.hpp"

#include <QGraphicsItem>
#include <QString>

#include <vector>

namespace fabriclab::views {

/// What a block shows; derived from a model::Block by TopologyScene.
struct BlockLook {
    QString title;  ///< "unit 3"
    QString counts; ///< "32 servers, 8 leaves"
    QString gpus;   ///< "256 GPUs"
    std::vector<int> rails;
    QString shortTitle; ///< "P3", for cards too narrow for the title
    QString shortGpus;  ///< "1,024"
    /// The card, item coordinates: at least size(), and as large as the ground the members
    /// were laid out on (see frameFor).
    QRectF frame = QRectF(-100, -32, 200, 64);
    friend bool operator==(const BlockLook&, const BlockLook&) = default;
};

/// A collapsed rack, scalable unit, switch row or pod drawn as one labelled stack of cards
/// over the ground its members occupy. Its text is drawn at a fixed pixel size whatever
/// the zoom (elided to the card), so a fitted view of a large fabric stays readable.
/// Paints only; double-click expansion and moves are handled by TopologyScene and
/// CanvasView. Its position is the mean of its members' positions.
class BlockItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };

    explicit BlockItem(model::GroupKey key);

    model::GroupKey key() const { return m_key; }
    void setLook(const BlockLook& look);
    const BlockLook& look() const { return m_look; }

    /// The smallest card drawn.
    static QSizeF size();
    /// The card of a block drawn at (block.x, block.y): its members' bounding box with a
    /// little air, never smaller than size(). Wide rows keep a proportionate height, so a
    /// row of 256 cores still shows as a band in a fitted 16K-GPU view.
    static QRectF frameFor(const model::Block& block);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    model::GroupKey m_key;
    BlockLook m_look;
};

} // namespace fabriclab::views
