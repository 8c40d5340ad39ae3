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

/// Deletes nodes, every link attached to them, and further links. The removed
/// sub-graph is snapshotted with its ids so undo puts back exactly what was there.
class RemoveItemsCommand : public QUndoCommand {
public:
    RemoveItemsCommand(TopologyDocument& document, const std::vector<model::NodeId>& nodes,
                       const std::vector<model::LinkId>& links);
    void redo() override;
    void undo() override;

private:
    TopologyDocument& m_document;
    std::vector<std::pair<model::NodeId, model::Node>> m_nodes;
    std::vector<std::pair<model::LinkId, model::Link>> m_links;
};

} // namespace fabriclab::views
