// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/document/ReplaceDesignCommand.hpp"

#include "views/document/TopologyDocument.hpp"

namespace fabriclab::views {

ReplaceDesignCommand::ReplaceDesignCommand(TopologyDocument& document, model::Design after,
                                           const QString& text,
                                           std::shared_ptr<const model::Design> afterSnapshot)
    : QUndoCommand(text), m_document(document), m_other(std::move(after)),
      m_fresh(std::move(afterSnapshot)) {}

void ReplaceDesignCommand::redo() {
    swap();
}
void ReplaceDesignCommand::undo() {
    swap();
}

void ReplaceDesignCommand::swap() {
    std::shared_ptr<const model::Design> snapshot =
        m_fresh ? std::move(m_fresh) : m_otherSnapshot.lock();
    m_fresh.reset();
    m_document.swapDesign(m_other, snapshot);
    m_otherSnapshot = snapshot;
}

} // namespace fabriclab::views
