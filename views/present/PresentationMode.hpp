// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <QPointer>

class QLabel;
class QMainWindow;

namespace fabriclab::views {

class CanvasView;
class ResultsDashboard;
class TopologyDocument;

/// Presentation mode (F11): the window goes full screen without menus, toolbars, status
/// bar or docks other than the results, fonts grow, and the results show only the two
/// charts of the story step (or bus bandwidth and step time). Space, Right and Page Down
/// go to the next story step, Left, Page Up and Backspace back, Home and End to the ends,
/// Esc or F11 leaves and puts the window back as it was. Each step is applied to the
/// document (one undo step) and fades in from the picture of the step before.
class PresentationMode : public QObject {
    Q_OBJECT

public:
    PresentationMode(QMainWindow& window, TopologyDocument& document, CanvasView& canvas,
                     ResultsDashboard& dashboard);
    ~PresentationMode() override;

    bool isActive() const { return m_active; }
    /// The story step shown, or -1 (no story: the design as it is).
    int currentStep() const { return m_step; }
    /// The banner's text (step title and position), for tests and captures.
    QString banner() const;

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
    void placeBanner();
    void updateBanner(const QString& extra = {});
    int storySize() const;

    QMainWindow& m_window;
    TopologyDocument& m_document;
    CanvasView& m_canvas;
    ResultsDashboard& m_dashboard;
    QLabel* m_banner;
    bool m_active = false;
    int m_step = -1;
    QByteArray m_savedState;
    QByteArray m_savedGeometry;
    QFont m_savedFont;
    QStringList m_savedFocus;
    QStringList m_defaultCharts{QStringLiteral("busbw-vs-size"), QStringLiteral("step-time")};
    QList<QPointer<QWidget>> m_hidden;
    QPointer<QWidget> m_resultsTitle;
};

} // namespace fabriclab::views
