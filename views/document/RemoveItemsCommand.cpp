// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/document/RemoveItemsCommand.hpp"

#include "views/document/TopologyDocument.hpp"

#include <QObject>

#include <set>

namespace fabriclab::views {

RemoveItemsCommand::RemoveItemsCommand(TopologyDocument& document,
                                       const std::vector<model::NodeId>& nodes,
                                       const std::vector<model::LinkId>& links)
    : m_document(document) {
    const auto& topology = document.topology();
    std::set<model::NodeId> doomedNodes(nodes.begin(), nodes.end());
    std::set<model::LinkId> doomedLinks(links.begin(), links.end());
    for (const auto& [id, link] : topology.links())
        if (doomedNodes.count(link.a) || doomedNodes.count(link.b))
            doomedLinks.insert(id);
    for (const auto id : doomedNodes)
        if (topology.contains(id))
            m_nodes.emplace_back(id, topology.node(id));
    for (const auto id : doomedLinks)
        if (topology.links().count(id))
            m_links.emplace_back(id, topology.link(id));
    setText(m_nodes.size() + m_links.size() == 1
                ? QObject::tr("Delete %1")
                      .arg(m_nodes.empty() ? QObject::tr("link")
                                           : QString::fromStdString(m_nodes.front().second.name))
                : QObject::tr("Delete %n item(s)", nullptr,
                              static_cast<int>(m_nodes.size() + m_links.size())));
}

void RemoveItemsCommand::redo() {
    for (const auto& [id, link] : m_links)
        m_document.applyRemoveLink(id);
    for (const auto& [id, node] : m_nodes)
        m_document.applyRemoveNode(id);
}

void RemoveItemsCommand::undo() {
    for (const auto& [id, node] : m_nodes)
        m_document.applyInsertNode(id, node);
    for (const auto& [id, link] : m_links)
        m_document.applyInsertLink(id, link);
}

} // namespace fabriclab::views
