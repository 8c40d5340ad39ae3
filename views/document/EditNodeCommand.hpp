// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Node.hpp"

#include <QUndoCommand>

namespace fabriclab::views {

class TopologyDocument;

/// Replaces a node's properties (name, radix, GPUs, NICs, speeds) with undo.
class EditNodeCommand : public QUndoCommand {
public:
    EditNodeCommand(TopologyDocument& document, model::NodeId id, model::Node before,
                    model::Node after);
    void redo() override;
    void undo() override;

private:
    TopologyDocument& m_document;
    model::NodeId m_id;
    model::Node m_before;
    model::Node m_after;
};

} // namespace fabriclab::views
