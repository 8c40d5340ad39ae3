// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/present/PresentationMode.hpp"

#include "views/charts/ChartRegistry.hpp"

#include "model/analysis/Oversubscription.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/panels/DesignRegeneration.hpp"
#include "views/sim/ResultsDashboard.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QFontInfo>
#include <QGraphicsOpacityEffect>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QMainWindow>
#include <QMenuBar>
#include <QPropertyAnimation>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <cstdlib>

namespace fabriclab::views {
namespace {

/// Readable from the back of a room on a projector.
constexpr double kFontScale = 1.35;
/// The title's type against the enlarged text.
constexpr double kTitleScale = 1.3;
/// Long enough to see the change, short enough not to wait for it.
constexpr int kFadeMs = 450;
/// The two charts' share of the window's height: as much as they need to show whole,
/// captions included, without scrolling, within these bounds (the design keeps the rest).
constexpr double kResultsShareMin = 0.4;
constexpr double kResultsShareMax = 0.64;

/// A catalog fabric's name without its parenthesised hardware list: "NVIDIA Spectrum-X"
/// of "NVIDIA Spectrum-X (SN5600 Spectrum-4, ConnectX-7)".
QString shortFabricName(const std::string& name) {
    const QString full = QString::fromStdString(name);
    const qsizetype cut = full.indexOf(QStringLiteral(" ("));
    return cut > 0 ? full.left(cut) : full;
}

} // namespace

PresentationMode::PresentationMode(QMainWindow& window, TopologyDocument& document,
                                   CanvasView& canvas, ResultsDashboard& dashboard)
    : QObject(&window), m_window(window), m_document(document), m_canvas(canvas),
      m_dashboard(dashboard), m_banner(new QLabel(&canvas)) {
    m_defaultCharts = chartIds(ChartPlace::PresentedByDefault);
    m_banner->setObjectName(QStringLiteral("presentationBanner"));
    m_banner->setAutoFillBackground(true);
    m_banner->setMargin(8);
    m_banner->setWordWrap(true);
    m_banner->setTextFormat(Qt::RichText);
    m_banner->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_banner->hide();
    // A step applied, undone or edited: the banner keeps up.
    connect(&m_document, &TopologyDocument::changed, this, [this] {
        if (m_active)
            updateBanner();
    });
    // New results, new captions: the charts get the room to show them whole.
    connect(&m_dashboard, &ResultsDashboard::chartsShown, this,
            &PresentationMode::scheduleResultsRoom);
}

PresentationMode::~PresentationMode() {
    if (m_active)
        qApp->removeEventFilter(this);
}

int PresentationMode::storySize() const {
    return static_cast<int>(m_document.design().story.size());
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
    // Everything changed below is put back by leave().
    m_savedState = m_window.saveState();
    m_savedGeometry = m_window.saveGeometry();
    m_savedRect = m_window.geometry();
    m_savedWindowState = m_window.windowState();
    m_savedFocus = m_dashboard.focusedCharts();
    m_savedView = m_canvas.viewState();
    m_savedHorizontal = m_canvas.horizontalScrollBarPolicy();
    m_savedVertical = m_canvas.verticalScrollBarPolicy();
    m_savedSplitters.clear();
    for (QSplitter* splitter : m_window.findChildren<QSplitter*>())
        m_savedSplitters.append({splitter, splitter->saveState()});
    m_hidden.clear();
    QList<QWidget*> chrome{m_window.menuBar(), m_window.statusBar()};
    for (QToolBar* bar : m_window.findChildren<QToolBar*>())
        chrome << bar;
    QDockWidget* results = nullptr;
    for (QDockWidget* dock : m_window.findChildren<QDockWidget*>()) {
        if (dock->isAncestorOf(&m_dashboard))
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
    }
    // Larger type where the audience looks: the canvas (its labels and bundle labels) and
    // the charts. Only there: the menus, bars and docks hidden meanwhile keep theirs, so
    // leaving lays out nothing but what was shown.
    QFont big = QApplication::font();
    big.setPointSizeF(big.pointSizeF() * kFontScale);
    m_savedFonts.clear();
    for (QWidget* widget : {static_cast<QWidget*>(&m_canvas), static_cast<QWidget*>(results)})
        if (widget) {
            m_savedFonts.append({widget, widget->testAttribute(Qt::WA_SetFont), widget->font()});
            widget->setFont(big);
        }
    m_savedSceneFont = m_canvas.topologyScene().font();
    m_canvas.topologyScene().setFont(big);
    m_banner->setFont(big);
    // The picture is the fitted design: no scroll bars beside it.
    m_canvas.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_canvas.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    if (m_fullScreen)
        m_window.showFullScreen();
    qApp->installEventFilter(this);
    scheduleResultsRoom();
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

void PresentationMode::giveResultsRoom() {
    // What the dashboard needs to show its charts whole: its header and summary as they
    // are laid out now, and the chart grid at its minimum (charts with their captions).
    const int height = m_window.height();
    int want = static_cast<int>(height * kResultsShareMin);
    if (const auto* charts = m_dashboard.findChild<QScrollArea*>(); charts && charts->widget())
        want = std::max(want, m_dashboard.height() - charts->viewport()->height() +
                                  charts->widget()->minimumSizeHint().height());
    want = std::min(want, static_cast<int>(height * kResultsShareMax));
    for (QDockWidget* dock : m_window.findChildren<QDockWidget*>())
        if (dock->isAncestorOf(&m_dashboard) && std::abs(dock->height() - want) > 2)
            m_window.resizeDocks({dock}, {want}, Qt::Vertical);
}

void PresentationMode::scheduleResultsRoom() {
    // Once the layouts under way have run: hiding the menus and docks hands their room
    // out a turn of the event loop after they go.
    if (!m_active || m_roomScheduled)
        return;
    m_roomScheduled = true;
    QTimer::singleShot(0, this, [this] {
        m_roomScheduled = false;
        if (m_active)
            giveResultsRoom();
    });
}

void PresentationMode::fitIfActive() {
    if (m_active)
        m_canvas.fitAll();
}

void PresentationMode::frameDesign() {
    // Once the scene has rebuilt (coalesced to the end of the event) and again once the
    // window has taken its full-screen size, which the window system grants a little later.
    QTimer::singleShot(0, this, &PresentationMode::fitIfActive);
    QTimer::singleShot(kFadeMs, this, &PresentationMode::fitIfActive);
}

void PresentationMode::leave() {
    if (!m_active)
        return;
    m_active = false;
    qApp->removeEventFilter(this);
    m_banner->hide();
    m_canvas.setTopMargin(0);
    m_canvas.setHorizontalScrollBarPolicy(m_savedHorizontal);
    m_canvas.setVerticalScrollBarPolicy(m_savedVertical);
    // The type first: the charts' minimum sizes shrink back before the window is sized.
    for (const SavedFont& saved : m_savedFonts)
        if (saved.widget)
            saved.widget->setFont(saved.own ? saved.font : QFont()); // QFont(): inherit again
    m_savedFonts.clear();
    // A font of the scene's own back, or the application's again.
    m_canvas.topologyScene().setFont(m_savedSceneFont.resolveMask() != 0 ? m_savedSceneFont
                                                                         : QFont());
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
    constexpr Qt::WindowStates kSized =
        Qt::WindowMaximized | Qt::WindowFullScreen | Qt::WindowMinimized;
    if (m_savedWindowState & kSized) {
        // Its normal geometry comes back with the state, maximized or full screen.
        m_window.showNormal();
        m_window.restoreGeometry(m_savedGeometry);
    } else {
        // Exactly where and as large as it was; restoreGeometry() would shrink a window
        // larger than the screen it is on.
        m_window.showNormal();
        m_window.setGeometry(m_savedRect);
    }
    restoreLayout();
    // And again once the layouts that the shown menus, bars and docks and the charts'
    // smaller type ask for have run, a turn of the event loop later: the room they take
    // back must come from where it was given.
    QTimer::singleShot(0, this, [this] {
        if (!m_active)
            restoreLayout();
    });
    Q_EMIT activeChanged(false);
}

void PresentationMode::restoreLayout() {
    // The docks' sizes are restored into the room the menu, tool and status bars leave
    // them: those are laid out at their present size first.
    QLayout* layout = m_window.layout();
    if (layout) {
        layout->invalidate();
        layout->activate();
    }
    m_window.restoreState(m_savedState);
    for (const auto& [splitter, state] : m_savedSplitters)
        if (splitter)
            splitter->restoreState(state);
    if (layout)
        layout->activate();
    m_canvas.restoreViewState(m_savedView);
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

QString PresentationMode::designFacts() const {
    // Read from the design as it is now, not from its stored name, which still says what
    // the design was when it was saved or generated.
    const model::Design& design = m_document.design();
    QStringList facts;
    facts << tr("%1 GPUs").arg(numberText(design.topology.gpuCount()));
    facts << shortFabricName(design.fabric.spec.name);
    if (const auto ratio = model::leafOversubscription(design.topology))
        facts << tr("%1 leaf oversubscription").arg(ratioText(*ratio));
    const std::size_t failures = design.failures.size();
    facts << (failures == 0   ? tr("no failures")
              : failures == 1 ? tr("1 failure")
                              : tr("%1 failures").arg(numberText(static_cast<double>(failures))));
    return facts.join(QStringLiteral(" · "));
}

void PresentationMode::updateBanner(const QString& extra) {
    QString title;
    QString place; // "2 / 4"
    const int count = storySize();
    if (m_step >= 0 && m_step < count) {
        title = QString::fromStdString(
            m_document.design().story[static_cast<std::size_t>(m_step)].title);
        place = tr("%1 / %2").arg(m_step + 1).arg(count);
    } else if (!m_document.isModified()) {
        title = QString::fromStdString(m_document.design().name); // as saved, still true
    }
    QStringList lines;
    if (!title.isEmpty())
        lines << (place.isEmpty() ? title : title + QStringLiteral("   ") + place);
    lines << designFacts();
    if (!extra.isEmpty())
        lines << extra;
    m_bannerText = lines.join(QLatin1Char('\n'));
    // The first line as the title, in larger bold type; the rest in the enlarged text.
    QStringList html;
    for (const QString& line : lines)
        html << line.toHtmlEscaped();
    if (!title.isEmpty())
        html.front() = title.toHtmlEscaped() +
                       (place.isEmpty() ? QString() : QStringLiteral("&emsp;&emsp;") + place);
    html.front() = QStringLiteral("<span style=\"font-size:%1px; font-weight:600\">%2</span>")
                       .arg(qRound(QFontInfo(m_banner->font()).pixelSize() * kTitleScale))
                       .arg(html.front());
    m_banner->setText(html.join(QStringLiteral("<br>")));
    placeBanner();
}

void PresentationMode::placeBanner() {
    // Across the top of the canvas, which keeps that strip out of its view: the fitted
    // design is drawn below it, so the title never lies over a row of the design.
    const int width = m_canvas.width();
    const int height = m_banner->heightForWidth(width);
    m_banner->setGeometry(0, 0, width, height);
    m_canvas.setTopMargin(height);
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
    if (event->type() == QEvent::Resize) {
        // The window settles into full screen and the docks into place over several
        // layouts: keep the charts their share and the whole design in view below the
        // title through all of them.
        if (watched == &m_window || watched == m_dashboard.parentWidget())
            scheduleResultsRoom();
        if (watched == &m_canvas)
            placeBanner();
        if (watched == m_canvas.viewport())
            QTimer::singleShot(0, this, &PresentationMode::fitIfActive);
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
