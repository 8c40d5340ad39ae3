// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QMainWindow>
#include <QSize>

class QAction;
class QDockWidget;
class QMenu;
class QStackedWidget;

namespace fabriclab::views {
class CanvasView;
class CompareController;
class ComparePanel;
class DesignAnalyzer;
class ResultsDashboard;
class ExplainPanel;
class PresentationMode;
class StoryPanel;
class PlanPanel;
class TeachingPanel;
class TopologyDocument;
} // namespace fabriclab::views

namespace fabriclab::app {

class SimulationActions;
class WelcomePage;

/// The window: canvas in the centre, palette, inspector, fabric and results docks, live
/// figures in the status bar. It creates actions, menus and docks and connects them;
/// the thinking happens in the document, the views and the engine.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(views::TopologyDocument& document, QWidget* parent = nullptr);

    QMenu* fileMenu() const { return m_fileMenu; }
    views::TopologyDocument& document() const { return m_document; }
    views::CanvasView* canvas() const { return m_canvas; }
    views::ResultsDashboard* dashboard() const { return m_dashboard; }
    /// Gives the Results dock `share` of the window's height (headless captures, where
    /// the charts are the picture).
    void giveResultsRoom(double share);
    views::ComparePanel* comparePanel() const { return m_compare; }
    views::CompareController* comparisons() const { return m_comparisons; }
    SimulationActions* simulation() const { return m_simulation; }
    views::TeachingPanel* teaching() const { return m_teaching; }
    views::PlanPanel* plan() const { return m_plan; }
    views::ExplainPanel* explain() const { return m_explain; }
    views::PresentationMode* presentation() const { return m_presentation; }
    views::StoryPanel* story() const { return m_story; }
    WelcomePage* welcome() const { return m_welcome; }

    /// The smallest the window may be made; nothing inside makes it larger (every dock's
    /// panel scrolls when its dock is smaller than the panel's own minimum).
    static QSize minimumWindowSize();
    /// A first start (no design given, none recovered): the welcome page in place of the
    /// canvas and the docks, which would only say that an empty design has no results.
    /// It goes by itself once a design is opened, generated or recovered.
    void showWelcome();
    /// Back to the canvas and the docks as they were.
    void leaveWelcome();
    bool isWelcomeShown() const;
    /// No larger than the screen's free area (a first start on a 1366 x 768 laptop).
    void fitScreen();

Q_SIGNALS:
    /// The user asked to close; FileActions decides (unsaved changes) and may accept.
    void closeRequested(QCloseEvent* event);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildDocks();
    void buildEditMenu();
    void buildViewMenu();
    void buildFabricMenu();
    void buildHelpMenu();
    void updateTitle();
    void restoreLayout();
    void resetLayout();
    /// `widget` in a dock of its own, scrolled when the dock is smaller than it (unless
    /// it scrolls its own contents, as the results' charts do).
    QDockWidget* addPanelDock(const QString& title, const QString& name, QWidget* widget,
                              Qt::DockWidgetArea area, bool scrolled = true);

    views::TopologyDocument& m_document;
    views::CanvasView* m_canvas = nullptr;
    views::DesignAnalyzer* m_analyzer = nullptr;
    views::ResultsDashboard* m_dashboard = nullptr;
    views::ComparePanel* m_compare = nullptr;
    views::CompareController* m_comparisons = nullptr;
    SimulationActions* m_simulation = nullptr;
    views::TeachingPanel* m_teaching = nullptr;
    views::PlanPanel* m_plan = nullptr;
    views::ExplainPanel* m_explain = nullptr;
    views::StoryPanel* m_story = nullptr;
    views::PresentationMode* m_presentation = nullptr;
    WelcomePage* m_welcome = nullptr;
    QStackedWidget* m_centre = nullptr; ///< the canvas, or the welcome page
    QAction* m_generate = nullptr;
    QMenu* m_fileMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QByteArray m_defaultState; ///< dock layout as first built, for View > Reset layout
    QByteArray m_welcomeState; ///< dock layout under the welcome page, given back after it
};

} // namespace fabriclab::app
