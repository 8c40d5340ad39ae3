// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/SceneItems.hpp"

#include <algorithm>
#include <cmath>

#include "views/canvas/BlockItem.hpp"
#include "views/canvas/CanvasText.hpp"
#include "views/canvas/GroupFrameItem.hpp"
#include "views/canvas/NodeItem.hpp"

#include <QGraphicsScene>

namespace fabriclab::views {
namespace {

// Antialiasing makes a line about four times as expensive (1,024-GPU sample, 1,536 links,
// 1400x800: 16 ms a frame with, 4 ms without). Above this many links the crowd hides the
// jaggies anyway, so the frame rate wins.
constexpr std::size_t kDenseLinks = 600;

// Moves the item kept under `key` from `previous` into `next`, or creates one for it.
template <class Key, class Item>
Item& take(std::map<Key, std::unique_ptr<Item>>& previous,
           std::map<Key, std::unique_ptr<Item>>& next, const Key& key, QGraphicsScene& scene) {
    auto kept = previous.extract(key);
    std::unique_ptr<Item> item = kept.empty() ? nullptr : std::move(kept.mapped());
    if (!item) {
        item = std::make_unique<Item>(key);
        scene.addItem(item.get());
    }
    // Keys arrive in ascending order, so every insertion is at the end.
    return *next.emplace_hint(next.end(), key, std::move(item))->second;
}

} // namespace

SceneItems::SceneItems(QGraphicsScene& scene) : m_scene(scene) {}

SceneItems::~SceneItems() {
    clear();
}

void SceneItems::clear() {
    m_linksAt.clear();
    m_frameMembers.clear();
    m_links.clear();
    m_frames.clear();
    m_blocks.clear();
    m_nodes.clear();
    m_blockIndex.clear();
    m_edgeIndex.clear();
    m_graph = {};
}

void SceneItems::reconcile(const model::Topology& topology, model::VisibleGraph graph,
                           const model::FailedElements& failed) {
    m_graph = std::move(graph);
    m_failed = failed;
    m_nouns = CanvasText::nounsOf(topology);
    m_blockIndex.clear();
    for (std::size_t i = 0; i < m_graph.blocks.size(); ++i)
        m_blockIndex.emplace_hint(m_blockIndex.end(), m_graph.blocks[i].key, i);
    m_edgeIndex.clear();
    for (std::size_t i = 0; i < m_graph.edges.size(); ++i)
        m_edgeIndex.emplace_hint(m_edgeIndex.end(), EdgeKey{m_graph.edges[i].a, m_graph.edges[i].b},
                                 i);

    // Endpoints first: links are routed between their positions.
    reconcileNodes(topology);
    reconcileBlocks();
    reconcileLinks();
    reconcileFrames(topology);
}

const model::Block* SceneItems::block(model::GroupKey key) const {
    const auto found = m_blockIndex.find(key);
    return found == m_blockIndex.end() ? nullptr : &m_graph.blocks[found->second];
}

const model::Edge* SceneItems::edge(const EdgeKey& key) const {
    const auto found = m_edgeIndex.find(key);
    return found == m_edgeIndex.end() ? nullptr : &m_graph.edges[found->second];
}

void SceneItems::reconcileNodes(const model::Topology& topology) {
    std::map<model::NodeId, std::unique_ptr<NodeItem>> next;
    for (const model::NodeId id : m_graph.nodes) {
        NodeItem& item = take(m_nodes, next, id, m_scene);
        const model::Node& node = topology.node(id);
        NodeLook look = NodeItem::lookOf(node);
        look.failure = m_failed.nodesDown.count(id) ? 2 : m_failed.nodesDegraded.count(id) ? 1 : 0;
        item.setLook(look);
        item.setPos(node.x, node.y);
    }
    m_nodes.swap(next); // items left in `next` are no longer drawn and die here
}

void SceneItems::reconcileBlocks() {
    std::map<model::GroupKey, std::unique_ptr<BlockItem>> next;
    for (const model::Block& block : m_graph.blocks) {
        BlockItem& item = take(m_blocks, next, block.key, m_scene);
        item.setLook({CanvasText::groupTitle(block.key, m_nouns), CanvasText::blockCounts(block),
                      CanvasText::blockGpus(block), block.rails,
                      CanvasText::groupShortTitle(block.key, m_nouns),
                      CanvasText::blockGpusShort(block), BlockItem::frameFor(block)});
        item.setPos(block.x, block.y);
    }
    m_blocks.swap(next);
}

void SceneItems::reconcileLinks() {
    // Items of edges still drawn are kept. Those of edges gone stand for the new edges
    // before any item is created or deleted: QGraphicsScene takes an item out with a
    // linear search, and a regenerated 16K-GPU design swaps thousands of edges. Edges
    // and the map share one key order, so one walk pairs them.
    std::vector<std::unique_ptr<LinkItem>> kept(m_graph.edges.size());
    std::vector<std::unique_ptr<LinkItem>> spare;
    auto old = m_links.begin();
    for (std::size_t i = 0; i < m_graph.edges.size(); ++i) {
        const EdgeKey key{m_graph.edges[i].a, m_graph.edges[i].b};
        for (; old != m_links.end() && old->first < key; ++old)
            spare.push_back(std::move(old->second));
        if (old != m_links.end() && old->first == key)
            kept[i] = std::move((old++)->second);
    }
    for (; old != m_links.end(); ++old)
        spare.push_back(std::move(old->second));

    std::map<EdgeKey, std::unique_ptr<LinkItem>> next;
    m_linksAt.clear();
    const bool dense = m_graph.edges.size() > kDenseLinks;
    for (std::size_t i = 0; i < m_graph.edges.size(); ++i) {
        const model::Edge& edge = m_graph.edges[i];
        EdgeKey key{edge.a, edge.b};
        std::unique_ptr<LinkItem> item = std::move(kept[i]);
        if (!item && !spare.empty()) {
            item = std::move(spare.back());
            spare.pop_back();
            item->setKey(key);
        } else if (!item) {
            item = std::make_unique<LinkItem>(key);
            m_scene.addItem(item.get());
        }
        item->setLook({LinkItem::widthFor(edge.capacity), edge.rail, dense, edgeFailure(edge)});
        const auto [from, to] = linkEnds(edge.a, edge.b);
        item->setEnds(from, to);
        m_linksAt[edge.a].push_back(item.get());
        m_linksAt[edge.b].push_back(item.get());
        next.emplace_hint(next.end(), std::move(key), std::move(item));
    }
    m_links.swap(next); // spare items not needed any more die with this function
}

void SceneItems::reconcileFrames(const model::Topology& topology) {
    // Frames outline units only: a frame around every row of switches would box in the
    // spine of a four-server teaching design. Switch rows fold back from the context menu.
    m_frameMembers.clear();
    for (const model::NodeId id : m_graph.nodes)
        if (const auto key = model::groupOf(topology.node(id));
            key && key->tier == model::GroupTier::Unit)
            m_frameMembers[*key].push_back(id);
    std::map<model::GroupKey, std::unique_ptr<GroupFrameItem>> next;
    for (const auto& [key, members] : m_frameMembers)
        take(m_frames, next, key, m_scene).setTitle(CanvasText::groupTitle(key, m_nouns));
    m_frames.swap(next);
    for (const auto& [key, item] : m_frames)
        updateFrame(key);
}

QPointF SceneItems::endpointPos(const model::Endpoint& endpoint) const {
    if (const auto* id = std::get_if<model::NodeId>(&endpoint)) {
        const auto found = m_nodes.find(*id);
        return found == m_nodes.end() ? QPointF() : found->second->pos();
    }
    const auto found = m_blocks.find(std::get<model::GroupKey>(endpoint));
    return found == m_blocks.end() ? QPointF() : found->second->pos();
}

int SceneItems::edgeFailure(const model::Edge& edge) const {
    if (m_failed.empty())
        return 0;
    std::size_t down = 0;
    bool degraded = false;
    for (const model::LinkId id : edge.links) {
        down += m_failed.linksDown.count(id);
        degraded = degraded || m_failed.linksDegraded.count(id);
    }
    if (down == edge.links.size())
        return 2;
    return down > 0 || degraded ? 1 : 0;
}

QPointF SceneItems::anchor(const model::Endpoint& endpoint, QPointF towards) const {
    const auto* key = std::get_if<model::GroupKey>(&endpoint);
    const auto found = key ? m_blocks.find(*key) : m_blocks.end();
    if (found == m_blocks.end())
        return endpointPos(endpoint);
    const QRectF card = found->second->look().frame.translated(found->second->pos());
    // Squash the other end's offset into the card, monotonically: bundles from a row of
    // spines land spread along the card's edge in their own order instead of meeting at
    // its corner.
    const double half = card.width() / 2;
    const double offset = towards.x() - card.center().x();
    const double x = card.center().x() + offset * half / (std::abs(offset) + half);
    if (towards.y() < card.top())
        return {x, card.top()};
    if (towards.y() > card.bottom())
        return {x, card.bottom()};
    return found->second->pos();
}

std::pair<QPointF, QPointF> SceneItems::linkEnds(const model::Endpoint& a,
                                                 const model::Endpoint& b) const {
    // Settle each end against the other's settled end: a wide core band meets a narrow pod
    // straight above it, not at its own centre.
    const QPointF towardB = anchor(b, endpointPos(a));
    const QPointF fromA = anchor(a, towardB);
    return {fromA, anchor(b, fromA)};
}

void SceneItems::routeLinksAt(const model::Endpoint& endpoint) {
    const auto found = m_linksAt.find(endpoint);
    if (found == m_linksAt.end())
        return;
    for (LinkItem* link : found->second) {
        const auto [from, to] = linkEnds(link->key().first, link->key().second);
        link->setEnds(from, to);
    }
}

void SceneItems::updateFrame(model::GroupKey key) {
    const auto frame = m_frames.find(key);
    const auto members = m_frameMembers.find(key);
    if (frame == m_frames.end() || members == m_frameMembers.end())
        return;
    QRectF area;
    for (const model::NodeId id : members->second) {
        const NodeItem& item = *m_nodes.at(id);
        const QSizeF size = NodeItem::sizeFor(item.look().kind);
        area |= QRectF(item.pos() - QPointF(size.width() / 2, size.height() / 2), size);
    }
    frame->second->setArea(area);
}

QRectF SceneItems::contentRect() const {
    QRectF rect;
    for (const auto& [id, item] : m_nodes)
        rect |= item->sceneBoundingRect();
    for (const auto& [key, item] : m_blocks)
        rect |= item->sceneBoundingRect();
    for (const auto& [key, item] : m_frames)
        rect |= item->sceneBoundingRect();
    return rect;
}

} // namespace fabriclab::views
