// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/report/DesignReport.hpp"

#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>

QT_BEGIN_NAMESPACE
class QProgressDialog;
QT_END_NAMESPACE

namespace fabriclab::app {

class MainWindow;

/// File > Export report…: the design report as a PDF (views::writeDesignReport), from the
/// very results, comparison, charts and canvas the window shows. What is not in yet is
/// waited for first: the design's run, its scaling study and the fabric comparison, each
/// started if it is not under way. A progress dialog follows the stages and the pages, and
/// its Cancel stops the export with nothing written. `fabriclab --report` and
/// `fabriclab-cli report` go through exportReport() too.
class ReportExport : public QObject {
    Q_OBJECT

public:
    explicit ReportExport(MainWindow& window);
    ~ReportExport() override;

    /// Starts writing the report to `path`; exported() or failed() follows. Ignored while
    /// an export is under way.
    void exportReport(const QString& path);
    bool isBusy() const { return m_busy; }
    /// Without a person watching (`fabriclab --report`): no progress dialog, no message
    /// box; the caller reports the outcome.
    void setInteractive(bool interactive) { m_interactive = interactive; }

Q_SIGNALS:
    void exported(const QString& path, int pages);
    void failed(const QString& path, const QString& why);

private:
    /// The next thing the report waits for, or the report itself once all is in.
    void advance();
    void waitFor(const QMetaObject::Connection& connection);
    void stopWaiting();
    void write(const views::ReportFacts& facts);
    void finish(const QString& why, int pages = 0);
    void stage(const QString& text);

    MainWindow& m_window;
    QString m_path;
    bool m_busy = false;
    bool m_interactive = true;
    QList<QMetaObject::Connection> m_waits;
    QPointer<QProgressDialog> m_progress;
    QFutureWatcher<views::ReportFacts> m_facts;
};

} // namespace fabriclab::app
