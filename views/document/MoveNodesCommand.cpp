// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/document/MoveNodesCommand.hpp"

#include "views/document/TopologyDocument.hpp"

namespace fabriclab::views {

MoveNodesCommand::MoveNodesCommand(TopologyDocument& document,
                                   std::map<model::NodeId, QPointF> from,
                                   std::map<model::NodeId, QPointF> to)
    : QUndoCommand(QObject::tr("Move %n node(s)", nullptr, static_cast<int>(to.size()))),
      m_document(document), m_from(std::move(from)), m_to(std::move(to)) {}

void MoveNodesCommand::place(const std::map<model::NodeId, QPointF>& positions) {
    for (const auto& [id, position] : positions) {
        if (!m_document.topology().contains(id))
            continue;
        model::Node node = m_document.topology().node(id);
        node.x = position.x();
        node.y = position.y();
        m_document.applyUpdateNode(id, node);
    }
}

void MoveNodesCommand::redo() {
    place(m_to);
}
void MoveNodesCommand::undo() {
    place(m_from);
}

} // namespace fabriclab::views
