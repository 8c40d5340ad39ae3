// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/layout/LevelOfDetail.hpp"
#include "views/canvas/CanvasTool.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QGraphicsView>
#include <QList>

#include <memory>
#include <optional>
#include <set>

class QMenu;

namespace fabriclab::views {

class CanvasGestures;
class TopologyScene;

/// The design canvas: zoom (wheel, Ctrl+= / Ctrl+-), pan (middle-drag or Space+drag),
/// fit (Ctrl+1), reset zoom (Ctrl+0), a snapping grid (Alt bypasses it), single-key tools
/// (V S L P C K, Esc back to Select) and rubber-band selection. Gestures end in one
/// document call each: a click places a node, a drag between nodes connects them, a
/// finished move is one moveNodes step. Creates and owns its TopologyScene. GUI thread.
class CanvasView : public QGraphicsView {
    Q_OBJECT

public:
    explicit CanvasView(TopologyDocument& document, QWidget* parent = nullptr);
    ~CanvasView() override;

    TopologyScene& topologyScene() const { return *m_scene; }

    void setTool(CanvasTool tool);
    CanvasTool tool() const { return m_tool; }

    void zoomIn();
    void zoomOut();
    /// Shows the whole design, zooming in no further than 2x.
    void fitAll();
    /// Back to 1 pixel per scene unit around the current centre.
    void resetZoom();
    void setGridVisible(bool visible);

    /// What the view shows: zoom, the scene point at its centre, and whether it still
    /// fits the design on every resize (until the user zooms or pans). Presentation mode
    /// takes it on entering and gives it back on leaving.
    struct ViewState {
        QTransform transform;
        QPointF centre;
        bool fitPending = true;
    };
    ViewState viewState() const;
    void restoreViewState(const ViewState& state);
    /// Keeps `pixels` at the top of the canvas out of the view (presentation mode's title
    /// strip lies there): the drawing, and a fit, start below it.
    void setTopMargin(int pixels) { setViewportMargins(0, pixels, 0, 0); }

    /// The whole design as the canvas draws it (groups open or closed as they are, links
    /// coloured as shown), with its tier labels at the left and without the grid, scaled
    /// into `target` of any painter: vectors on a PDF or SVG device. The report and File >
    /// Export > Canvas draw it so.
    void renderDesign(QPainter& painter, const QRectF& target) const;
    /// Width over height of what renderDesign() draws; 0 for an empty design.
    double designAspect() const;
    /// The drawing as an SVG file or, for any other suffix, a PNG twice the canvas's
    /// size (at most 8,000 pixels wide), written atomically. False and `error` saying why
    /// (the caller names the file) on failure.
    bool exportDrawing(const QString& path, QString* error) const;

    QList<model::NodeId> selectedNodes() const;
    QList<model::LinkId> selectedLinks() const;
    /// Removes the selected nodes (with their links) and links: one undo step.
    void deleteSelection();
    /// Copies the selection two grid steps down and right, then selects the copies.
    void duplicateSelection();
    /// Remembers the selected node ids; paste() copies them again.
    void copySelection();
    /// Copies the remembered nodes centred on the view, then selects the copies.
    void paste();

Q_SIGNALS:
    void toolChanged(fabriclab::views::CanvasTool tool);
    /// A refusal or a hint for the status bar.
    void message(const QString& text);
    /// Space pressed and released without panning: the window's play/pause. Holding Space
    /// and dragging still pans, as in drawing tools.
    void spaceTapped();
    void selectionChangedIds(QList<fabriclab::model::NodeId> nodes,
                             QList<fabriclab::model::LinkId> links);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    /// Tier labels ("Spines · 512") at the left edge, level with their rows, so a zoomed-out
    /// fabric still says which row is which.
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    void zoomBy(double factor, ViewportAnchor anchor);
    /// After a zoom: the labels that fit, and level of detail following the zoom: the
    /// collapsed block that fills most of the view opens (zooming in), and a group opened
    /// that way closes again once it is small on screen (zooming out). Groups the user
    /// opened or closed by hand stay as they are.
    void followZoom(bool zoomedIn);
    void updateCursor();
    void selectCopies(const QList<model::NodeId>& copies);

    /// Fail / Restore entries for the node, rail or link under a scene point.
    void addFailureActions(QMenu& menu, QPointF scenePos);
    void toggleFailure(const std::string& element, const QString& label);

    TopologyDocument& m_document;
    std::unique_ptr<TopologyScene> m_scene;
    std::unique_ptr<CanvasGestures> m_gestures;
    CanvasTool m_tool = CanvasTool::Select;
    bool m_grid = true;
    bool m_spaceHeld = false;
    bool m_pannedWithSpace = false;           ///< a drag happened while Space was held
    bool m_fitPending = true;                 ///< refit on resize until the user zooms or pans
    QSize m_fittedSize;                       ///< the canvas's size at the last refit on resize
    std::set<model::GroupKey> m_autoExpanded; ///< opened by zooming in, closed by zooming out
    std::optional<QPoint> m_panLast;
    QList<model::NodeId> m_clipboard;
};

} // namespace fabriclab::views
