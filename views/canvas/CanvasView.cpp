// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/CanvasView.hpp"

#include "views/canvas/CanvasGestures.hpp"
#include "views/canvas/CanvasPalette.hpp"
#include "views/canvas/CanvasText.hpp"
#include "views/canvas/LinkItem.hpp"
#include "views/canvas/NodeItem.hpp"
#include "views/canvas/TopologyScene.hpp"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QSaveFile>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace fabriclab::views {
namespace {

constexpr double kMinScale = 0.002; // the 16K-GPU fabric is ~80,000 units wide
constexpr double kMaxScale = 8;
constexpr double kMaxFitScale = 2;
/// Half a node box's height in device pixels, and a little air: what a fit keeps clear
/// above the top row and below the bottom one.
constexpr double kNodeMarginPixels = 24;
constexpr double kTierLabelPixels = 125; // "Servers · 16,384" at 11 px bold, with its pad
constexpr double kKeyZoom = 1.25;
constexpr double kGridStep = CanvasGestures::kGridStep;
constexpr double kGridMinPixels = 8; // denser than this and grid lines become a haze

} // namespace

CanvasView::CanvasView(TopologyDocument& document, QWidget* parent)
    : QGraphicsView(parent), m_document(document),
      m_scene(std::make_unique<TopologyScene>(document)),
      m_gestures(std::make_unique<CanvasGestures>(
          document, *m_scene, [this](const QString& text) { Q_EMIT message(text); })) {
    setScene(m_scene.get());
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    // One dirty rectangle, not a region: an edit still repaints only around what it
    // touched, but a regenerated design adds and removes thousands of items and a region
    // of their rectangles grew by one union per item. Items set their own pen, brush and
    // hints, so the view need not save painter state.
    setViewportUpdateMode(BoundingRectViewportUpdate);
    setOptimizationFlags(DontSavePainterState | DontAdjustForAntialiasing);
    setCacheMode(CacheBackground);
    setTransformationAnchor(AnchorUnderMouse);
    setResizeAnchor(AnchorViewCenter);
    setRubberBandSelectionMode(Qt::ContainsItemBoundingRect);
    setDragMode(RubberBandDrag);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);

    connect(m_scene.get(), &TopologyScene::selectionChangedIds, this,
            &CanvasView::selectionChangedIds);
    // The scene rebuilt its items before this runs (it connected first).
    connect(&document, &TopologyDocument::designReset, this, [this] {
        // Node ids start over in a new design: copied ids would name other nodes.
        m_clipboard.clear();
        m_autoExpanded.clear();
        m_fitPending = true;
        fitAll();
    });
    // Item pointers held by a gesture may have been deleted.
    connect(m_scene.get(), &TopologyScene::rebuilt, this, [this] { m_gestures->forgetItems(); });
    updateCursor();
    fitAll();
}

CanvasView::~CanvasView() {
    m_gestures.reset(); // its rubber line lives in the scene
    setScene(nullptr);
}

// --- Tools ---

void CanvasView::setTool(CanvasTool tool) {
    if (tool == m_tool)
        return;
    m_gestures->cancel();
    m_tool = tool;
    setDragMode(tool == CanvasTool::Select ? RubberBandDrag : NoDrag);
    updateCursor();
    Q_EMIT toolChanged(tool);
    Q_EMIT message(CanvasText::toolHint(tool));
}

void CanvasView::updateCursor() {
    Qt::CursorShape shape = Qt::ArrowCursor;
    if (m_panLast)
        shape = Qt::ClosedHandCursor;
    else if (m_spaceHeld)
        shape = Qt::OpenHandCursor;
    else if (placedKind(m_tool))
        shape = Qt::CrossCursor;
    else if (m_tool == CanvasTool::Link)
        shape = Qt::PointingHandCursor;
    viewport()->setCursor(shape);
}

// --- Zoom and pan ---

void CanvasView::zoomBy(double factor, ViewportAnchor anchor) {
    const double current = transform().m11();
    const double target = std::clamp(current * factor, kMinScale, kMaxScale);
    if (target == current)
        return;
    m_fitPending = false;
    const ViewportAnchor previous = transformationAnchor();
    setTransformationAnchor(anchor);
    scale(target / current, target / current);
    setTransformationAnchor(previous);
    followZoom(target > current);
}

void CanvasView::followZoom(bool zoomedIn) {
    // Share of the view a block must fill to open, and a zoom-opened group must shrink
    // below to close: far enough apart that one notch of the wheel never does both.
    constexpr double kOpenShare = 0.6;
    constexpr double kCloseShare = 0.25;
    const double scale = transform().m11();
    m_scene->setViewScale(scale);
    const QSizeF view = viewport()->size();
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    if (zoomedIn) {
        std::optional<model::GroupKey> open;
        double nearest = 0;
        for (const model::GroupKey key : m_scene->collapsedGroups()) {
            const auto rect = m_scene->groupRect(key);
            if (!rect || !rect->intersects(visible))
                continue;
            if (rect->width() * scale < kOpenShare * view.width() &&
                rect->height() * scale < kOpenShare * view.height())
                continue;
            const QPointF d = rect->center() - visible.center();
            const double distance = d.x() * d.x() + d.y() * d.y();
            if (!open || distance < nearest) {
                open = key;
                nearest = distance;
            }
        }
        if (open) {
            m_autoExpanded.insert(*open);
            m_scene->setCollapsed(*open, false);
        }
        return;
    }
    for (auto it = m_autoExpanded.begin(); it != m_autoExpanded.end();) {
        const auto rect = m_scene->groupRect(*it);
        if (!rect || m_scene->isCollapsed(*it)) {
            it = m_autoExpanded.erase(it);
            continue;
        }
        if (rect->width() * scale < kCloseShare * view.width() &&
            rect->height() * scale < kCloseShare * view.height()) {
            m_scene->setCollapsed(*it, true);
            it = m_autoExpanded.erase(it);
            continue;
        }
        ++it;
    }
}

void CanvasView::zoomIn() {
    zoomBy(kKeyZoom, AnchorViewCenter);
}

void CanvasView::zoomOut() {
    zoomBy(1 / kKeyZoom, AnchorViewCenter);
}

void CanvasView::fitAll() {
    const QRectF content = m_scene->contentRect();
    QRectF target = content.adjusted(-kGridStep, -kGridStep, kGridStep, kGridStep);
    // QGraphicsView::fitInView()'s arithmetic, done here rather than by zooming twice:
    // each zoom and scroll would shift the cached grid and the canvas's pixels, and a
    // design rebuilt in place (another fabric, another ratio) fits at the zoom it has.
    const QRectF view = viewport()->rect().adjusted(2, 2, -2, -2);
    const auto fitScale = [&view](const QRectF& rect) {
        return std::min(view.width() / rect.width(), view.height() / rect.height());
    };
    double scale = 1;
    QPointF centre(0, 0);
    if (!content.isEmpty() && !view.isEmpty()) {
        // Leave the tier labels their strip on the left, the nodes' device-pixel boxes
        // (drawn around their centres whatever the zoom) their room above and below, and
        // half the widest bundle label at each side: refit with that many pixels more.
        const double first = fitScale(target);
        const double labelHalf = m_scene->widestBundleLabel() / 2;
        target =
            content.adjusted(-kGridStep - std::max(kTierLabelPixels, labelHalf) / first,
                             -kGridStep - kNodeMarginPixels / first, kGridStep + labelHalf / first,
                             kGridStep + kNodeMarginPixels / first);
        const double fitted = fitScale(target);
        scale = std::clamp(fitted, kMinScale, kMaxFitScale);
        centre = scale == fitted ? target.center() : content.center();
    } else if (!content.isEmpty()) {
        m_scene->setViewScale(transform().m11());
        return; // not laid out yet: the first resize fits
    }
    // A zoom is drawn afresh in full: the scroll that centres it need not first move the
    // canvas's pixels (a blit the size of the view, skipped while updates are held).
    const QTransform zoom = QTransform::fromScale(scale, scale);
    const bool zooms = transform() != zoom;
    if (zooms) {
        viewport()->setUpdatesEnabled(false);
        setTransform(zoom);
    }
    centerOn(centre);
    if (zooms) {
        viewport()->setUpdatesEnabled(true);
        viewport()->update();
    }
    m_scene->setViewScale(scale);
}

void CanvasView::resetZoom() {
    m_fitPending = false;
    const QPointF centre = mapToScene(viewport()->rect().center());
    setTransform(QTransform());
    centerOn(centre);
    m_scene->setViewScale(1);
}

CanvasView::ViewState CanvasView::viewState() const {
    return {transform(), mapToScene(viewport()->rect().center()), m_fitPending};
}

void CanvasView::restoreViewState(const ViewState& state) {
    setTransform(state.transform);
    centerOn(state.centre);
    m_fitPending = state.fitPending;
    m_scene->setViewScale(transform().m11());
}

void CanvasView::setGridVisible(bool visible) {
    if (visible == m_grid)
        return;
    m_grid = visible;
    resetCachedContent();
    viewport()->update();
}

void CanvasView::wheelEvent(QWheelEvent* event) {
    const QPoint angle = event->angleDelta();
    if (angle.y() == 0 || (event->modifiers() & Qt::ShiftModifier)) {
        // Sideways wheels and Shift+wheel scroll, as in most diagram editors.
        const int dx = angle.x() != 0 ? angle.x() : angle.y();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - dx);
        m_fitPending = false;
        return event->accept();
    }
    // One notch (120) zooms by 1.2; trackpads send smaller steps for smooth zooming.
    zoomBy(std::pow(1.2, angle.y() / 120.0), AnchorUnderMouse);
    event->accept();
}

void CanvasView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    // Refit when the canvas itself changed size, not when only its viewport did: a fit
    // shows or hides the scroll bars, which resizes the viewport, and refitting on that
    // could flip them back and forth for ever (it did, at 16K GPUs in the compare view).
    if (m_fitPending && size() != m_fittedSize) {
        m_fittedSize = size();
        fitAll();
    }
}

// --- Mouse ---

void CanvasView::mousePressEvent(QMouseEvent* event) {
    // Once the user works on the canvas, a dock resizing it (the inspector filling up)
    // must not re-fit the view under the pointer.
    m_fitPending = false;
    const QPointF scenePos = mapToScene(event->position().toPoint());
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld)) {
        m_pannedWithSpace = m_spaceHeld;
        m_panLast = event->position().toPoint();
        m_fitPending = false;
        updateCursor();
        return event->accept();
    }
    if (event->button() != Qt::LeftButton)
        return QGraphicsView::mousePressEvent(event);
    if (const auto kind = placedKind(m_tool)) {
        m_gestures->place(*kind, scenePos, event->modifiers(), m_tool == CanvasTool::Rack);
        return event->accept();
    }
    if (m_tool == CanvasTool::Link) {
        m_gestures->beginWire(scenePos, CanvasPalette::selectionColor(palette()));
        return event->accept();
    }
    // Select: the items apply click and Ctrl+click selection first; a press that leaves
    // its node or block selected then starts moving the whole selection.
    QGraphicsItem* pressed = m_scene->endpointItemAt(scenePos);
    QGraphicsView::mousePressEvent(event);
    if (!(event->modifiers() & Qt::ControlModifier))
        m_gestures->beginMove(pressed, scenePos);
}

void CanvasView::mouseMoveEvent(QMouseEvent* event) {
    const QPointF scenePos = mapToScene(event->position().toPoint());
    if (m_panLast) {
        const QPoint delta = event->position().toPoint() - *m_panLast;
        m_panLast = event->position().toPoint();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        return event->accept();
    }
    if (m_gestures->isMoving()) {
        m_gestures->dragMove(scenePos, event->modifiers());
        return event->accept();
    }
    if (m_gestures->isWiring()) {
        m_gestures->dragWire(scenePos);
        return event->accept();
    }
    QGraphicsView::mouseMoveEvent(event);
}

void CanvasView::mouseReleaseEvent(QMouseEvent* event) {
    const QPointF scenePos = mapToScene(event->position().toPoint());
    if (m_panLast && event->button() != Qt::RightButton) {
        m_panLast.reset();
        updateCursor();
        return event->accept();
    }
    if (m_gestures->isWiring() && event->button() == Qt::LeftButton) {
        m_gestures->finishWire(scenePos);
        return event->accept();
    }
    // The grabbing item sees its release before the move is committed.
    QGraphicsView::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton)
        m_gestures->finishMove();
}

// --- Keys ---

void CanvasView::keyPressEvent(QKeyEvent* event) {
    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~Qt::KeypadModifier;
    if (modifiers == Qt::ControlModifier ||
        modifiers == (Qt::ControlModifier | Qt::ShiftModifier)) {
        switch (event->key()) {
        case Qt::Key_Equal:
        case Qt::Key_Plus:
            return zoomIn();
        case Qt::Key_Minus:
            return zoomOut();
        case Qt::Key_0:
            return resetZoom();
        case Qt::Key_1:
            return fitAll();
        default:
            break;
        }
    }
    if (modifiers == Qt::NoModifier) {
        switch (event->key()) {
        case Qt::Key_V:
            return setTool(CanvasTool::Select);
        case Qt::Key_S:
            return setTool(CanvasTool::Server);
        case Qt::Key_R:
            return setTool(CanvasTool::Rack);
        case Qt::Key_L:
            return setTool(CanvasTool::Leaf);
        case Qt::Key_P:
            return setTool(CanvasTool::Spine);
        case Qt::Key_C:
            return setTool(CanvasTool::Core);
        case Qt::Key_K:
            return setTool(CanvasTool::Link);
        case Qt::Key_Delete:
        case Qt::Key_Backspace:
            return deleteSelection();
        case Qt::Key_Escape:
            if (m_gestures->isMoving() || m_gestures->isWiring())
                return m_gestures->cancel();
            if (m_tool != CanvasTool::Select)
                return setTool(CanvasTool::Select);
            return m_scene->clearSelection();
        case Qt::Key_Space:
            if (!event->isAutoRepeat()) {
                m_spaceHeld = true;
                m_pannedWithSpace = false;
                updateCursor();
            }
            return event->accept();
        default:
            break;
        }
    }
    QGraphicsView::keyPressEvent(event);
}

bool CanvasView::event(QEvent* event) {
    // The window binds Space (play/pause) and Esc (stop the simulation). On the canvas
    // Space pans while held, so the canvas keeps it and reports a tap; Esc stays here
    // only while there is something on the canvas to cancel.
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool canvasEscape =
            key->key() == Qt::Key_Escape &&
            (m_gestures->isMoving() || m_gestures->isWiring() || m_tool != CanvasTool::Select ||
             !m_scene->selectedItems().isEmpty());
        if ((key->key() == Qt::Key_Space && key->modifiers() == Qt::NoModifier) || canvasEscape) {
            event->accept();
            return true;
        }
    }
    return QGraphicsView::event(event);
}

void CanvasView::keyReleaseEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = false;
        updateCursor();
        if (!m_pannedWithSpace)
            Q_EMIT spaceTapped();
        return event->accept();
    }
    QGraphicsView::keyReleaseEvent(event);
}

// --- Context menu, theme and grid ---

void CanvasView::contextMenuEvent(QContextMenuEvent* event) {
    const QPointF scenePos = mapToScene(event->pos());
    QMenu menu(this);
    if (const auto key = m_scene->groupAt(scenePos)) {
        const bool collapsed = m_scene->isCollapsed(*key);
        const QString title = CanvasText::groupTitle(*key, m_scene->nouns());
        menu.addAction(collapsed ? tr("Expand %1").arg(title) : tr("Collapse %1").arg(title), this,
                       [this, key = *key, collapsed] { m_scene->setCollapsed(key, !collapsed); });
    }
    if (!model::groupsOf(m_document.topology()).empty()) {
        menu.addAction(tr("Collapse all groups"), this, [this] { m_scene->collapseAll(); });
        menu.addAction(tr("Expand all groups"), this, [this] { m_scene->expandAll(); });
    }
    addFailureActions(menu, scenePos);
    menu.addSeparator();
    if (!m_scene->selectedItems().isEmpty()) {
        menu.addAction(tr("Duplicate"), this, &CanvasView::duplicateSelection);
        menu.addAction(tr("Delete"), this, &CanvasView::deleteSelection);
    }
    menu.addAction(tr("Fit all"), this, &CanvasView::fitAll);
    menu.exec(event->globalPos());
}

void CanvasView::addFailureActions(QMenu& menu, QPointF scenePos) {
    const model::Topology& topology = m_document.topology();
    const auto failed = [this](const std::string& element) {
        const auto& failures = m_document.design().failures;
        return std::any_of(failures.begin(), failures.end(),
                           [&](const model::Failure& f) { return f.element == element; });
    };
    const auto offer = [&](const std::string& element, const QString& label) {
        menu.addAction(failed(element) ? tr("Restore %1").arg(label) : tr("Fail %1").arg(label),
                       this, [this, element, label] { toggleFailure(element, label); });
    };
    for (const QGraphicsItem* item : m_scene->items(scenePos)) {
        if (const auto* node = qgraphicsitem_cast<const NodeItem*>(item)) {
            if (!topology.contains(node->id()))
                return;
            const model::Node& n = topology.node(node->id());
            menu.addSeparator();
            offer(n.name, QString::fromStdString(n.name));
            if (n.kind == model::NodeKind::Leaf && n.placement.rail >= 0)
                offer(model::railElement(n.placement.rail),
                      tr("rail %1").arg(n.placement.rail + 1));
            if (model::isSwitch(n.kind) && n.placement.plane >= 0)
                offer(model::planeElement(n.placement.plane),
                      tr("NIC-port plane %1").arg(n.placement.plane + 1));
            return;
        }
        if (const auto* link = qgraphicsitem_cast<const LinkItem*>(item)) {
            const auto* a = std::get_if<model::NodeId>(&link->key().first);
            const auto* b = std::get_if<model::NodeId>(&link->key().second);
            if (!a || !b || !topology.contains(*a) || !topology.contains(*b))
                return; // a bundle between blocks: expand to fail one of its links
            const std::string element = topology.node(*a).name + "/" + topology.node(*b).name;
            menu.addSeparator();
            offer(element, tr("link %1").arg(QString::fromStdString(element)));
            // One cable of a server link is one NIC; of a switch link, one of its optics.
            const bool serverLink = topology.node(*a).kind == model::NodeKind::Server ||
                                    topology.node(*b).kind == model::NodeKind::Server;
            if (!failed(element))
                menu.addAction(
                    serverLink ? tr("Fail one NIC of %1").arg(QString::fromStdString(element))
                               : tr("Fail one cable of %1").arg(QString::fromStdString(element)),
                    this, [this, element] {
                        std::vector<model::Failure> failures = m_document.design().failures;
                        failures.push_back(model::Failure{element, model::FailureKind::Down, 1, 1});
                        m_document.setFailures(
                            std::move(failures),
                            tr("Fail one cable of %1").arg(QString::fromStdString(element)));
                    });
            return;
        }
    }
}

void CanvasView::toggleFailure(const std::string& element, const QString& label) {
    std::vector<model::Failure> failures = m_document.design().failures;
    const auto erased =
        std::erase_if(failures, [&](const model::Failure& f) { return f.element == element; });
    if (erased == 0)
        failures.push_back(model::Failure{element, model::FailureKind::Down, 0, 1});
    m_document.setFailures(std::move(failures),
                           erased ? tr("Restore %1").arg(label) : tr("Fail %1").arg(label));
}

void CanvasView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        // The cached background holds the old theme's grid.
        resetCachedContent();
        viewport()->update();
    }
    QGraphicsView::changeEvent(event);
}

namespace {

/// A tier's label ("Spines · 512"): a tinted pill, text in the tier's colour, its left
/// edge at `left` and centred on `y`. Returns the pill.
QRectF paintTierLabel(QPainter& painter, const QString& text, double left, double y,
                      const QColor& fill, const QColor& color) {
    const QFontMetricsF metrics(painter.font(), painter.device());
    const double pad = metrics.height() * 0.35;
    const QRectF box(left, y - metrics.height() / 2 - pad / 2,
                     metrics.horizontalAdvance(text) + 2 * pad, metrics.height() + pad);
    painter.setPen(Qt::NoPen);
    painter.setBrush(fill);
    painter.drawRoundedRect(box, pad, pad);
    painter.setPen(color);
    painter.drawText(box, Qt::AlignCenter, text);
    return box;
}

QFont tierLabelFont(double pixels) {
    QFont font;
    font.setPixelSize(std::max(1, static_cast<int>(std::lround(pixels))));
    font.setBold(true);
    return font;
}

/// Label pixel size of a drawing `width` wide: legible on a page, small beside the fabric.
constexpr double kLabelShareOfWidth = 1.0 / 70;
/// The pixel size the canvas's bundle labels are measured in (LinkNoteItem, about 9 pt).
constexpr double kNotePixels = 11;

} // namespace

void CanvasView::drawForeground(QPainter* painter, const QRectF&) {
    const auto& rows = m_scene->tierRows();
    if (rows.empty())
        return;
    painter->save();
    painter->resetTransform(); // viewport pixels
    painter->setFont(tierLabelFont(11));
    const QPalette& pal = palette();
    const QColor fill =
        CanvasPalette::mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.08);
    const QFontMetrics metrics(painter->font());
    double lastBottom = -1000;
    for (const auto& row : rows) {
        const int y = mapFromScene(QPointF(0, row.y)).y();
        const QString text = CanvasText::tierLabel(row.kind, row.count, m_scene->nouns());
        const QRect box(4, y - metrics.height() / 2 - 2, metrics.horizontalAdvance(text) + 10,
                        metrics.height() + 4);
        // Rows drawn closer than a label's height would overprint: keep the upper one.
        if (box.top() < lastBottom || !viewport()->rect().intersects(box))
            continue;
        lastBottom =
            paintTierLabel(*painter, text, 4, y, fill, CanvasPalette::tierColor(row.kind, pal))
                .bottom();
    }
    painter->restore();
}

namespace {

/// What renderDesign() draws of the scene: everything, with a margin.
QRectF drawingSource(const TopologyScene& scene) {
    const QRectF content = scene.contentRect();
    const double margin = std::max(20.0, 0.02 * std::max(content.width(), content.height()));
    return content.adjusted(-margin, -margin, margin, margin);
}

/// The tier labels' column, as a share of the drawing's width.
double labelGutterShare(const TopologyScene& scene) {
    constexpr double kReferenceWidth = 1000;
    const QFontMetricsF metrics(tierLabelFont(kReferenceWidth * kLabelShareOfWidth));
    double widest = 0;
    for (const auto& row : scene.tierRows())
        widest = std::max(widest, metrics.horizontalAdvance(
                                      CanvasText::tierLabel(row.kind, row.count, scene.nouns())));
    return widest > 0 ? (widest + metrics.height()) / kReferenceWidth : 0;
}

} // namespace

double CanvasView::designAspect() const {
    const QRectF source = drawingSource(*m_scene);
    if (m_scene->contentRect().isEmpty() || source.height() <= 0)
        return 0;
    return source.width() / ((1 - labelGutterShare(*m_scene)) * source.height());
}

void CanvasView::renderDesign(QPainter& painter, const QRectF& target) const {
    const QRectF source = drawingSource(*m_scene);
    const QPalette& pal = palette();
    painter.save();
    painter.fillRect(target, pal.color(QPalette::Base));
    if (m_scene->contentRect().isEmpty() || target.isEmpty()) {
        painter.restore();
        return;
    }
    const double gutter = labelGutterShare(*m_scene) * target.width();
    const QRectF room(target.left() + gutter, target.top(), target.width() - gutter,
                      target.height());
    const double scale = std::min(room.width() / source.width(), room.height() / source.height());
    const QRectF drawn(room.left() + (room.width() - source.width() * scale) / 2,
                       room.top() + (room.height() - source.height() * scale) / 2,
                       source.width() * scale, source.height() * scale);
    painter.setRenderHint(QPainter::Antialiasing);
    // Bundle labels grow with the drawing, as the tier labels do.
    const double labelPixels = target.width() * kLabelShareOfWidth;
    m_scene->renderForPrint(painter, drawn, source, labelPixels / kNotePixels / scale);

    painter.setFont(tierLabelFont(labelPixels));
    const QColor fill =
        CanvasPalette::mix(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.08);
    const QFontMetricsF metrics(painter.font(), painter.device());
    double lastBottom = -1e9;
    for (const auto& row : m_scene->tierRows()) {
        const double y = drawn.top() + (row.y - source.top()) * scale;
        if (y - metrics.height() < lastBottom)
            continue; // rows closer than a label: keep the upper one, as on screen
        lastBottom =
            paintTierLabel(painter, CanvasText::tierLabel(row.kind, row.count, m_scene->nouns()),
                           target.left(), y, fill, CanvasPalette::tierColor(row.kind, pal))
                .bottom();
    }
    painter.restore();
}

bool CanvasView::exportDrawing(const QString& path, QString* error) const {
    const auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    const double aspect = designAspect();
    if (aspect <= 0)
        return fail(tr("the design is empty"));
    // The canvas's own size in pixels, or a screen's width when it has not been shown.
    const double width = std::max(1280, viewport()->width());
    const QSizeF size(width, width / aspect);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    if (QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size.toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), size));
        svg.setTitle(QString::fromStdString(m_document.design().name));
        QPainter painter;
        if (!painter.begin(&svg))
            return fail(tr("the SVG could not be started"));
        renderDesign(painter, QRectF(QPointF(0, 0), size));
        painter.end();
    } else {
        const double scale = std::min(2.0, 8000 / size.width());
        QImage image((size * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.fill(palette().color(QPalette::Base));
        {
            QPainter painter(&image);
            renderDesign(painter, QRectF(QPointF(0, 0), QSizeF(image.size())));
        }
        if (!image.save(&file, "PNG"))
            return fail(tr("the PNG could not be encoded"));
    }
    if (!file.commit())
        return fail(file.errorString());
    return true;
}

void CanvasView::drawBackground(QPainter* painter, const QRectF& rect) {
    painter->fillRect(rect, palette().color(QPalette::Base));
    if (!m_grid)
        return;
    // Minor lines every step when they are far enough apart, major lines every 5 steps.
    painter->setRenderHint(QPainter::Antialiasing, false);
    for (const bool major : {false, true}) {
        const double step = major ? kGridStep * 5 : kGridStep;
        if (step * transform().m11() < kGridMinPixels)
            continue;
        QVector<QLineF> lines;
        for (double x = std::floor(rect.left() / step) * step; x <= rect.right(); x += step)
            lines.append(QLineF(x, rect.top(), x, rect.bottom()));
        for (double y = std::floor(rect.top() / step) * step; y <= rect.bottom(); y += step)
            lines.append(QLineF(rect.left(), y, rect.right(), y));
        painter->setPen(QPen(CanvasPalette::gridColor(palette(), major), 0));
        painter->drawLines(lines);
    }
}

// --- Selection and clipboard ---

QList<model::NodeId> CanvasView::selectedNodes() const {
    return m_scene->selectedNodeIds();
}

QList<model::LinkId> CanvasView::selectedLinks() const {
    return m_scene->selectedLinkIds();
}

void CanvasView::deleteSelection() {
    m_gestures->cancel();
    m_document.remove(selectedNodes(), selectedLinks());
}

void CanvasView::duplicateSelection() {
    const QList<model::NodeId> nodes = selectedNodes();
    if (nodes.isEmpty()) {
        Q_EMIT message(tr("Select the nodes to duplicate first."));
        return;
    }
    selectCopies(m_document.duplicate(nodes, QPointF(2 * kGridStep, 2 * kGridStep)));
}

void CanvasView::copySelection() {
    m_clipboard = selectedNodes();
    Q_EMIT message(tr("Copied %n node(s).", nullptr, static_cast<int>(m_clipboard.size())));
}

void CanvasView::paste() {
    const model::Topology& topology = m_document.topology();
    QList<model::NodeId> nodes;
    QPointF centroid;
    for (const model::NodeId id : m_clipboard)
        if (topology.contains(id)) {
            nodes.append(id);
            centroid += QPointF(topology.node(id).x, topology.node(id).y);
        }
    if (nodes.isEmpty()) {
        Q_EMIT message(tr("Nothing to paste: copy some nodes first."));
        return;
    }
    centroid /= static_cast<double>(nodes.size());
    const QPointF centre = mapToScene(viewport()->rect().center());
    QPointF offset = CanvasGestures::snapped(centre - centroid, Qt::NoModifier);
    // Pasting where the originals are would hide the copies under them.
    if (offset.isNull())
        offset = QPointF(2 * kGridStep, 2 * kGridStep);
    selectCopies(m_document.duplicate(nodes, offset));
}

void CanvasView::selectCopies(const QList<model::NodeId>& copies) {
    m_scene->selectNodes(copies);
    Q_EMIT message(tr("Added %n node(s).", nullptr, static_cast<int>(copies.size())));
}

} // namespace fabriclab::views
