// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/document/ReplaceDesignCommand.hpp"

#include "views/document/TopologyDocument.hpp"

namespace fabriclab::views {

ReplaceDesignCommand::ReplaceDesignCommand(TopologyDocument& document, model::Design after,
                                           const QString& text)
    : QUndoCommand(text), m_document(document), m_other(std::move(after)) {}

void ReplaceDesignCommand::redo() {
    m_document.swapDesign(m_other);
}
void ReplaceDesignCommand::undo() {
    m_document.swapDesign(m_other);
}

} // namespace fabriclab::views
