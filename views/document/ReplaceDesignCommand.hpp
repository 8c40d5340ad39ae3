// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Design.hpp"

#include <QUndoCommand>

namespace fabriclab::views {

class TopologyDocument;

/// Swaps the whole design: generating a fabric, changing the fabric or the
/// oversubscription. One undo step for what may be thousands of nodes.
class ReplaceDesignCommand : public QUndoCommand {
public:
    ReplaceDesignCommand(TopologyDocument& document, model::Design before, model::Design after,
                         const QString& text);
    void redo() override;
    void undo() override;

private:
    TopologyDocument& m_document;
    model::Design m_before;
    model::Design m_after;
};

} // namespace fabriclab::views
