// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/document/EditNodeCommand.hpp"

#include "views/document/TopologyDocument.hpp"

namespace fabriclab::views {

EditNodeCommand::EditNodeCommand(TopologyDocument& document, model::NodeId id, model::Node before,
                                 model::Node after)
    : QUndoCommand(QObject::tr("Edit %1").arg(QString::fromStdString(after.name))),
      m_document(document), m_id(id), m_before(std::move(before)), m_after(std::move(after)) {}

void EditNodeCommand::redo() {
    m_document.applyUpdateNode(m_id, m_after);
}
void EditNodeCommand::undo() {
    m_document.applyUpdateNode(m_id, m_before);
}

} // namespace fabriclab::views
