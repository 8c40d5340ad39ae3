// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Design.hpp"

#include <QUndoCommand>

#include <memory>

namespace fabriclab::views {

class TopologyDocument;

/// Swaps the whole design: generating a fabric, changing the fabric or the
/// oversubscription. One undo step for what may be thousands of nodes.
///
/// The command holds whichever design the document does not: redo and undo both swap
/// it with the document's, so neither copies a topology (milliseconds at 16K GPUs,
/// on the GUI thread, at every step of a slider). The workers' immutable copy of each
/// design is swapped along while someone (a result shown, a run) still holds it.
class ReplaceDesignCommand : public QUndoCommand {
public:
    /// `afterSnapshot`, when given, is an immutable copy of `after` made off the GUI thread.
    ReplaceDesignCommand(TopologyDocument& document, model::Design after, const QString& text,
                         std::shared_ptr<const model::Design> afterSnapshot = {});
    void redo() override;
    void undo() override;

private:
    void swap();

    TopologyDocument& m_document;
    model::Design m_other;
    std::shared_ptr<const model::Design> m_fresh; ///< m_other's copy, until the first redo
    /// m_other's copy, not kept alive here: one per step would double the history's memory.
    std::weak_ptr<const model::Design> m_otherSnapshot;
};

} // namespace fabriclab::views
