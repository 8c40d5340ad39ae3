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
    friend bool operator==(const BlockLook&, const BlockLook&) = default;
};

/// A collapsed rack or scalable unit drawn as one labelled stack of cards. Paints only;
/// double-click expansion and moves are handled by TopologyScene and CanvasView. Its
/// position is the mean of its members' positions.
class BlockItem : public QGraphicsItem {
public:
    enum { Type = UserType + 2 };

    explicit BlockItem(model::GroupKey key);

    model::GroupKey key() const { return m_key; }
    void setLook(const BlockLook& look);

    static QSizeF size();

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    model::GroupKey m_key;
    BlockLook m_look;
};

} // namespace fabriclab::views
