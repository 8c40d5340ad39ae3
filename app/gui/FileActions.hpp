// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <utility>

class QCloseEvent;
class QMenu;

namespace fabriclab::views {
class TopologyDocument;
}

namespace fabriclab::app {

class MainWindow;

/// File > New, Open, Save, Save As, Recent files and Samples; the unsaved-changes
/// question on close; autosave every minute and recovery after a crash. Dialogs live
/// here, the reading and writing in the document and the engine.
class FileActions : public QObject {
    Q_OBJECT

public:
    FileActions(views::TopologyDocument& document, MainWindow& window);
    ~FileActions() override;

    /// Opens a design; on failure shows the file, the JSON path and the problem, and the
    /// current design stays as it was. Returns whether the design was opened.
    bool open(const QString& path);
    /// Offers to recover an autosave left by a session that did not close normally.
    /// Returns whether a design was recovered.
    bool offerRecovery();
    /// Writes unsaved changes to the autosave file now, as the minute's timer does; a
    /// failure (a full disk) is silent, since autosave must never interrupt the user.
    void autosave();

    static QString samplesFolder();
    static QString autosavePath();
    /// The sample designs as (path, what each is for: its "name", else its file name),
    /// by file name.
    static QList<std::pair<QString, QString>> samples();

    /// Asks to save unsaved changes before the design is replaced; false if the user
    /// cancelled (or the save failed).
    bool maybeSave();

private:
    bool save();
    bool saveAs();
    void newDesign();
    void openDialog();
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();
    void buildSamplesMenu(QMenu* menu);
    void onClose(QCloseEvent* event);

    views::TopologyDocument& m_document;
    MainWindow& m_window;
    QMenu* m_recentMenu = nullptr;
    QTimer m_autosave;
    /// Held while this window runs: only the instance holding it autosaves and offers
    /// recovery, so a second window neither shares nor deletes the first one's autosave.
    QLockFile m_session;
    bool m_ownsAutosave = false;
};

} // namespace fabriclab::app
