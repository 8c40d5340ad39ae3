// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/layout/LevelOfDetail.hpp"

#include <QGraphicsItem>
#include <QLineF>

#include <utility>

namespace fabriclab::views {

/// The two drawn endpoints of an edge, a < b (as model::Edge orders them).
using EdgeKey = std::pair<model::Endpoint, model::Endpoint>;

/// What a link item shows; derived from a model::Edge by TopologyScene.
struct LinkLook {
    double width = 1;   ///< pen width in device pixels, grows with capacity
    int rail = -1;      ///< tints server-to-leaf links of a rail
    bool dense = false; ///< a crowded scene: no antialiasing (most of the frame time, and the
                        ///< crowd hides the jaggies) and a lighter tone so the nodes stand out
    int failure = 0;    ///< what-if: 0 intact, 1 degraded (dashed amber), 2 down (dashed red)
    friend bool operator==(const LinkLook&, const LinkLook&) = default;
};

/// One drawn edge: a single link, or a bundle of every link between two drawn endpoints.
/// The pen is cosmetic (device pixels) so capacity stays visible at every zoom. Paints
/// only; TopologyScene places its ends and answers its tooltip.
class LinkItem : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };

    explicit LinkItem(EdgeKey key);

    const EdgeKey& key() const { return m_key; }
    const LinkLook& look() const { return m_look; }
    /// Makes the item stand for another edge (SceneItems reuses items across rebuilds:
    /// taking one out of a scene of thousands costs a linear search).
    void setKey(EdgeKey key);
    void setLook(const LinkLook& look);
    /// Ends in scene units, normally the centres of the endpoint items.
    void setEnds(QPointF a, QPointF b);
    QLineF line() const { return m_line; }

    /// Playback colouring: utilization 0-1 of the busiest link the item draws, or < 0 for
    /// none; a bottleneck is drawn thicker. Set by TopologyScene from engine frames.
    void setHeat(float utilization, bool bottleneck, float mean = -1);
    float heat() const { return m_heat; }
    /// A bundle's mean utilization over its links (its worst is heat()); < 0 for none.
    float meanHeat() const { return m_meanHeat; }

    /// Pen width for a capacity: about log2 of the Gb/s, so 400G and 400 T both read.
    static double widthFor(model::Gbps capacity);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    EdgeKey m_key;
    LinkLook m_look;
    QLineF m_line;
    float m_heat = -1;
    float m_meanHeat = -1;
    bool m_bottleneck = false;
};

} // namespace fabriclab::views
