// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Link.hpp"
#include "model/topology/Node.hpp"

#include <QUndoCommand>

#include <utility>
#include <vector>

namespace fabriclab::views {

class TopologyDocument;

/// Adds nodes and links under ids chosen up front, so redo after undo recreates the very
/// same ids and later commands in the history still find their items. Used for placing a
/// node, drawing a link, duplicate and paste.
class InsertItemsCommand : public QUndoCommand {
public:
    InsertItemsCommand(TopologyDocument& document,
                       std::vector<std::pair<model::NodeId, model::Node>> nodes,
                       std::vector<std::pair<model::LinkId, model::Link>> links,
                       const QString& text);
    void redo() override;
    void undo() override;

private:
    TopologyDocument& m_document;
    std::vector<std::pair<model::NodeId, model::Node>> m_nodes;
    std::vector<std::pair<model::LinkId, model::Link>> m_links;
};

} // namespace fabriclab::views
