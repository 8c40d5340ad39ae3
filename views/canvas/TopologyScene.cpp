// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/TopologyScene.hpp"

#include "model/sim/Playback.hpp"

#include "views/canvas/BlockItem.hpp"
#include "views/canvas/CanvasText.hpp"
#include "views/canvas/GroupFrameItem.hpp"
#include "views/canvas/LinkNoteItem.hpp"
#include "views/canvas/NodeItem.hpp"

#include <QGraphicsSceneHelpEvent>
#include <QGraphicsSceneMouseEvent>
#include <QToolTip>

#include <array>

#include <algorithm>

namespace fabriclab::views {
namespace {

template <class Id> QList<Id> sortedUnique(QList<Id> ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

} // namespace

TopologyScene::TopologyScene(TopologyDocument& document, QObject* parent)
    : QGraphicsScene(parent), m_document(document), m_items(*this) {
    // No spatial index: a regenerated design replaces thousands of items at once, and
    // keeping a BSP tree up with them cost more (50 ms at 16K GPUs) than the linear
    // search it saves when painting or hit-testing a few thousand items.
    setItemIndexMethod(QGraphicsScene::NoIndex);
    connect(&document, &TopologyDocument::designReset, this, &TopologyScene::onDesignReset);
    connect(&document, &TopologyDocument::nodeAdded, this, &TopologyScene::markDirty);
    connect(&document, &TopologyDocument::nodeRemoved, this, &TopologyScene::markDirty);
    connect(&document, &TopologyDocument::linkAdded, this, &TopologyScene::markDirty);
    connect(&document, &TopologyDocument::linkRemoved, this, &TopologyScene::markDirty);
    connect(&document, &TopologyDocument::linkChanged, this, &TopologyScene::markDirty);
    connect(&document, &TopologyDocument::nodeChanged, this, &TopologyScene::onNodeChanged);
    // One rebuild per undo step, however many signals the step emitted (a deleted server
    // takes its eight links with it).
    connect(document.undoStack(), &QUndoStack::indexChanged, this, &TopologyScene::rebuildIfDirty);
    connect(this, &QGraphicsScene::selectionChanged, this, &TopologyScene::onSelectionChanged);
    onDesignReset(DesignReset::Opened);
}

TopologyScene::~TopologyScene() {
    // Deleting selected items would report selection changes to a half-destroyed scene.
    m_rebuilding = true;
    m_items.clear();
}

// --- Level of detail ---

void TopologyScene::setCollapsed(model::GroupKey key, bool collapsed) {
    if (collapsed == isCollapsed(key))
        return;
    if (collapsed) {
        m_collapsed.insert(key);
    } else {
        m_collapsed.erase(key);
        // Opening a pod shows its units and spine row as blocks, one level down, rather
        // than hundreds of servers at once; each opens in turn.
        if (key.tier == model::GroupTier::Pod)
            for (const model::GroupKey& group : model::groupsOf(m_document.topology()))
                if (group.pod == key.pod && group.tier != model::GroupTier::Cores)
                    m_collapsed.insert(group);
    }
    rebuild(Rebuild::Edited);
}

void TopologyScene::collapseAll() {
    m_collapsed = model::groupsOf(m_document.topology());
    rebuild(Rebuild::Edited);
}

void TopologyScene::expandAll() {
    m_collapsed.clear();
    rebuild(Rebuild::Edited);
}

std::optional<QRectF> TopologyScene::groupRect(model::GroupKey key) const {
    if (const BlockItem* block = blockItem(key))
        return block->sceneBoundingRect();
    if (const auto found = m_items.frames().find(key); found != m_items.frames().end())
        return found->second->sceneBoundingRect();
    return std::nullopt;
}

std::optional<model::GroupKey> TopologyScene::groupAt(QPointF scenePos) const {
    for (const QGraphicsItem* item : items(scenePos)) {
        if (const auto* block = qgraphicsitem_cast<const BlockItem*>(item))
            return block->key();
        if (const auto* node = qgraphicsitem_cast<const NodeItem*>(item)) {
            if (!m_document.topology().contains(node->id()))
                return std::nullopt;
            return model::groupOf(m_document.topology().node(node->id()));
        }
        if (const auto* frame = qgraphicsitem_cast<const GroupFrameItem*>(item))
            return frame->key();
    }
    return std::nullopt;
}

// --- Items ---

NodeItem* TopologyScene::nodeItem(model::NodeId id) const {
    const auto found = m_items.nodes().find(id);
    return found == m_items.nodes().end() ? nullptr : found->second.get();
}

BlockItem* TopologyScene::blockItem(model::GroupKey key) const {
    const auto found = m_items.blocks().find(key);
    return found == m_items.blocks().end() ? nullptr : found->second.get();
}

LinkItem* TopologyScene::linkItem(const EdgeKey& key) const {
    const auto found = m_items.links().find(key);
    return found == m_items.links().end() ? nullptr : found->second.get();
}

QGraphicsItem* TopologyScene::endpointItemAt(QPointF scenePos) const {
    for (QGraphicsItem* item : items(scenePos))
        if (item->type() == NodeItem::Type || item->type() == BlockItem::Type)
            return item;
    return nullptr;
}

// --- Selection ---

QList<model::NodeId> TopologyScene::selectedNodeIds() const {
    QList<model::NodeId> ids;
    for (const QGraphicsItem* item : selectedItems()) {
        if (const auto* node = qgraphicsitem_cast<const NodeItem*>(item))
            ids.append(node->id());
        else if (const auto* block = qgraphicsitem_cast<const BlockItem*>(item))
            if (const model::Block* data = m_items.block(block->key()))
                ids.append(QList<model::NodeId>(data->members.begin(), data->members.end()));
    }
    return sortedUnique(std::move(ids));
}

QList<model::LinkId> TopologyScene::selectedLinkIds() const {
    QList<model::LinkId> ids;
    for (const QGraphicsItem* item : selectedItems())
        if (const auto* link = qgraphicsitem_cast<const LinkItem*>(item))
            if (const model::Edge* edge = m_items.edge(link->key()))
                ids.append(QList<model::LinkId>(edge->links.begin(), edge->links.end()));
    return sortedUnique(std::move(ids));
}

void TopologyScene::setLinkHeat(const std::unordered_map<std::uint32_t, float>& utilization,
                                float saturated) {
    if (!m_lessonShown)
        paintHeat(utilization, saturated);
}

void TopologyScene::paintHeat(const std::unordered_map<std::uint32_t, float>& utilization,
                              float saturated) {
    repaintWhole();
    for (const auto& [key, item] : m_items.links()) {
        const model::Edge* edge = m_items.edge(key);
        float heat = 0;
        double sum = 0;
        if (edge)
            for (const model::LinkId link : edge->links)
                if (const auto found = utilization.find(link.value); found != utilization.end()) {
                    heat = std::max(heat, found->second);
                    sum += found->second;
                }
        // A bundle is coloured by its worst link; its tooltip adds the mean.
        const float mean =
            edge && !edge->links.empty() ? static_cast<float>(sum / edge->links.size()) : heat;
        item->setHeat(heat, heat >= saturated, mean);
    }
    m_heatShown = true;
}

void TopologyScene::clearLinkHeat() {
    if (!m_heatShown || m_lessonShown)
        return;
    repaintWhole();
    for (const auto& [key, item] : m_items.links())
        item->setHeat(-1, false);
    m_heatShown = false;
}

void TopologyScene::showLessonStep(const std::unordered_map<std::uint32_t, float>& load,
                                   const std::unordered_map<std::uint32_t, QString>& notes) {
    if (&load != &m_lessonLoad) { // kept to draw again after a rebuild
        m_lessonLoad = load;
        m_lessonNotes = notes;
    }
    m_lessonShown = true;
    declutterBundleLabels(); // the step's chunk labels take their place
    // A lesson step's busiest links are the ones it waits on: mark them as playback does.
    paintHeat(load, sim::Playback::kSaturated);
    clearNotes();
    for (const auto& [key, item] : m_items.links()) {
        const model::Edge* edge = m_items.edge(key);
        if (!edge)
            continue;
        QStringList texts;
        for (const model::LinkId link : edge->links)
            if (const auto found = notes.find(link.value);
                found != notes.end() && !texts.contains(found->second))
                texts << found->second;
        if (texts.isEmpty())
            continue;
        auto* note = new LinkNoteItem(texts.join(QLatin1Char(' ')));
        // Alternate between 40% and 60% along the line: neighbouring and crossing links
        // then keep their labels apart.
        note->setPos(item->line().pointAt(m_notes.size() % 2 == 0 ? 0.4 : 0.6));
        addItem(note);
        m_notes.push_back(note);
    }
}

void TopologyScene::clearLesson() {
    clearNotes();
    m_lessonShown = false;
    m_lessonLoad.clear();
    m_lessonNotes.clear();
    clearLinkHeat();
    declutterBundleLabels();
}

void TopologyScene::clearNotes() {
    for (QGraphicsItem* note : m_notes) {
        removeItem(note);
        delete note;
    }
    m_notes.clear();
}

void TopologyScene::selectElements(const QList<model::NodeId>& nodes,
                                   const QList<model::LinkId>& links) {
    m_rebuilding = true; // one selectionChangedIds for the whole change
    clearSelection();
    restoreSelection(nodes, links, Match::Any);
    m_rebuilding = false;
    onSelectionChanged();
}

void TopologyScene::selectNodes(const QList<model::NodeId>& ids) {
    // One selectionChangedIds for the whole change, not one per item.
    m_rebuilding = true;
    clearSelection();
    restoreSelection(ids, {});
    m_rebuilding = false;
    onSelectionChanged();
}

void TopologyScene::restoreSelection(const QList<model::NodeId>& nodes,
                                     const QList<model::LinkId>& links, Match match) {
    // Restoring (Match::All), a block or bundle is selected only when every member is, so
    // the selected ids never grow; pointing at elements (Match::Any), any member will do.
    const std::set<model::NodeId> node(nodes.begin(), nodes.end());
    const std::set<model::LinkId> link(links.begin(), links.end());
    const auto covers = [match](const auto& members, const auto& wanted) {
        const auto listed = [&](auto id) { return wanted.count(id) != 0; };
        return !wanted.empty() &&
               (match == Match::All ? std::all_of(members.begin(), members.end(), listed)
                                    : std::any_of(members.begin(), members.end(), listed));
    };
    for (const auto& [id, item] : m_items.nodes())
        item->setSelected(node.count(id) != 0);
    for (const auto& [key, item] : m_items.blocks())
        item->setSelected(covers(m_items.block(key)->members, node));
    for (const auto& [key, item] : m_items.links())
        item->setSelected(covers(m_items.edge(key)->links, link));
}

void TopologyScene::onSelectionChanged() {
    if (m_rebuilding)
        return;
    QList<model::NodeId> nodes = selectedNodeIds();
    QList<model::LinkId> links = selectedLinkIds();
    if (nodes == m_selectedNodes && links == m_selectedLinks)
        return;
    m_selectedNodes = nodes;
    m_selectedLinks = links;
    Q_EMIT selectionChangedIds(nodes, links);
}

// --- Drags ---

std::vector<QGraphicsItem*> TopologyScene::movableSelection() const {
    std::vector<QGraphicsItem*> movable;
    for (QGraphicsItem* item : selectedItems())
        if (item->type() == NodeItem::Type || item->type() == BlockItem::Type)
            movable.push_back(item);
    return movable;
}

QHash<model::NodeId, QPointF>
TopologyScene::positionsMovedBy(const std::vector<QGraphicsItem*>& items, QPointF delta) const {
    const model::Topology& topology = m_document.topology();
    QHash<model::NodeId, QPointF> positions;
    const auto move = [&](model::NodeId id) {
        if (topology.contains(id))
            positions.insert(id, QPointF(topology.node(id).x, topology.node(id).y) + delta);
    };
    for (const QGraphicsItem* item : items) {
        if (const auto* node = qgraphicsitem_cast<const NodeItem*>(item))
            move(node->id());
        else if (const auto* block = qgraphicsitem_cast<const BlockItem*>(item))
            if (const model::Block* data = m_items.block(block->key()))
                std::for_each(data->members.begin(), data->members.end(), move);
    }
    return positions;
}

void TopologyScene::followItems(const std::vector<QGraphicsItem*>& items) {
    for (const QGraphicsItem* item : items) {
        if (const auto* block = qgraphicsitem_cast<const BlockItem*>(item)) {
            m_items.routeLinksAt(block->key());
        } else if (const auto* node = qgraphicsitem_cast<const NodeItem*>(item)) {
            m_items.routeLinksAt(node->id());
            if (m_document.topology().contains(node->id()))
                if (const auto key = model::groupOf(m_document.topology().node(node->id())))
                    m_items.updateFrame(*key);
        }
    }
}

void TopologyScene::restorePositions() {
    // Items that a pending rebuild would drop may stand for nodes that are gone.
    if (m_dirty)
        return rebuild(Rebuild::Edited);
    const model::Topology& topology = m_document.topology();
    std::vector<QGraphicsItem*> all;
    for (const auto& [id, item] : m_items.nodes()) {
        item->setPos(topology.node(id).x, topology.node(id).y);
        all.push_back(item.get());
    }
    for (const auto& [key, item] : m_items.blocks()) {
        const model::Block* data = m_items.block(key);
        item->setPos(data->x, data->y);
        all.push_back(item.get());
    }
    followItems(all);
}

// --- Document signals and rebuilds ---

void TopologyScene::onDesignReset(DesignReset how) {
    // A design rebuilt at another oversubscription keeps the groups the user opened or
    // closed, as long as it still has the same groups.
    std::set<model::GroupKey> groups = model::groupsOf(m_document.topology());
    if (how == DesignReset::Opened || groups != m_groups)
        m_collapsed = model::initiallyCollapsed(m_document.topology());
    m_groups = std::move(groups);
    rebuild(how == DesignReset::Opened ? Rebuild::Opened : Rebuild::Replaced);
}

void TopologyScene::markDirty() {
    m_dirty = true;
    // Edits made outside an undo step (tests, recovery) still get their rebuild.
    if (m_rebuildQueued)
        return;
    m_rebuildQueued = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_rebuildQueued = false;
            rebuildIfDirty();
        },
        Qt::QueuedConnection);
}

void TopologyScene::rebuildIfDirty() {
    if (m_dirty)
        rebuild(Rebuild::Edited);
}

void TopologyScene::onNodeChanged(model::NodeId id) {
    const model::Topology& topology = m_document.topology();
    NodeItem* item = nodeItem(id);
    if (m_dirty || !item || !topology.contains(id))
        return markDirty();
    // A change of kind, rail or group reshapes the visible graph; moves and renames do not.
    const model::Node& node = topology.node(id);
    const NodeLook look = NodeItem::lookOf(node);
    const NodeLook& shown = item->look();
    if (look.kind != shown.kind || look.rail != shown.rail || look.group != shown.group)
        return markDirty();
    item->setLook(look);
    item->setPos(node.x, node.y);
    followItems({item});
}

void TopologyScene::repaintWhole() {
    // Once the whole scene is due for a repaint, QGraphicsScene stops tracking the
    // rectangles of single items: a rebuild or a heat frame touching thousands of items
    // spent 30 ms at 16K GPUs working out which parts of the view each one dirtied.
    update();
}

void TopologyScene::rebuild(Rebuild how) {
    clearNotes();
    // Tier rows for the canvas's labels: one pass over the nodes per structural change.
    {
        std::array<double, 4> sum{};
        std::array<int, 4> count{};
        for (const auto& [id, node] : m_document.topology().nodes()) {
            const auto k = static_cast<std::size_t>(node.kind);
            sum[k] += node.y;
            ++count[k];
        }
        m_tierRows.clear();
        for (const model::NodeKind kind : {model::NodeKind::Core, model::NodeKind::Spine,
                                           model::NodeKind::Leaf, model::NodeKind::Server}) {
            const auto k = static_cast<std::size_t>(kind);
            if (count[k] > 0)
                m_tierRows.push_back(TierRow{kind, sum[k] / count[k], count[k]});
        }
    }
    m_dirty = false;
    repaintWhole();
    m_rebuilding = true;
    const bool edited = how == Rebuild::Edited;
    const QList<model::NodeId> nodes = edited ? selectedNodeIds() : QList<model::NodeId>();
    const QList<model::LinkId> links = edited ? selectedLinkIds() : QList<model::LinkId>();
    if (!edited)
        clearSelection();
    if (how == Rebuild::Opened)
        m_items.clear(); // a new design shares nothing worth keeping with the old one

    // Keys of groups that no node carries any more (a deleted unit) stay in the view
    // state, so that undoing the deletion brings the unit back collapsed.
    m_items.reconcile(m_document.topology(),
                      model::levelOfDetail(m_document.topology(), m_collapsed),
                      model::failedElements(m_document.topology(), m_document.design().failures));
    restoreSelection(nodes, links);
    if (const auto& sites = m_document.design().sites)
        m_sites.show(*this, m_items.contentRect(), *sites);
    else
        m_sites.clear(*this);
    growSceneRect(!edited);
    rebuildBundleLabels();
    if (m_lessonShown) // collapsing or expanding a group keeps the lesson on the canvas
        showLessonStep(m_lessonLoad, m_lessonNotes);
    m_rebuilding = false;
    onSelectionChanged();
    Q_EMIT rebuilt();
}

void TopologyScene::rebuildBundleLabels() {
    for (QGraphicsItem* label : m_bundleLabels) {
        removeItem(label);
        delete label;
    }
    m_bundleLabels.clear();
    // Past this many drawn edges the labels would be thousands of items that the
    // declutter hides anyway; the tooltip still has every bundle's figures.
    constexpr std::size_t kMaxLabelledEdges = 2000;
    if (m_items.links().size() > kMaxLabelledEdges)
        return;
    std::vector<std::pair<double, LinkNoteItem*>> labels;
    for (const auto& [key, item] : m_items.links()) {
        const model::Edge* edge = m_items.edge(key);
        if (!edge || edge->cables < 2)
            continue;
        const model::Link& first = m_document.topology().link(edge->links.front());
        const bool uniform = edge->capacity.value == first.speed.value * edge->cables;
        const QString text =
            uniform ? tr("%1 × %2 · %3")
                          .arg(CanvasText::count(edge->cables), CanvasText::rate(first.speed),
                               CanvasText::rate(edge->capacity))
                    : tr("%1 cables · %2")
                          .arg(CanvasText::count(edge->cables), CanvasText::rate(edge->capacity));
        auto* label = new LinkNoteItem(text);
        label->setZValue(15); // under lesson notes
        // Near the upper end: bundles from one block cross in the middle and converge at
        // the block, but fan out toward their switches, where a label names one bundle.
        const QLineF line = item->line();
        const bool p1Upper = line.p1().y() <= line.p2().y();
        label->setPos(p1Upper ? line.pointAt(0.22) : line.pointAt(0.78));
        addItem(label);
        labels.emplace_back(edge->capacity.value, label);
    }
    std::stable_sort(labels.begin(), labels.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    for (const auto& [capacity, label] : labels)
        m_bundleLabels.push_back(label);
    declutterBundleLabels();
}

void TopologyScene::setViewScale(double scale) {
    if (!(scale > 0) || scale == m_viewScale)
        return;
    m_viewScale = scale;
    declutterBundleLabels();
}

void TopologyScene::declutterBundleLabels() {
    // Greedy, widest bundle first: a label shows when its box, at the view's scale, meets
    // no box already shown. Labels are drawn in device pixels, so the boxes they cover in
    // the scene shrink as the user zooms in and more of them fit.
    std::vector<QRectF> shown;
    for (QGraphicsItem* label : m_bundleLabels) {
        if (m_lessonShown) {
            label->setVisible(false);
            continue;
        }
        const QRectF device = label->boundingRect();
        const QRectF box(label->pos() + device.topLeft() / m_viewScale,
                         device.size() / m_viewScale);
        const bool clear = std::none_of(shown.begin(), shown.end(),
                                        [&](const QRectF& other) { return other.intersects(box); });
        label->setVisible(clear);
        if (clear)
            shown.push_back(box);
    }
}

double TopologyScene::widestBundleLabel() const {
    double widest = 0;
    for (const QGraphicsItem* label : m_bundleLabels)
        widest = std::max(widest, label->boundingRect().width());
    return widest;
}

std::size_t TopologyScene::visibleBundleLabelCount() const {
    return static_cast<std::size_t>(std::count_if(m_bundleLabels.begin(), m_bundleLabels.end(),
                                                  [](QGraphicsItem* l) { return l->isVisible(); }));
}

void TopologyScene::growSceneRect(bool fresh) {
    // Room around the design to place new nodes. It only grows while editing, and
    // generously, so it almost never grows under the pointer: a growing rect shifts the
    // scroll origin and the view would jump between two clicks.
    QRectF content = contentRect();
    if (content.isEmpty())
        content = QRectF(-400, -300, 800, 600);
    const double margin = std::max(20000.0, 0.25 * std::max(content.width(), content.height()));
    const QRectF wanted = content.adjusted(-margin, -margin, margin, margin);
    if (!fresh &&
        sceneRect().contains(content.adjusted(-margin / 4, -margin / 4, margin / 4, margin / 4)))
        return; // still plenty of room: leave the origin where the user's view is
    setSceneRect(fresh ? wanted : sceneRect().united(wanted));
}

// --- Events ---

QString TopologyScene::toolTipFor(const QGraphicsItem* item) const {
    const model::Topology& topology = m_document.topology();
    if (const auto* node = qgraphicsitem_cast<const NodeItem*>(item))
        return CanvasText::nodeToolTip(topology, node->id());
    if (const auto* block = qgraphicsitem_cast<const BlockItem*>(item))
        if (const model::Block* data = m_items.block(block->key()))
            return CanvasText::blockToolTip(*data, m_items.nouns());
    if (const auto* link = qgraphicsitem_cast<const LinkItem*>(item))
        if (const model::Edge* edge = m_items.edge(link->key())) {
            QString text = CanvasText::edgeToolTip(topology, *edge);
            if (link->heat() >= 0)
                text += QStringLiteral("<br>") +
                        (edge->links.size() > 1
                             ? tr("now: busiest link %1%, mean %2% over its %3 links")
                                   .arg(qRound(100 * link->heat()))
                                   .arg(qRound(100 * link->meanHeat()))
                                   .arg(edge->links.size())
                             : tr("now: %1% busy").arg(qRound(100 * link->heat())));
            return text;
        }
    if (const auto* frame = qgraphicsitem_cast<const GroupFrameItem*>(item))
        return tr("%1 — double-click to collapse")
            .arg(CanvasText::groupTitle(frame->key(), m_items.nouns()));
    return {};
}

void TopologyScene::helpEvent(QGraphicsSceneHelpEvent* event) {
    // Composed on demand: thousands of items need no tooltip strings until hovered.
    const QList<QGraphicsItem*> under = items(event->scenePos());
    const QString text = under.isEmpty() ? QString() : toolTipFor(under.first());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->screenPos(), text, event->widget());
    event->setAccepted(!text.isEmpty());
}

void TopologyScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) {
    const QList<QGraphicsItem*> under = items(event->scenePos());
    const QGraphicsItem* top = under.isEmpty() ? nullptr : under.first();
    std::optional<std::pair<model::GroupKey, bool>> change;
    if (const auto* block = qgraphicsitem_cast<const BlockItem*>(top))
        change.emplace(block->key(), false);
    else if (const auto* frame = qgraphicsitem_cast<const GroupFrameItem*>(top))
        change.emplace(frame->key(), true);
    if (!change)
        return QGraphicsScene::mouseDoubleClickEvent(event);
    event->accept();
    // Queued: the rebuild deletes the item that is still handling this click.
    QMetaObject::invokeMethod(
        this,
        [this, key = change->first, collapse = change->second] { setCollapsed(key, collapse); },
        Qt::QueuedConnection);
}

void TopologyScene::renderForPrint(QPainter& painter, const QRectF& target, const QRectF& source,
                                   double noteScale) {
    std::vector<std::pair<QGraphicsItem*, QGraphicsItem::CacheMode>> cached;
    for (QGraphicsItem* item : items())
        if (item->cacheMode() != QGraphicsItem::NoCache) {
            cached.emplace_back(item, item->cacheMode());
            item->setCacheMode(QGraphicsItem::NoCache);
        }
    const auto scaleNotes = [this](bool print, double scale) {
        for (auto* labels : {&m_bundleLabels, &m_notes})
            for (QGraphicsItem* label : *labels) {
                label->setFlag(QGraphicsItem::ItemIgnoresTransformations, !print);
                label->setScale(scale);
            }
        for (QGraphicsItem* label : m_sites.items()) // the sites' notes, not their frames
            if (label->type() == LinkNoteItem::Type) {
                label->setFlag(QGraphicsItem::ItemIgnoresTransformations, !print);
                label->setScale(scale);
            }
    };
    scaleNotes(true, noteScale);
    render(&painter, target, source, Qt::KeepAspectRatio);
    scaleNotes(false, 1);
    for (const auto& [item, mode] : cached)
        item->setCacheMode(mode);
}

bool TopologyScene::event(QEvent* event) {
    // Cached item pixmaps hold the old theme's colours.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        for (QGraphicsItem* item : items())
            item->update();
    // Larger type (presentation mode) or back: labels measured in the old type would cut
    // their text at both ends and declutter by the wrong boxes.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange) {
        for (auto* labels : {&m_bundleLabels, &m_notes})
            for (QGraphicsItem* label : *labels)
                if (label->type() == LinkNoteItem::Type)
                    static_cast<LinkNoteItem*>(label)->fitFont();
        for (QGraphicsItem* label : m_sites.items())
            if (label->type() == LinkNoteItem::Type)
                static_cast<LinkNoteItem*>(label)->fitFont();
        declutterBundleLabels();
    }
    return QGraphicsScene::event(event);
}

} // namespace fabriclab::views
