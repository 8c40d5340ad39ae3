// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/document/ReplaceDesignCommand.hpp"

#include "views/document/TopologyDocument.hpp"

namespace fabriclab::views {

ReplaceDesignCommand::ReplaceDesignCommand(TopologyDocument& document, model::Design before,
                                           model::Design after, const QString& text)
    : QUndoCommand(text), m_document(document), m_before(std::move(before)),
      m_after(std::move(after)) {}

void ReplaceDesignCommand::redo() {
    m_document.applyDesign(m_after);
}
void ReplaceDesignCommand::undo() {
    m_document.applyDesign(m_before);
}

} // namespace fabriclab::views
