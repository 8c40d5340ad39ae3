// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/document/InsertItemsCommand.hpp"

#include "views/document/TopologyDocument.hpp"

namespace fabriclab::views {

InsertItemsCommand::InsertItemsCommand(TopologyDocument& document,
                                       std::vector<std::pair<model::NodeId, model::Node>> nodes,
                                       std::vector<std::pair<model::LinkId, model::Link>> links,
                                       const QString& text)
    : QUndoCommand(text), m_document(document), m_nodes(std::move(nodes)),
      m_links(std::move(links)) {}

void InsertItemsCommand::redo() {
    for (const auto& [id, node] : m_nodes)
        m_document.applyInsertNode(id, node);
    for (const auto& [id, link] : m_links)
        m_document.applyInsertLink(id, link);
}

void InsertItemsCommand::undo() {
    for (auto it = m_links.rbegin(); it != m_links.rend(); ++it)
        m_document.applyRemoveLink(it->first);
    for (auto it = m_nodes.rbegin(); it != m_nodes.rend(); ++it)
        m_document.applyRemoveNode(it->first);
}

} // namespace fabriclab::views
