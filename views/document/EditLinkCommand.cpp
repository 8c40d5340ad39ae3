// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/document/EditLinkCommand.hpp"

#include "views/document/TopologyDocument.hpp"

namespace fabriclab::views {

EditLinkCommand::EditLinkCommand(TopologyDocument& document, model::LinkId id, model::Link before,
                                 model::Link after)
    : QUndoCommand(QObject::tr("Edit link")), m_document(document), m_id(id), m_before(before),
      m_after(after) {}

void EditLinkCommand::redo() {
    m_document.applyUpdateLink(m_id, m_after);
}
void EditLinkCommand::undo() {
    m_document.applyUpdateLink(m_id, m_before);
}

} // namespace fabriclab::views
