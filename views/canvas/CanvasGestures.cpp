// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/CanvasGestures.hpp"

#include "views/canvas/BlockItem.hpp"
#include "views/canvas/CanvasText.hpp"
#include "views/canvas/NodeItem.hpp"
#include "views/canvas/TopologyScene.hpp"

#include <QCoreApplication>
#include <QGraphicsLineItem>
#include <QPen>

#include <cmath>

namespace fabriclab::views {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("fabriclab::views::CanvasGestures", text);
}

} // namespace

CanvasGestures::CanvasGestures(TopologyDocument& document, TopologyScene& scene,
                               std::function<void(const QString&)> message)
    : m_document(document), m_scene(scene), m_message(std::move(message)) {}

CanvasGestures::~CanvasGestures() = default;

QPointF CanvasGestures::snapped(QPointF scenePos, Qt::KeyboardModifiers modifiers) {
    if (modifiers & Qt::AltModifier)
        return scenePos;
    return {std::round(scenePos.x() / kGridStep) * kGridStep,
            std::round(scenePos.y() / kGridStep) * kGridStep};
}

void CanvasGestures::place(model::NodeKind kind, QPointF scenePos, Qt::KeyboardModifiers modifiers,
                           bool rackScale) {
    const model::NodeId id = m_document.addNode(kind, snapped(scenePos, modifiers), rackScale);
    m_scene.selectNodes({id});
    m_message(CanvasText::placed(m_document.topology(), id));
}

// --- Move ---

void CanvasGestures::beginMove(QGraphicsItem* pressed, QPointF scenePos) {
    if (!pressed || !pressed->isSelected())
        return;
    Move move;
    move.items = m_scene.movableSelection();
    for (const QGraphicsItem* item : move.items)
        move.starts.push_back(item->pos());
    move.anchorStart = pressed->pos();
    move.pressScene = scenePos;
    m_move = std::move(move);
}

void CanvasGestures::dragMove(QPointF scenePos, Qt::KeyboardModifiers modifiers) {
    if (!m_move)
        return;
    const QPointF target =
        snapped(m_move->anchorStart + (scenePos - m_move->pressScene), modifiers);
    m_move->delta = target - m_move->anchorStart;
    for (std::size_t i = 0; i < m_move->items.size(); ++i)
        m_move->items[i]->setPos(m_move->starts[i] + m_move->delta);
    m_scene.followItems(m_move->items);
}

void CanvasGestures::finishMove() {
    if (!m_move)
        return;
    const Move move = std::move(*m_move);
    m_move.reset();
    if (move.delta.isNull())
        return;
    // The document's nodeChanged then puts the items where the preview already has them.
    m_document.moveNodes(m_scene.positionsMovedBy(move.items, move.delta));
}

// --- Wire ---

bool CanvasGestures::refuseBlock(const QGraphicsItem* item) {
    const auto* block = qgraphicsitem_cast<const BlockItem*>(item);
    if (block)
        m_message(tr("Links join nodes: expand %1 first (double-click it).")
                      .arg(CanvasText::groupTitle(block->key(), m_scene.nouns())));
    return block != nullptr;
}

void CanvasGestures::beginWire(QPointF scenePos, const QColor& color) {
    QGraphicsItem* item = m_scene.endpointItemAt(scenePos);
    if (refuseBlock(item))
        return;
    const auto* node = qgraphicsitem_cast<const NodeItem*>(item);
    if (!node) {
        m_message(tr("Start a link on a server or a switch."));
        return;
    }
    auto line = std::make_unique<QGraphicsLineItem>(QLineF(node->pos(), scenePos));
    QPen pen(color, 2, Qt::DashLine);
    pen.setCosmetic(true);
    line->setPen(pen);
    line->setZValue(10);
    m_scene.addItem(line.get());
    m_wire = Wire{node->id(), std::move(line)};
}

void CanvasGestures::dragWire(QPointF scenePos) {
    if (m_wire)
        m_wire->line->setLine(QLineF(m_wire->line->line().p1(), scenePos));
}

void CanvasGestures::finishWire(QPointF scenePos) {
    if (!m_wire)
        return;
    const model::NodeId from = m_wire->from;
    m_wire.reset(); // deleting the rubber line takes it out of the scene
    QGraphicsItem* item = m_scene.endpointItemAt(scenePos);
    if (refuseBlock(item))
        return;
    const auto* node = qgraphicsitem_cast<const NodeItem*>(item);
    if (!node)
        return;
    QString refusal;
    if (!m_document.connect(from, node->id(), &refusal))
        m_message(refusal);
}

void CanvasGestures::cancel() {
    m_wire.reset();
    if (m_move) {
        m_move.reset();
        m_scene.restorePositions();
    }
}

void CanvasGestures::forgetItems() {
    m_move.reset();
}

} // namespace fabriclab::views
