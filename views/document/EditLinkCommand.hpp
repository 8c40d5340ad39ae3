// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Link.hpp"

#include <QUndoCommand>

namespace fabriclab::views {

class TopologyDocument;

/// Replaces a link's speed, cable count, medium or length with undo.
class EditLinkCommand : public QUndoCommand {
public:
    EditLinkCommand(TopologyDocument& document, model::LinkId id, model::Link before,
                    model::Link after);
    void redo() override;
    void undo() override;

private:
    TopologyDocument& m_document;
    model::LinkId m_id;
    model::Link m_before;
    model::Link m_after;
};

} // namespace fabriclab::views
