// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Design.hpp"

#include <QUndoCommand>

namespace fabriclab::views {

class TopologyDocument;

/// Swaps the whole design: generating a fabric, changing the fabric or the
/// oversubscription. One undo step for what may be thousands of nodes.
///
/// The command holds whichever design the document does not: redo and undo both swap
/// it with the document's, so neither copies a topology (milliseconds at 16K GPUs,
/// on the GUI thread, at every step of a slider).
class ReplaceDesignCommand : public QUndoCommand {
public:
    ReplaceDesignCommand(TopologyDocument& document, model::Design after, const QString& text);
    void redo() override;
    void undo() override;

private:
    TopologyDocument& m_document;
    model::Design m_other;
};

} // namespace fabriclab::views
