// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/MainWindow.hpp"

#include "app/gui/FileActions.hpp"
#include "app/gui/ShortcutsDialog.hpp"
#include "app/gui/SimulationActions.hpp"
#include "app/gui/Theme.hpp"
#include "app/gui/WelcomePage.hpp"
#include "model/layout/TieredLayout.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/dialogs/AccuracyDialog.hpp"
#include "views/dialogs/GenerateDialog.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/panels/DesignRegeneration.hpp"
#include "views/panels/FabricPanel.hpp"
#include "views/panels/FailurePanel.hpp"
#include "views/panels/InspectorPanel.hpp"
#include "views/panels/PalettePanel.hpp"
#include "views/panels/SitesPanel.hpp"
#include "views/panels/StatusFigures.hpp"
#include "views/panels/ThemedIcon.hpp"
#include "views/present/PresentationMode.hpp"
#include "views/present/StoryPanel.hpp"
#include "views/sim/CompareController.hpp"
#include "views/sim/ComparePanel.hpp"
#include "views/sim/DesignAnalyzer.hpp"
#include "views/sim/ExplainPanel.hpp"
#include "views/sim/PlanPanel.hpp"
#include "views/sim/ResultsDashboard.hpp"
#include "views/sim/SimulationController.hpp"
#include "views/teach/TeachingPanel.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QKeySequence>
#include <QLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>

namespace fabriclab::app {

using views::CanvasTool;

namespace {

/// A window that opens this large where the screen has the room.
constexpr QSize kDefaultSize(1400, 900);
/// What a first window may take of its screen's free area, leaving the desktop a border.
constexpr double kScreenShare = 0.96;

/// Keeps a docked panel's minimum size at what its layout needs now, at its width, for
/// the scroll area around it to read. Qt's scroll area takes a panel with word-wrapped
/// text at its preferred height for its width (where a list that asks for no height
/// counts as none) and a panel's minimum as it was when its dock was last shown (a
/// comparison that arrived behind the Results tab): either way the panel was drawn
/// squeezed, its buttons over its list.
class PanelMinimum : public QObject {
public:
    using QObject::QObject;

    static void fit(QWidget* panel) {
        const QLayout* layout = panel->layout();
        if (!layout)
            return;
        QSize need = layout->totalMinimumSize();
        if (layout->hasHeightForWidth())
            need.setHeight(std::max(need.height(), layout->minimumHeightForWidth(panel->width())));
        if (need != panel->minimumSize())
            panel->setMinimumSize(need);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Resize ||
            event->type() == QEvent::Show)
            fit(static_cast<QWidget*>(watched));
        return false;
    }
};

} // namespace

QSize MainWindow::minimumWindowSize() {
    return {720, 480};
}

MainWindow::MainWindow(views::TopologyDocument& document, QWidget* parent)
    : QMainWindow(parent), m_document(document) {
    setObjectName(QStringLiteral("MainWindow"));
    m_canvas = new views::CanvasView(document, this);
    m_welcome = new WelcomePage(FileActions::samples(), this);
    m_centre = new QStackedWidget(this);
    m_centre->addWidget(m_canvas);
    m_centre->addWidget(m_welcome);
    setCentralWidget(m_centre);
    m_analyzer = new views::DesignAnalyzer(document, this);

    m_fileMenu = menuBar()->addMenu(tr("&File"));
    buildEditMenu();
    buildViewMenu();
    buildFabricMenu();
    buildDocks();
    m_simulation = new SimulationActions(*this, document, *m_canvas, *m_dashboard, *m_compare,
                                         *menuBar()->addMenu(tr("&Simulation")));
    connect(&m_simulation->controller(), &views::SimulationController::resultReady, m_explain,
            &views::ExplainPanel::showResult);
    buildHelpMenu();

    auto* figures = new views::StatusFigures(this);
    statusBar()->addPermanentWidget(figures, 1);
    connect(m_analyzer, &views::DesignAnalyzer::figuresChanged, figures,
            &views::StatusFigures::show);
    connect(m_canvas, &views::CanvasView::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 6000); });

    connect(document.undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(&document, &views::TopologyDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(&document, &views::TopologyDocument::designReset, this, &MainWindow::updateTitle);
    updateTitle();
    // The window's size is the user's: a panel filling up (results arriving, a long
    // inspector table, the larger type of presentation mode) must not make it grow. The
    // layout would raise the window's minimum to the sum of the docks' minimums; every
    // panel scrolls inside its dock instead (addPanelDock), and the minimum is pinned.
    layout()->setSizeConstraint(QLayout::SetNoConstraint);
    setMinimumSize(minimumWindowSize());
    resize(kDefaultSize);
    m_defaultState = saveState();
    restoreLayout();

    // The welcome page asks; the generator is here, files are FileActions' business.
    connect(m_welcome, &WelcomePage::generateRequested, m_generate, &QAction::trigger);
    connect(m_welcome, &WelcomePage::emptyCanvasRequested, this, &MainWindow::leaveWelcome);
    connect(&document, &views::TopologyDocument::designReset, this, &MainWindow::leaveWelcome);
    connect(&document, &views::TopologyDocument::changed, this, &MainWindow::leaveWelcome);
    // Single-key tools and arrow nudges act on the canvas from the first keystroke.
    m_canvas->setFocus();
}

QDockWidget* MainWindow::addPanelDock(const QString& title, const QString& name, QWidget* widget,
                                      Qt::DockWidgetArea area, bool scrolled) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name); // saveState() keys docks by object name
    if (!scrolled) {
        dock->setWidget(widget);
        addDockWidget(area, dock);
        m_viewMenu->addAction(dock->toggleViewAction());
        return dock;
    }
    // The panel fills its dock and keeps its own minimum; a dock smaller than that (a
    // 1280 x 720 screen, the comparison's chart and table, a lesson's controls) scrolls
    // rather than pushing the window larger or drawing docks over each other.
    auto* scroll = new QScrollArea(dock);
    scroll->setObjectName(name + QStringLiteral("Scroll"));
    widget->installEventFilter(new PanelMinimum(widget));
    // A dock brought forward shows its panel as it is now, not as it was when hidden.
    connect(dock, &QDockWidget::visibilityChanged, widget, [widget](bool visible) {
        if (visible)
            PanelMinimum::fit(widget);
    });
    scroll->setWidget(widget);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    dock->setWidget(scroll);
    addDockWidget(area, dock);
    m_viewMenu->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::buildDocks() {
    const auto dock = [this](const QString& title, const QString& name, QWidget* widget,
                             Qt::DockWidgetArea area, bool scrolled = true) {
        return addPanelDock(title, name, widget, area, scrolled);
    };
    m_viewMenu->addSeparator();
    auto* palette = new views::PalettePanel(this);
    dock(tr("Palette"), QStringLiteral("PaletteDock"), palette, Qt::LeftDockWidgetArea);
    connect(palette, &views::PalettePanel::toolRequested, m_canvas, &views::CanvasView::setTool);
    connect(m_canvas, &views::CanvasView::toolChanged, palette, &views::PalettePanel::setTool);

    auto* inspector = new views::InspectorPanel(m_document, this);
    QDockWidget* inspectorDock =
        dock(tr("Inspector"), QStringLiteral("InspectorDock"), inspector, Qt::RightDockWidgetArea);
    connect(m_canvas, &views::CanvasView::selectionChangedIds, inspector,
            &views::InspectorPanel::setSelection);

    m_explain = new views::ExplainPanel(this);
    QDockWidget* explainDock =
        dock(tr("Explain"), QStringLiteral("ExplainDock"), m_explain, Qt::RightDockWidgetArea);
    tabifyDockWidget(inspectorDock, explainDock);
    inspectorDock->raise();
    connect(m_canvas, &views::CanvasView::selectionChangedIds, m_explain,
            &views::ExplainPanel::setSelection);
    connect(m_explain, &views::ExplainPanel::elementsRequested, &m_canvas->topologyScene(),
            &views::TopologyScene::selectElements);
    // Another design opened: what Explain said was about the one before.
    connect(&m_document, &views::TopologyDocument::designReset, m_explain,
            [this](views::DesignReset how) {
                if (how == views::DesignReset::Opened)
                    m_explain->clear(tr("No results for this design yet."));
            });

    auto* fabric = new views::FabricPanel(m_document, this);
    QDockWidget* fabricDock =
        dock(tr("Fabric"), QStringLiteral("FabricDock"), fabric, Qt::RightDockWidgetArea);
    // Under the palette, whose column has the room: a drill is run from the left.
    auto* failures = new views::FailurePanel(m_document, this);
    QDockWidget* failureDock = dock(tr("What-if failures"), QStringLiteral("FailureDock"), failures,
                                    Qt::LeftDockWidgetArea);
    m_story = new views::StoryPanel(m_document, this);
    QDockWidget* storyDock =
        dock(tr("Story"), QStringLiteral("StoryDock"), m_story, Qt::LeftDockWidgetArea);
    tabifyDockWidget(failureDock, storyDock);
    auto* sites = new views::SitesPanel(m_document, this);
    QDockWidget* sitesDock =
        dock(tr("Sites"), QStringLiteral("SitesDock"), sites, Qt::LeftDockWidgetArea);
    tabifyDockWidget(storyDock, sitesDock);
    failureDock->raise();
    // The inspector's table needs the height; the fabric panel is a few lines.
    resizeDocks({inspectorDock, fabricDock}, {520, 260}, Qt::Vertical);
    resizeDocks({inspectorDock}, {330}, Qt::Horizontal);

    m_dashboard = new views::ResultsDashboard(this);
    // The dashboard scrolls its charts itself, and its header gives up width by eliding:
    // a second scroll area around it would only scroll the charts' captions out of view.
    QDockWidget* results = dock(tr("Results"), QStringLiteral("ResultsDock"), m_dashboard,
                                Qt::BottomDockWidgetArea, false);
    m_comparisons = new views::CompareController(m_document, this);
    m_compare = new views::ComparePanel(*m_comparisons, this);
    QDockWidget* compare = dock(tr("Compare fabrics"), QStringLiteral("CompareDock"), m_compare,
                                Qt::BottomDockWidgetArea);
    tabifyDockWidget(results, compare);
    m_teaching = new views::TeachingPanel(m_document, this);
    // Beside the results: a lesson reads across the window's width, under the canvas
    // that shows it.
    QDockWidget* teach =
        dock(tr("Teach"), QStringLiteral("TeachDock"), m_teaching, Qt::BottomDockWidgetArea);
    tabifyDockWidget(compare, teach);
    m_plan = new views::PlanPanel(m_document, this);
    QDockWidget* planDock =
        dock(tr("Plan"), QStringLiteral("PlanDock"), m_plan, Qt::BottomDockWidgetArea);
    tabifyDockWidget(teach, planDock);
    views::TopologyScene& scene = m_canvas->topologyScene();
    connect(m_teaching, &views::TeachingPanel::linksShown, this,
            [&scene](const auto& load, const auto& notes) { scene.showLessonStep(load, notes); });
    connect(m_teaching, &views::TeachingPanel::linksCleared, &scene,
            &views::TopologyScene::clearLesson);
    // Closing the dock ends the lesson, so the canvas is left as the user found it.
    connect(teach, &QDockWidget::visibilityChanged, this, [this, teach](bool visible) {
        if (!visible && teach->isHidden())
            m_teaching->stop();
    });
    m_presentation = new views::PresentationMode(*this, m_document, *m_canvas, *m_dashboard);
    connect(m_story, &views::StoryPanel::showRequested, m_presentation,
            &views::PresentationMode::showStep);
    connect(m_story, &views::StoryPanel::presentRequested, m_presentation,
            [this](int step) { m_presentation->enter(step); });
    connect(m_story, &views::StoryPanel::chartsChosen, m_presentation,
            &views::PresentationMode::setDefaultCharts);
    connect(m_presentation, &views::PresentationMode::refused, this, [this](const QString& why) {
        statusBar()->showMessage(tr("Cannot show that story step: %1").arg(why), 8000);
    });
    results->raise();
    // The charts are what the user came for: give them half the window's height.
    resizeDocks({results}, {430}, Qt::Vertical);
    connect(m_compare->compareAction(), &QAction::triggered, compare, &QDockWidget::raise);
}

void MainWindow::buildEditMenu() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document.undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_document.undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    const auto add = [&](const QString& text, QKeySequence key, auto slot) {
        QAction* action = edit->addAction(text);
        action->setShortcut(key);
        connect(action, &QAction::triggered, m_canvas, slot);
        return action;
    };
    add(tr("&Copy"), QKeySequence::Copy, &views::CanvasView::copySelection);
    add(tr("&Paste"), QKeySequence::Paste, &views::CanvasView::paste);
    add(tr("D&uplicate"), QKeySequence(tr("Ctrl+D")), &views::CanvasView::duplicateSelection);
    add(tr("&Delete"), QKeySequence::Delete, &views::CanvasView::deleteSelection);
    edit->addSeparator();

    // Single-key tools, as in network drawing tools; the palette mirrors them.
    auto* tools = new QActionGroup(this);
    const std::pair<CanvasTool, std::pair<QString, QString>> toolList[] = {
        {CanvasTool::Select, {tr("&Select"), QStringLiteral("V")}},
        {CanvasTool::Server, {tr("Place se&rver"), QStringLiteral("S")}},
        {CanvasTool::Rack, {tr("Place &NVLink rack"), QStringLiteral("R")}},
        {CanvasTool::Leaf, {tr("Place &leaf switch"), QStringLiteral("L")}},
        {CanvasTool::Spine, {tr("Place s&pine switch"), QStringLiteral("P")}},
        {CanvasTool::Core, {tr("Place &core switch"), QStringLiteral("C")}},
        {CanvasTool::Link, {tr("Draw lin&k"), QStringLiteral("K")}},
    };
    for (const auto& [tool, labels] : toolList) {
        QAction* action = edit->addAction(labels.first);
        action->setShortcut(QKeySequence(labels.second));
        action->setCheckable(true);
        action->setChecked(tool == CanvasTool::Select);
        tools->addAction(action);
        connect(action, &QAction::triggered, m_canvas,
                [this, tool = tool] { m_canvas->setTool(tool); });
        connect(m_canvas, &views::CanvasView::toolChanged, action,
                [action, tool = tool](CanvasTool now) { action->setChecked(now == tool); });
    }
}

void MainWindow::buildViewMenu() {
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    const auto add = [&](const QString& text, QKeySequence key, auto slot) {
        QAction* action = m_viewMenu->addAction(text);
        action->setShortcut(key);
        connect(action, &QAction::triggered, m_canvas, slot);
        return action;
    };
    add(tr("Zoom &in"), QKeySequence::ZoomIn, &views::CanvasView::zoomIn);
    add(tr("Zoom &out"), QKeySequence::ZoomOut, &views::CanvasView::zoomOut);
    add(tr("&Fit to window"), QKeySequence(tr("Ctrl+1")), &views::CanvasView::fitAll);
    add(tr("&Reset zoom"), QKeySequence(tr("Ctrl+0")), &views::CanvasView::resetZoom);
    QAction* grid = m_viewMenu->addAction(tr("Show &grid"));
    grid->setCheckable(true);
    grid->setChecked(true);
    connect(grid, &QAction::toggled, m_canvas, &views::CanvasView::setGridVisible);
    m_viewMenu->addSeparator();

    QMenu* themeMenu = m_viewMenu->addMenu(tr("&Theme"));
    auto* themes = new QActionGroup(this);
    const std::pair<Theme, QString> themeList[] = {{Theme::System, tr("Follow the &desktop")},
                                                   {Theme::Light, tr("&Light")},
                                                   {Theme::Dark, tr("D&ark")}};
    for (const auto& [theme, label] : themeList) {
        QAction* action = themeMenu->addAction(label);
        action->setCheckable(true);
        action->setChecked(savedTheme() == theme);
        themes->addAction(action);
        connect(action, &QAction::triggered, this, [theme = theme] {
            applyTheme(theme);
            saveTheme(theme);
        });
    }
    m_viewMenu->addSeparator();
    // Two clicks from any state to a story step: this menu, this item.
    QAction* addStep = m_viewMenu->addAction(tr("Add current state to &story"));
    addStep->setShortcut(QKeySequence(tr("Ctrl+Shift+A")));
    connect(addStep, &QAction::triggered, this, [this] { m_story->addCurrentState(); });
    QAction* present = m_viewMenu->addAction(tr("&Presentation mode"));
    present->setShortcut(QKeySequence(Qt::Key_F11));
    connect(present, &QAction::triggered, this, [this] {
        leaveWelcome(); // the design is what is presented
        m_presentation->toggle();
    });
    QAction* reset = m_viewMenu->addAction(tr("Reset &layout"));
    connect(reset, &QAction::triggered, this, &MainWindow::resetLayout);
}

void MainWindow::buildFabricMenu() {
    QMenu* fabric = menuBar()->addMenu(tr("F&abric"));
    QAction* generate = m_generate = fabric->addAction(
        views::ThemedIcon::fromResource(QStringLiteral("generate.svg")), tr("&Generate…"));
    generate->setShortcut(QKeySequence(tr("Ctrl+G")));
    connect(generate, &QAction::triggered, this, [this] {
        const auto params = views::GenerateDialog::ask(this, m_document);
        if (!params)
            return;
        auto regenerated = views::DesignRegeneration::withParams(m_document.design(), *params);
        if (!regenerated.accepted()) {
            QMessageBox::warning(this, tr("Cannot generate"), regenerated.refusal);
            return;
        }
        m_document.replaceDesign(std::move(*regenerated.design), tr("Generate fabric"));
    });
    QAction* arrange = fabric->addAction(tr("&Arrange in tiers"));
    arrange->setShortcut(QKeySequence(tr("Ctrl+Shift+L")));
    connect(arrange, &QAction::triggered, this, [this] {
        model::Design design = m_document.design();
        model::layoutTiers(design.topology);
        m_document.replaceDesign(std::move(design), tr("Arrange in tiers"));
    });
    auto* bar = addToolBar(tr("Fabric"));
    bar->setObjectName(QStringLiteral("FabricToolBar"));
    bar->addAction(generate);
    QAction* fit =
        bar->addAction(views::ThemedIcon::fromResource(QStringLiteral("fit.svg")), tr("Fit"));
    connect(fit, &QAction::triggered, m_canvas, &views::CanvasView::fitAll);
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts = help->addAction(tr("&Keyboard shortcuts"));
    shortcuts->setShortcut(QKeySequence::HelpContents);
    connect(shortcuts, &QAction::triggered, this, [this] { ShortcutsDialog(*this, this).exec(); });
    // Beside the design, not over it: the table of figures stays open while one works.
    QAction* accuracy = help->addAction(tr("Model &accuracy…"));
    accuracy->setObjectName(QStringLiteral("modelAccuracy"));
    connect(accuracy, &QAction::triggered, this, [this] {
        auto* dialog = findChild<views::AccuracyDialog*>();
        if (!dialog) {
            dialog = new views::AccuracyDialog(m_document.catalog(), this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            // A team's nccl-tests log is set against the design open when it is chosen.
            dialog->setOpenDesign([this] { return m_document.snapshot(); });
        }
        dialog->show();
        dialog->raise();
        dialog->activateWindow();
    });
    QAction* about = help->addAction(tr("&About FabricLab"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About FabricLab"),
                           tr("<b>FabricLab %1</b><p>Plan the network of GPU training clusters: "
                              "draw or generate a fabric and see what it delivers and costs.</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::giveResultsRoom(double share) {
    if (auto* results = findChild<QDockWidget*>(QStringLiteral("ResultsDock")))
        resizeDocks({results}, {static_cast<int>(height() * share)}, Qt::Vertical);
}

void MainWindow::updateTitle() {
    // "[*]" shows the unsaved-changes marker wherever the platform puts it.
    setWindowTitle(tr("%1[*] — FabricLab").arg(m_document.displayName()));
    setWindowModified(m_document.isModified());
}

void MainWindow::restoreLayout() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::fitScreen() {
    const QScreen* where = screen();
    if (!where)
        return;
    const QSize room = where->availableGeometry().size() * kScreenShare;
    if (width() > room.width() || height() > room.height())
        resize(size().boundedTo(room).expandedTo(minimumWindowSize()));
}

bool MainWindow::isWelcomeShown() const {
    return m_centre->currentWidget() == m_welcome;
}

void MainWindow::showWelcome() {
    if (isWelcomeShown())
        return;
    m_welcomeState = saveState();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        dock->hide();
    m_centre->setCurrentWidget(m_welcome);
}

void MainWindow::leaveWelcome() {
    if (!isWelcomeShown())
        return;
    m_centre->setCurrentWidget(m_canvas);
    restoreState(m_welcomeState);
    m_canvas->setFocus();
}

void MainWindow::resetLayout() {
    leaveWelcome();
    restoreState(m_defaultState);
    for (auto* dock : findChildren<QDockWidget*>())
        dock->show();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    event->accept();
    Q_EMIT closeRequested(event);
    if (!event->isAccepted())
        return;
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    // The docks as the user arranged them, not as the welcome page hid them.
    settings.setValue(QStringLiteral("window/state"),
                      isWelcomeShown() ? m_welcomeState : saveState());
}

} // namespace fabriclab::app
