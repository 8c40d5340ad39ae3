// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QSize>
#include <QString>
#include <QTimer>

namespace fabriclab::app {

class MainWindow;

/// `fabriclab --screenshot OUT.png [--view V] [--size WxH] DESIGN` and `fabriclab
/// --export-charts DIR DESIGN`: waits until the simulation of the opened design has
/// finished and the charts show it (and, for the compare view, until the fabric comparison
/// has), then saves the window or every chart and asks the application to quit with
/// finished(exitCode). The welcome view needs no design and waits for nothing. The window
/// must still be the size asked for when it is captured: one that grew (a panel's minimum
/// larger than the window) fails the capture. Works under QT_QPA_PLATFORM=offscreen.
/// Wiring and waiting only.
class HeadlessCapture : public QObject {
    Q_OBJECT

public:
    enum class Mode { Screenshot, ExportCharts };

    /// Views --screenshot knows.
    static QStringList views();

    /// `size`: what the window was given, and must still be when captured.
    HeadlessCapture(MainWindow& window, Mode mode, QString target, QString view, QSize size);
    /// Starts waiting for the results; call once the design is loaded.
    void start();

Q_SIGNALS:
    /// 0 on success; the reason was printed on stderr otherwise.
    void finished(int exitCode);

private:
    void resultsArrived();
    /// Captures once both the design's results and its scaling study are shown.
    void partArrived();
    void capture();
    bool exportCharts();
    void fail(const QString& message, int exitCode = 1);

    MainWindow& m_window;
    Mode m_mode;
    QString m_target;
    QString m_view;
    QSize m_size;
    QTimer m_timeout;
    bool m_done = false;
    bool m_results = false;    ///< the design's own results are shown (and compared, if asked)
    bool m_scaling = false;    ///< the scaling study is shown, or could not run
    bool m_presenting = false; ///< presentation mode entered (--view presentation)
};

} // namespace fabriclab::app
