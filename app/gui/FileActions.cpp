// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/FileActions.hpp"

#include "app/gui/MainWindow.hpp"
#include "app/gui/WelcomePage.hpp"
#include "model/io/DesignFile.hpp"
#include "model/core/JsonCursor.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QUndoStack>

#include <fstream>
#include <nlohmann/json.hpp>

namespace fabriclab::app {
namespace {

constexpr int kAutosaveMs = 60 * 1000;
constexpr int kMaxRecent = 8;
const char* const kRecentKey = "files/recent";
const char* const kAutosaveOrigin = "autosave/origin";
const QString kFilter =
    QStringLiteral("FabricLab designs (*.fabric.json);;JSON files (*.json);;All files (*)");

} // namespace

FileActions::FileActions(views::TopologyDocument& document, MainWindow& window)
    : QObject(&window), m_document(document), m_window(window),
      m_session(QFileInfo(autosavePath()).path() + QStringLiteral("/session.lock")) {
    QDir().mkpath(QFileInfo(autosavePath()).path());
    m_session.setStaleLockTime(0); // a lock left by a crashed process is taken over
    m_ownsAutosave = m_session.tryLock(0);
    QMenu* menu = window.fileMenu();
    const auto add = [&](const QString& text, QKeySequence key, auto slot) {
        QAction* action = menu->addAction(text);
        action->setShortcut(key);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    add(tr("&New"), QKeySequence::New, &FileActions::newDesign);
    add(tr("&Open…"), QKeySequence::Open, &FileActions::openDialog);
    m_recentMenu = menu->addMenu(tr("Open &Recent"));
    buildSamplesMenu(menu->addMenu(tr("Sa&mples")));
    menu->addSeparator();
    add(tr("&Save"), QKeySequence::Save, &FileActions::save);
    add(tr("Save &As…"), QKeySequence::SaveAs, &FileActions::saveAs);
    menu->addSeparator();
    QAction* quit = menu->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, &window, &QWidget::close);
    rebuildRecentMenu();

    connect(&window, &MainWindow::closeRequested, this, &FileActions::onClose);
    connect(window.welcome(), &WelcomePage::openRequested, this, &FileActions::openDialog);
    connect(window.welcome(), &WelcomePage::sampleRequested, this,
            [this](const QString& path) { open(path); });
    m_autosave.setInterval(kAutosaveMs);
    connect(&m_autosave, &QTimer::timeout, this, &FileActions::autosave);
    if (m_ownsAutosave)
        m_autosave.start();
    // Saved, or undone back to what is on disk: an older autosave must not come back.
    connect(document.undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean && m_ownsAutosave)
            QFile::remove(autosavePath());
    });
}

FileActions::~FileActions() = default;

QString FileActions::samplesFolder() {
    // Installed next to the binary, or the source tree's samples/ for a build tree.
    const QString installed =
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/fabriclab/samples");
    if (QFileInfo::exists(installed))
        return QDir(installed).absolutePath();
    return QStringLiteral(FABRICLAB_SAMPLES_DIR);
}

QString FileActions::autosavePath() {
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return folder + QStringLiteral("/autosave.fabric.json");
}

bool FileActions::open(const QString& path) {
    if (!maybeSave())
        return false;
    try {
        m_document.load(path);
    } catch (const model::JsonError& e) {
        // The document refused the file before touching the current design.
        QMessageBox box(QMessageBox::Critical, tr("Cannot open design"),
                        tr("FabricLab could not open %1.").arg(QFileInfo(path).fileName()),
                        QMessageBox::Ok, &m_window);
        box.setInformativeText(
            tr("At %1: %2")
                .arg(QString::fromStdString(e.path()), QString::fromStdString(e.problem())));
        box.setDetailedText(QString::fromStdString(e.what()));
        box.exec();
        return false;
    } catch (const std::exception& e) {
        QMessageBox::critical(&m_window, tr("Cannot open design"),
                              QString::fromStdString(e.what()));
        return false;
    }
    rememberRecent(path);
    return true;
}

void FileActions::openDialog() {
    const QString start =
        m_document.filePath().isEmpty() ? samplesFolder() : QFileInfo(m_document.filePath()).path();
    const QString path = QFileDialog::getOpenFileName(&m_window, tr("Open design"), start, kFilter);
    if (!path.isEmpty())
        open(path);
}

void FileActions::newDesign() {
    if (maybeSave())
        m_document.newDesign();
}

bool FileActions::save() {
    if (m_document.filePath().isEmpty())
        return saveAs();
    try {
        m_document.save(m_document.filePath());
    } catch (const std::exception& e) {
        QMessageBox::critical(&m_window, tr("Cannot save design"),
                              QString::fromStdString(e.what()));
        return false;
    }
    rememberRecent(m_document.filePath());
    return true;
}

bool FileActions::saveAs() {
    QString path = QFileDialog::getSaveFileName(&m_window, tr("Save design as"),
                                                m_document.displayName(), kFilter);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QStringLiteral(".json")))
        path += QStringLiteral(".fabric.json");
    try {
        m_document.save(path);
    } catch (const std::exception& e) {
        QMessageBox::critical(&m_window, tr("Cannot save design"),
                              QString::fromStdString(e.what()));
        return false;
    }
    rememberRecent(path);
    return true;
}

bool FileActions::maybeSave() {
    if (!m_document.isModified())
        return true;
    const auto answer = QMessageBox::warning(
        &m_window, tr("Unsaved changes"),
        tr("Save the changes to %1?").arg(m_document.displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void FileActions::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(QString::fromLatin1(kRecentKey)).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QString::fromLatin1(kRecentKey), recent);
    rebuildRecentMenu();
}

void FileActions::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QString::fromLatin1(kRecentKey)).toStringList();
    for (const QString& path : recent) {
        QAction* action = m_recentMenu->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        connect(action, &QAction::triggered, this, [this, path] { open(path); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

QList<std::pair<QString, QString>> FileActions::samples() {
    QList<std::pair<QString, QString>> found;
    const QDir folder(samplesFolder());
    for (const QString& file :
         folder.entryList({QStringLiteral("*.fabric.json")}, QDir::Files, QDir::Name)) {
        const QString path = folder.filePath(file);
        // The sample's "name" says what it is for; fall back to the file name.
        QString purpose = file;
        std::ifstream in(path.toStdString());
        const auto json = nlohmann::json::parse(in, nullptr, false);
        if (json.is_object() && json.contains("name") && json["name"].is_string())
            purpose = QString::fromStdString(json["name"].get<std::string>());
        found.append({path, purpose});
    }
    return found;
}

void FileActions::buildSamplesMenu(QMenu* menu) {
    for (const auto& [path, purpose] : samples()) {
        QAction* action = menu->addAction(purpose);
        action->setToolTip(QFileInfo(path).fileName());
        connect(action, &QAction::triggered, this, [this, path = path] { open(path); });
    }
    menu->setEnabled(!menu->isEmpty());
}

void FileActions::autosave() {
    if (!m_document.isModified())
        return;
    const QString path = autosavePath();
    QDir().mkpath(QFileInfo(path).path());
    try {
        model::saveDesign(m_document.design(), path.toStdString());
        QSettings().setValue(QString::fromLatin1(kAutosaveOrigin), m_document.filePath());
    } catch (const std::exception&) {
        // Autosave is a safety net; a full disk must not interrupt the user.
    }
}

bool FileActions::offerRecovery() {
    const QString path = autosavePath();
    if (!m_ownsAutosave || !QFileInfo::exists(path))
        return false;
    const QString origin = QSettings().value(QString::fromLatin1(kAutosaveOrigin)).toString();
    const auto answer = QMessageBox::question(
        &m_window, tr("Recover unsaved work"),
        tr("FabricLab did not close normally. Recover the unsaved changes to %1?")
            .arg(origin.isEmpty() ? tr("an untitled design") : QFileInfo(origin).fileName()),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    bool recovered = false;
    if (answer == QMessageBox::Yes) {
        try {
            m_document.recover(path, origin);
            recovered = true;
        } catch (const std::exception& e) {
            // Keep the only copy: set it aside where the user can find it.
            const QString kept = path + QStringLiteral(".unrecovered");
            QFile::remove(kept);
            QFile::rename(path, kept);
            QMessageBox::warning(&m_window, tr("Cannot recover"),
                                 tr("%1\n\nThe autosave is kept at %2.")
                                     .arg(QString::fromStdString(e.what()), kept));
            return false;
        }
    }
    QFile::remove(path);
    return recovered;
}

void FileActions::onClose(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    // A normal close leaves nothing to recover.
    if (m_ownsAutosave)
        QFile::remove(autosavePath());
}

} // namespace fabriclab::app
