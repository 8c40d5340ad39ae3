// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Failures.hpp"
#include "model/layout/LevelOfDetail.hpp"
#include "views/canvas/CanvasText.hpp"
#include "views/canvas/LinkItem.hpp"

#include <QRectF>

#include <map>
#include <memory>
#include <vector>

class QGraphicsScene;

namespace fabriclab::views {

class BlockItem;
class GroupFrameItem;
class NodeItem;

/// The items of a TopologyScene keyed by what they stand for, and the visible graph they
/// were built from. reconcile() turns one visible graph into items, reusing every item
/// whose key survives so that selection and caches outlive small edits. Owns the items;
/// each one removes itself from the scene when deleted.
class SceneItems {
public:
    explicit SceneItems(QGraphicsScene& scene);
    ~SceneItems();
    SceneItems(const SceneItems&) = delete;
    SceneItems& operator=(const SceneItems&) = delete;

    /// Deletes every item.
    void clear();
    /// Makes the items match `graph`, positioned from `topology` and the blocks' means;
    /// `failed` marks what the design's what-if failures take down or degrade.
    void reconcile(const model::Topology& topology, model::VisibleGraph graph,
                   const model::FailedElements& failed = {});

    const model::VisibleGraph& graph() const { return m_graph; }
    /// What the design's pods and spine blocks are called (a dragonfly's pods are its
    /// groups), as of the last reconcile.
    CanvasText::Nouns nouns() const { return m_nouns; }
    /// The block or edge an item was built from; nullptr when it is gone.
    const model::Block* block(model::GroupKey key) const;
    const model::Edge* edge(const EdgeKey& key) const;

    const std::map<model::NodeId, std::unique_ptr<NodeItem>>& nodes() const { return m_nodes; }
    const std::map<model::GroupKey, std::unique_ptr<BlockItem>>& blocks() const { return m_blocks; }
    const std::map<EdgeKey, std::unique_ptr<LinkItem>>& links() const { return m_links; }
    const std::map<model::GroupKey, std::unique_ptr<GroupFrameItem>>& frames() const {
        return m_frames;
    }

    /// Where an endpoint's item currently is (it may be mid-drag), scene units.
    QPointF endpointPos(const model::Endpoint& endpoint) const;
    /// Where a link to `towards` meets an endpoint: a node's centre, or the edge of a
    /// block's card facing it, so bundles between blocks read as drops between rows.
    QPointF anchor(const model::Endpoint& endpoint, QPointF towards) const;
    /// Both ends of a link between two endpoints.
    std::pair<QPointF, QPointF> linkEnds(const model::Endpoint& a, const model::Endpoint& b) const;
    /// Re-reads the ends of every link at an endpoint from the items' current positions.
    void routeLinksAt(const model::Endpoint& endpoint);
    /// Fits an expanded group's frame around its members' current positions.
    void updateFrame(model::GroupKey key);
    /// Everything drawn, scene units; empty when nothing is.
    QRectF contentRect() const;

private:
    void reconcileNodes(const model::Topology& topology);
    /// 0 intact, 1 degraded, 2 down: how an edge's links fare.
    int edgeFailure(const model::Edge& edge) const;
    void reconcileBlocks();
    void reconcileLinks();
    void reconcileFrames(const model::Topology& topology);

    QGraphicsScene& m_scene;
    model::VisibleGraph m_graph;
    CanvasText::Nouns m_nouns;
    model::FailedElements m_failed;
    std::map<model::GroupKey, std::size_t> m_blockIndex; ///< into m_graph.blocks
    std::map<EdgeKey, std::size_t> m_edgeIndex;          ///< into m_graph.edges

    std::map<model::NodeId, std::unique_ptr<NodeItem>> m_nodes;
    std::map<model::GroupKey, std::unique_ptr<BlockItem>> m_blocks;
    std::map<EdgeKey, std::unique_ptr<LinkItem>> m_links;
    std::map<model::GroupKey, std::unique_ptr<GroupFrameItem>> m_frames;
    std::map<model::GroupKey, std::vector<model::NodeId>> m_frameMembers; ///< expanded groups
    std::map<model::Endpoint, std::vector<LinkItem*>> m_linksAt;          ///< non-owning index
};

} // namespace fabriclab::views
