// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Node.hpp"

#include <QPointF>
#include <QUndoCommand>

#include <map>

namespace fabriclab::views {

class TopologyDocument;

/// Moves nodes; pushed once when a drag ends, with where each node started.
class MoveNodesCommand : public QUndoCommand {
public:
    MoveNodesCommand(TopologyDocument& document, std::map<model::NodeId, QPointF> from,
                     std::map<model::NodeId, QPointF> to);
    void redo() override;
    void undo() override;

private:
    void place(const std::map<model::NodeId, QPointF>& positions);

    TopologyDocument& m_document;
    std::map<model::NodeId, QPointF> m_from;
    std::map<model::NodeId, QPointF> m_to;
};

} // namespace fabriclab::views
