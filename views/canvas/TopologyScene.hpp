// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/layout/LevelOfDetail.hpp"
#include "views/canvas/LinkItem.hpp"
#include "views/canvas/SceneItems.hpp"
#include "views/canvas/SitesOverlay.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QGraphicsScene>
#include <QHash>
#include <QList>

#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace fabriclab::views {

class BlockItem;
class NodeItem;

/// The drawn design. Mirrors the document through its id-based signals: a design reset or
/// a structural change (node or link added, removed or edited) re-derives the visible
/// graph with model::levelOfDetail and reconciles the items with it, keeping items whose
/// key survives; a moved or renamed node is updated in place. Structural changes are
/// coalesced: the rebuild runs once when the undo step completes. Which groups are
/// collapsed is view state kept here, not in the design. GUI thread only.
class TopologyScene : public QGraphicsScene {
    Q_OBJECT

public:
    explicit TopologyScene(TopologyDocument& document, QObject* parent = nullptr);
    ~TopologyScene() override;

    TopologyDocument& document() const { return m_document; }
    const model::VisibleGraph& visibleGraph() const { return m_items.graph(); }

    // --- Level of detail (view state) ---
    const std::set<model::GroupKey>& collapsedGroups() const { return m_collapsed; }
    bool isCollapsed(model::GroupKey key) const { return m_collapsed.count(key) != 0; }
    void setCollapsed(model::GroupKey key, bool collapsed);
    void collapseAll();
    void expandAll();
    /// Where a group is drawn: its block while collapsed, its frame while open.
    std::optional<QRectF> groupRect(model::GroupKey key) const;
    /// The group whose block, frame or member node lies under a scene point.
    std::optional<model::GroupKey> groupAt(QPointF scenePos) const;

    // --- Items, by the ids they stand for ---
    NodeItem* nodeItem(model::NodeId id) const;
    BlockItem* blockItem(model::GroupKey key) const;
    LinkItem* linkItem(const EdgeKey& key) const;
    std::size_t nodeItemCount() const { return m_items.nodes().size(); }
    std::size_t blockItemCount() const { return m_items.blocks().size(); }
    std::size_t linkItemCount() const { return m_items.links().size(); }
    std::size_t frameItemCount() const { return m_items.frames().size(); }
    /// Top-most node or block item under a scene point, or nullptr.
    QGraphicsItem* endpointItemAt(QPointF scenePos) const;
    /// Everything drawn, scene units; empty for an empty design.
    QRectF contentRect() const { return m_items.contentRect() | m_sites.rect(); }
    /// What the design's pods and spine blocks are called on the canvas: groups on a
    /// dragonfly, rail spines on a SuperPOD.
    CanvasText::Nouns nouns() const { return m_items.nouns(); }
    /// Training across sites as drawn around the fabric (empty for a single site).
    const SitesOverlay& sitesOverlay() const { return m_sites; }

    /// One tier of switches or servers as the canvas labels it: where its row lies
    /// (the mean height of its nodes, scene units) and how many nodes it holds.
    struct TierRow {
        model::NodeKind kind;
        double y = 0;
        int count = 0;
    };
    /// The tiers present, top to bottom; recounted when the design's structure changes.
    const std::vector<TierRow>& tierRows() const { return m_tierRows; }

    // --- Playback: link utilization from the engine's frames (view state) ---
    /// Colours every drawn link by the busiest of its links in `utilization` (keyed by
    /// LinkId value, 0-1; absent means idle); links at or above `saturated` are marked as
    /// bottlenecks. The ids must be the current design's.
    void setLinkHeat(const std::unordered_map<std::uint32_t, float>& utilization, float saturated);
    void clearLinkHeat();
    bool hasLinkHeat() const { return m_heatShown; }

    // --- A lesson step: link loads and labels, ahead of playback colours (view state) ---
    /// Colours links as setLinkHeat does and pins labels to them (keyed by LinkId value; a
    /// bundle shows its links' labels joined). While a lesson shows, playback colouring
    /// waits: the step is what the room is looking at. A rebuild (a group collapsed or
    /// expanded, an edit) draws the step again on the new items.
    void showLessonStep(const std::unordered_map<std::uint32_t, float>& load,
                        const std::unordered_map<std::uint32_t, QString>& notes);
    /// Draws `source` (scene units) into `target` of any painter for print or export
    /// (CanvasView::renderDesign): every item drawn afresh rather than from its screen pixmap
    /// cache, so a PDF or SVG gets vectors and text, and link notes and bundle labels, which
    /// keep one size on screen whatever the zoom, sized with the drawing at `noteScale` scene
    /// units per label unit. The items are as before once it returns.
    void renderForPrint(QPainter& painter, const QRectF& target, const QRectF& source,
                        double noteScale);
    void clearLesson();
    bool showsLesson() const { return m_lessonShown; }
    std::size_t linkNoteCount() const { return m_notes.size(); }

    // --- Bundle labels: "32 × 400G · 12.8 Tb/s" on bundles, as many as fit the zoom ---
    /// The views' scale (device pixels per scene unit): labels that would overlap at it
    /// are hidden, the widest bundles keeping theirs.
    void setViewScale(double scale);
    std::size_t bundleLabelCount() const { return m_bundleLabels.size(); }
    std::size_t visibleBundleLabelCount() const;
    /// The widest bundle label in device pixels (labels ignore the zoom): a fit keeps half
    /// of it clear at each side, so a label near the design's edge is not cut by the view.
    double widestBundleLabel() const;

    // --- Selection in ids: a selected block stands for all of its members ---
    QList<model::NodeId> selectedNodeIds() const;
    QList<model::LinkId> selectedLinkIds() const;
    /// Selects the items showing these nodes; a block only when all its members are listed.
    void selectNodes(const QList<model::NodeId>& ids);
    /// Points at elements an explanation names: their nodes, the blocks holding them and
    /// every drawn link or bundle that carries one of the links.
    void selectElements(const QList<model::NodeId>& nodes, const QList<model::LinkId>& links);

    // --- Support for drags in CanvasView ---
    /// Selected node and block items: what a drag moves.
    std::vector<QGraphicsItem*> movableSelection() const;
    /// Document positions of every node under `items` shifted by `delta`, scene units.
    QHash<model::NodeId, QPointF> positionsMovedBy(const std::vector<QGraphicsItem*>& items,
                                                   QPointF delta) const;
    /// Re-routes the links and frames attached to items moved by a drag preview.
    void followItems(const std::vector<QGraphicsItem*>& items);
    /// Puts every item back where the document has it (a cancelled drag).
    void restorePositions();

Q_SIGNALS:
    /// The document ids under the selected items.
    void selectionChangedIds(QList<fabriclab::model::NodeId> nodes,
                             QList<fabriclab::model::LinkId> links);
    /// Items were replaced; pointers to items held across this may dangle.
    void rebuilt();

protected:
    void helpEvent(QGraphicsSceneHelpEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void onDesignReset(DesignReset how);
    void onNodeChanged(model::NodeId id);
    void markDirty();
    void rebuildIfDirty();
    /// What a rebuild starts from: a new design (nothing kept), the same design rebuilt
    /// (items reused, the selection dropped: node ids were handed out anew) or an edit
    /// (items and selection kept).
    enum class Rebuild { Opened, Replaced, Edited };
    void rebuild(Rebuild how);
    /// Schedules a repaint of everything before changing many items at once.
    void repaintWhole();
    enum class Match { All, Any };
    void restoreSelection(const QList<model::NodeId>& nodes, const QList<model::LinkId>& links,
                          Match match = Match::All);
    void paintHeat(const std::unordered_map<std::uint32_t, float>& utilization, float saturated);
    void clearNotes();
    void rebuildBundleLabels();
    void declutterBundleLabels();
    void growSceneRect(bool fresh);
    void onSelectionChanged();
    QString toolTipFor(const QGraphicsItem* item) const;

    TopologyDocument& m_document;
    std::set<model::GroupKey> m_collapsed;
    std::set<model::GroupKey> m_groups; ///< every group of the design at its last reset
    // Owns the items; as a member it deletes them before the QGraphicsScene base goes.
    SceneItems m_items;
    std::vector<TierRow> m_tierRows;
    bool m_dirty = false;
    bool m_rebuildQueued = false;
    bool m_rebuilding = false;
    QList<model::NodeId> m_selectedNodes; ///< last emitted selection
    QList<model::LinkId> m_selectedLinks;
    bool m_heatShown = false;
    bool m_lessonShown = false;
    std::unordered_map<std::uint32_t, float> m_lessonLoad; ///< the step shown, for rebuilds
    std::unordered_map<std::uint32_t, QString> m_lessonNotes;
    SitesOverlay m_sites;
    std::vector<QGraphicsItem*> m_bundleLabels; ///< widest bundle first; owned by the scene
    double m_viewScale = 1;
    std::vector<QGraphicsItem*> m_notes; ///< owned by the scene, listed to be removed
};

} // namespace fabriclab::views
