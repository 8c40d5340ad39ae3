// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Node.hpp"

#include <QGraphicsItem>
#include <QString>

namespace fabriclab::views {

/// What a node item shows; copied from the model by TopologyScene, never edited here.
struct NodeLook {
    QString name;
    model::NodeKind kind = model::NodeKind::Server;
    int gpus = 0;    ///< servers: GPUs in the box
    int rail = -1;   ///< rail leaves: tints the outline
    int group = -1;  ///< placement group, so a regrouping edit is seen as structural
    int failure = 0; ///< what-if: 0 intact, 1 degraded, 2 down
    friend bool operator==(const NodeLook&, const NodeLook&) = default;
};

/// One server or switch. Servers are small rounded boxes showing their GPU count,
/// switches wider boxes named and coloured by tier. Paints only: moves, links and
/// selection semantics live in CanvasView and TopologyScene. Its position is the node's
/// centre in scene units.
class NodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };

    explicit NodeItem(model::NodeId id);

    model::NodeId id() const { return m_id; }
    const NodeLook& look() const { return m_look; }
    void setLook(const NodeLook& look);

    /// What a node of the model looks like on the canvas.
    static NodeLook lookOf(const model::Node& node);
    /// Size of the box for a kind, scene units.
    static QSizeF sizeFor(model::NodeKind kind);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    model::NodeId m_id;
    NodeLook m_look;
};

} // namespace fabriclab::views
