// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/document/TopologyDocument.hpp"

#include <QPointF>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QColor;
class QGraphicsItem;
class QGraphicsLineItem;

namespace fabriclab::views {

class TopologyScene;

/// The canvas's editing gestures, each ending in exactly one document call: a click
/// places a node, a drag from node to node connects them, a finished move is one
/// moveNodes step. Holds only the transient state of the gesture in progress; the items
/// are moved as a preview and the document decides where they end up. CanvasView feeds
/// it scene positions.
class CanvasGestures {
public:
    /// Scene units between grid lines: half the generated server spacing, so generated
    /// positions and tier rows lie on the grid.
    static constexpr double kGridStep = 20;

    /// `message` receives refusals and hints for the status bar.
    CanvasGestures(TopologyDocument& document, TopologyScene& scene,
                   std::function<void(const QString&)> message);
    ~CanvasGestures();
    CanvasGestures(const CanvasGestures&) = delete;
    CanvasGestures& operator=(const CanvasGestures&) = delete;

    /// The nearest grid point, or the point itself when Alt is held.
    static QPointF snapped(QPointF scenePos, Qt::KeyboardModifiers modifiers);

    /// Adds a node at the snapped point and selects it.
    void place(model::NodeKind kind, QPointF scenePos, Qt::KeyboardModifiers modifiers,
               bool rackScale = false);

    /// Starts moving the selection when `pressed` is a selected node or block.
    void beginMove(QGraphicsItem* pressed, QPointF scenePos);
    bool isMoving() const { return m_move.has_value(); }
    /// Previews the move: the pressed item snaps, the rest keep their offsets to it.
    void dragMove(QPointF scenePos, Qt::KeyboardModifiers modifiers);
    /// Commits the move as one undo step.
    void finishMove();

    /// Starts a cable at the node under the point, drawing a rubber line in `color`.
    void beginWire(QPointF scenePos, const QColor& color);
    bool isWiring() const { return m_wire.has_value(); }
    void dragWire(QPointF scenePos);
    /// Connects to the node under the point, or reports why not.
    void finishWire(QPointF scenePos);

    /// Abandons any gesture and puts previewed items back.
    void cancel();
    /// The scene replaced its items: drop pointers to them (positions are already synced).
    void forgetItems();

private:
    struct Move {
        std::vector<QGraphicsItem*> items;
        std::vector<QPointF> starts;
        QPointF anchorStart; ///< the pressed item's position
        QPointF pressScene;
        QPointF delta;
    };
    struct Wire {
        model::NodeId from;
        std::unique_ptr<QGraphicsLineItem> line;
    };

    /// Reports why a block cannot end a link; false when `item` is no block.
    bool refuseBlock(const QGraphicsItem* item);

    TopologyDocument& m_document;
    TopologyScene& m_scene;
    std::function<void(const QString&)> m_message;
    std::optional<Move> m_move;
    std::optional<Wire> m_wire;
};

} // namespace fabriclab::views
