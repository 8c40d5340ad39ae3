// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/canvas/CanvasView.hpp"

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QRect>

class QLabel;
class QMainWindow;
class QSplitter;

namespace fabriclab::views {

class ResultsDashboard;
class TopologyDocument;

/// Presentation mode (F11): the window goes full screen without menus, toolbars, status
/// bar or docks other than the results, the canvas's and the charts' type grows, and the
/// results show only the two
/// charts of the story step (or bus bandwidth and step time). A title strip over the
/// canvas names the step and describes the design as it is now (GPUs, fabric,
/// oversubscription, failures), and the design is fitted below it. Space, Right and Page
/// Down go to the next story step, Left, Page Up and Backspace back, Home and End to the
/// ends; Esc or F11 leaves and puts back everything the mode changed: the window's
/// geometry and state, the docks and splitters, the type, the charts and the canvas's
/// zoom. Each step is applied to the document (one undo step) and fades in from the
/// picture of the step before.
class PresentationMode : public QObject {
    Q_OBJECT

public:
    PresentationMode(QMainWindow& window, TopologyDocument& document, CanvasView& canvas,
                     ResultsDashboard& dashboard);
    ~PresentationMode() override;

    bool isActive() const { return m_active; }
    /// The story step shown, or -1 (no story: the design as it is).
    int currentStep() const { return m_step; }
    /// The title strip's text as plain text: the step's title and place (or the design's
    /// name), then the design as it is now. For tests and captures.
    QString banner() const { return m_bannerText; }
    /// Whether entering makes the window full screen (the default). Captures at a given
    /// size present in the window as it is, as a screen of that size would show it.
    void setFullScreen(bool fullScreen) { m_fullScreen = fullScreen; }

    /// Enters presentation mode, showing story step `step` if the design has one.
    void enter(int step = 0);
    void leave();
    void toggle();
    /// Applies story step `step` (clamped), with a fade from the step before.
    void showStep(int step);
    void next();
    void previous();
    /// The two charts shown when the design has no story (the Story dock's choice).
    void setDefaultCharts(const QStringList& charts);

Q_SIGNALS:
    void activeChanged(bool active);
    /// A step could not be shown: the generator's or catalog's reason.
    void refused(const QString& reason);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fadeFrom(const QPixmap& before);
    void frameDesign();
    /// Fits the design into the canvas below the title strip, while presenting.
    void fitIfActive();
    void placeBanner();
    void updateBanner(const QString& extra = {});
    /// The design as it is now, in words: GPUs, fabric, oversubscription, failures.
    QString designFacts() const;
    void giveResultsRoom();
    /// giveResultsRoom() once the layouts under way have run.
    void scheduleResultsRoom();
    /// The docks, splitters and canvas view as they were before entering.
    void restoreLayout();
    int storySize() const;

    QMainWindow& m_window;
    TopologyDocument& m_document;
    CanvasView& m_canvas;
    ResultsDashboard& m_dashboard;
    QLabel* m_banner;
    QString m_bannerText;
    bool m_active = false;
    bool m_fullScreen = true;
    bool m_roomScheduled = false;
    int m_step = -1;
    // What entering changed, to be put back on leaving.
    QByteArray m_savedState;
    QByteArray m_savedGeometry;
    QRect m_savedRect;
    Qt::WindowStates m_savedWindowState;
    struct SavedFont {
        QPointer<QWidget> widget;
        bool own = false; ///< set on the widget, not inherited
        QFont font;
    };
    QList<SavedFont> m_savedFonts;
    QFont m_savedSceneFont;
    QStringList m_savedFocus;
    QList<std::pair<QPointer<QSplitter>, QByteArray>> m_savedSplitters;
    CanvasView::ViewState m_savedView;
    Qt::ScrollBarPolicy m_savedHorizontal = Qt::ScrollBarAsNeeded;
    Qt::ScrollBarPolicy m_savedVertical = Qt::ScrollBarAsNeeded;
    /// The charts shown without a story (ChartRegistry.hpp's PresentedByDefault).
    QStringList m_defaultCharts;
    QList<QPointer<QWidget>> m_hidden;
    QPointer<QWidget> m_resultsTitle;
};

} // namespace fabriclab::views
