// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/present/PresentationMode.hpp"

#include "views/canvas/CanvasView.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/panels/DesignRegeneration.hpp"
#include "views/sim/ResultsDashboard.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QGraphicsOpacityEffect>
#include <QKeyEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QPropertyAnimation>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace fabriclab::views {
namespace {

/// Readable from the back of a room on a projector.
constexpr double kFontScale = 1.35;
/// Long enough to see the change, short enough not to wait for it.
constexpr int kFadeMs = 450;

} // namespace

PresentationMode::PresentationMode(QMainWindow& window, TopologyDocument& document,
                                   CanvasView& canvas, ResultsDashboard& dashboard)
    : QObject(&window), m_window(window), m_document(document), m_canvas(canvas),
      m_dashboard(dashboard), m_banner(new QLabel(&canvas)) {
    m_banner->setObjectName(QStringLiteral("presentationBanner"));
    m_banner->setAutoFillBackground(true);
    m_banner->setMargin(10);
    m_banner->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_banner->hide();
    // A step applied, undone or edited: the banner keeps up.
    connect(&m_document, &TopologyDocument::changed, this, [this] {
        if (m_active)
            updateBanner();
    });
}

PresentationMode::~PresentationMode() {
    if (m_active)
        qApp->removeEventFilter(this);
}

int PresentationMode::storySize() const {
    return static_cast<int>(m_document.design().story.size());
}

QString PresentationMode::banner() const {
    return m_banner->text();
}

void PresentationMode::toggle() {
    if (m_active)
        leave();
    else
        enter();
}

void PresentationMode::enter(int step) {
    if (m_active)
        return;
    m_active = true;
    m_savedState = m_window.saveState();
    m_savedGeometry = m_window.saveGeometry();
    m_savedFont = QApplication::font();
    m_savedFocus = m_dashboard.focusedCharts();
    m_hidden.clear();
    QList<QWidget*> chrome{m_window.menuBar(), m_window.statusBar()};
    for (QToolBar* bar : m_window.findChildren<QToolBar*>())
        chrome << bar;
    QDockWidget* results = nullptr;
    for (QDockWidget* dock : m_window.findChildren<QDockWidget*>()) {
        if (dock->widget() == &m_dashboard)
            results = dock;
        else
            chrome << dock;
    }
    for (QWidget* widget : chrome)
        if (widget && widget->isVisible()) {
            m_hidden << widget;
            widget->hide();
        }
    if (results) {
        results->show();
        results->raise();
        m_resultsTitle = new QWidget(results); // an empty title bar: no chrome
        results->setTitleBarWidget(m_resultsTitle);
        m_window.resizeDocks({results}, {static_cast<int>(m_window.height() * 0.42)}, Qt::Vertical);
    }
    QFont big = m_savedFont;
    big.setPointSizeF(m_savedFont.pointSizeF() * kFontScale);
    QApplication::setFont(big);
    QFont bannerFont = big;
    bannerFont.setPointSizeF(big.pointSizeF() * 1.3);
    bannerFont.setBold(true);
    m_banner->setFont(bannerFont);
    m_window.showFullScreen();
    qApp->installEventFilter(this);
    m_banner->show();
    m_banner->raise();
    Q_EMIT activeChanged(true);
    if (storySize() > 0) {
        showStep(step);
    } else {
        m_step = -1;
        m_dashboard.focusCharts(m_defaultCharts);
        updateBanner();
        frameDesign();
    }
}

void PresentationMode::frameDesign() {
    // Once the scene has rebuilt (coalesced to the end of the event) and again once the
    // window has taken its full-screen size, which the window system grants a little later.
    QTimer::singleShot(0, &m_canvas, &CanvasView::fitAll);
    QTimer::singleShot(kFadeMs, &m_canvas, &CanvasView::fitAll);
}

void PresentationMode::leave() {
    if (!m_active)
        return;
    m_active = false;
    qApp->removeEventFilter(this);
    m_banner->hide();
    QApplication::setFont(m_savedFont);
    m_dashboard.focusCharts(m_savedFocus);
    for (QDockWidget* dock : m_window.findChildren<QDockWidget*>())
        if (dock->titleBarWidget() && dock->titleBarWidget() == m_resultsTitle) {
            dock->setTitleBarWidget(nullptr);
            delete m_resultsTitle;
        }
    for (const QPointer<QWidget>& widget : m_hidden)
        if (widget)
            widget->show();
    m_hidden.clear();
    m_window.showNormal();
    m_window.restoreGeometry(m_savedGeometry);
    m_window.restoreState(m_savedState);
    Q_EMIT activeChanged(false);
}

void PresentationMode::showStep(int step) {
    const int count = storySize();
    if (count == 0)
        return;
    step = std::clamp(step, 0, count - 1);
    const QPixmap before = m_active ? m_window.grab() : QPixmap();
    const model::StoryStep story = m_document.design().story[static_cast<std::size_t>(step)];
    auto shown = DesignRegeneration::forStoryStep(m_document.design(), story, m_document.catalog());
    m_step = step;
    if (!shown.accepted()) {
        updateBanner(shown.refusal);
        Q_EMIT refused(shown.refusal);
        return;
    }
    m_document.replaceDesign(
        std::move(*shown.design),
        tr("Show story step \u201c%1\u201d").arg(QString::fromStdString(story.title)));
    if (m_active) { // shown from the Story dock, the editor keeps all its charts
        QStringList charts;
        for (const auto& chart : story.charts)
            charts << QString::fromStdString(chart);
        m_dashboard.focusCharts(charts.isEmpty() ? m_defaultCharts : charts);
    }
    updateBanner();
    frameDesign();
    if (m_active && !before.isNull())
        fadeFrom(before);
}

void PresentationMode::setDefaultCharts(const QStringList& charts) {
    m_defaultCharts = charts;
    if (m_active && m_step < 0)
        m_dashboard.focusCharts(m_defaultCharts);
}

void PresentationMode::next() {
    if (m_step + 1 < storySize())
        showStep(m_step + 1);
}

void PresentationMode::previous() {
    if (m_step > 0)
        showStep(m_step - 1);
}

void PresentationMode::updateBanner(const QString& extra) {
    QString text;
    const int count = storySize();
    if (m_step >= 0 && m_step < count)
        text = tr("%1   %2 / %3")
                   .arg(QString::fromStdString(
                       m_document.design().story[static_cast<std::size_t>(m_step)].title))
                   .arg(m_step + 1)
                   .arg(count);
    else
        text = QString::fromStdString(m_document.design().name);
    if (!extra.isEmpty())
        text += QStringLiteral("\n") + extra;
    m_banner->setText(text);
    placeBanner();
}

void PresentationMode::placeBanner() {
    // Bottom right: the corner a fitted design leaves empty (tier labels hold the left,
    // the top row the top), so the banner hides nothing the step is about.
    m_banner->adjustSize();
    const QRect area = m_canvas.viewport()->geometry();
    m_banner->move(area.right() - m_banner->width() - 16, area.bottom() - m_banner->height() - 12);
    m_banner->raise();
}

void PresentationMode::fadeFrom(const QPixmap& before) {
    // The picture of the step before lies over the window and fades out, so the change
    // reads as one movement rather than a flash of half-drawn charts.
    auto* cover = new QLabel(&m_window);
    cover->setAttribute(Qt::WA_TransparentForMouseEvents);
    cover->setPixmap(before);
    cover->setGeometry(m_window.rect());
    auto* effect = new QGraphicsOpacityEffect(cover);
    cover->setGraphicsEffect(effect);
    cover->show();
    cover->raise();
    auto* fade = new QPropertyAnimation(effect, "opacity", cover);
    fade->setDuration(kFadeMs);
    fade->setStartValue(1.0);
    fade->setEndValue(0.0);
    fade->setEasingCurve(QEasingCurve::InOutQuad);
    connect(fade, &QPropertyAnimation::finished, cover, &QObject::deleteLater);
    fade->start();
}

namespace {

bool isPresenterKey(int key) {
    switch (key) {
    case Qt::Key_Space:
    case Qt::Key_Right:
    case Qt::Key_PageDown:
    case Qt::Key_Down:
    case Qt::Key_Left:
    case Qt::Key_PageUp:
    case Qt::Key_Up:
    case Qt::Key_Backspace:
    case Qt::Key_Home:
    case Qt::Key_End:
    case Qt::Key_Escape:
    case Qt::Key_F11:
        return true;
    default:
        return false;
    }
}

} // namespace

bool PresentationMode::eventFilter(QObject* watched, QEvent* event) {
    if (!m_active)
        return QObject::eventFilter(watched, event);
    if (event->type() == QEvent::Resize && watched == m_canvas.viewport()) {
        // The window settles into full screen and the docks into place over several
        // layouts: keep the whole design in view through all of them.
        QTimer::singleShot(0, &m_canvas, &CanvasView::fitAll);
        placeBanner();
        return QObject::eventFilter(watched, event);
    }
    if (event->type() == QEvent::ShortcutOverride) {
        // Claimed before the window's shortcuts see them: Space is play in the editor, a
        // step here.
        if (isPresenterKey(static_cast<QKeyEvent*>(event)->key())) {
            event->accept();
            return true;
        }
        return QObject::eventFilter(watched, event);
    }
    if (event->type() != QEvent::KeyPress)
        return QObject::eventFilter(watched, event);
    const auto* key = static_cast<QKeyEvent*>(event);
    switch (key->key()) {
    case Qt::Key_Space:
    case Qt::Key_Right:
    case Qt::Key_PageDown:
    case Qt::Key_Down:
        next();
        return true;
    case Qt::Key_Left:
    case Qt::Key_PageUp:
    case Qt::Key_Up:
    case Qt::Key_Backspace:
        previous();
        return true;
    case Qt::Key_Home:
        showStep(0);
        return true;
    case Qt::Key_End:
        showStep(storySize() - 1);
        return true;
    case Qt::Key_Escape:
    case Qt::Key_F11:
        // Left after the key's other receivers are done with this event.
        QTimer::singleShot(0, this, &PresentationMode::leave);
        return true;
    default:
        return QObject::eventFilter(watched, event);
    }
}

} // namespace fabriclab::views
