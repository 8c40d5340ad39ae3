// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// No lost work when the app dies: a FabricLab process with an unsaved edit, autosaved, is
// killed with SIGKILL in the middle of its next edit; the next start offers the edit back,
// and taking the offer restores it as unsaved work. The first process is a fork of this
// one, made before any thread starts, so it is a real process killed as `kill -9` would.
#include "app/gui/FileActions.hpp"
#include "app/gui/MainWindow.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <csignal>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

using fabriclab::model::Catalog;
using fabriclab::model::NodeKind;
using fabriclab::views::TopologyDocument;

namespace {

QString sample(const char* name) {
    return QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/%1.fabric.json").arg(QLatin1String(name));
}

} // namespace

class tst_CrashRecovery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void killedMidEditOffersTheEditBack();

private:
    QTemporaryDir m_home; ///< the app's data and settings, apart from the user's
};

void tst_CrashRecovery::initTestCase() {
    QVERIFY(m_home.isValid());
    // Autosave and its settings go where the platform keeps app data and settings: here.
    qputenv("XDG_DATA_HOME", m_home.filePath(QStringLiteral("data")).toUtf8());
    qputenv("XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("config")).toUtf8());
}

void tst_CrashRecovery::killedMidEditOffersTheEditBack() {
    int ready[2];
    QVERIFY(::pipe(ready) == 0);
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        // The first session: open a sample, add a spine (unsaved), autosave as the timer
        // would, start another edit, and wait to be killed.
        ::close(ready[0]);
        TopologyDocument document(Catalog::builtin());
        fabriclab::app::MainWindow window(document);
        fabriclab::app::FileActions files(document, window);
        files.open(sample("teaching-4-servers"));
        document.addNode(NodeKind::Spine, QPointF(400, -200));
        files.autosave();
        document.addNode(NodeKind::Core, QPointF(400, -400)); // the edit the kill interrupts
        const char byte = 1;
        if (::write(ready[1], &byte, 1) != 1)
            ::_exit(3);
        for (;;)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    ::close(ready[1]);
    char byte = 0;
    QCOMPARE(::read(ready[0], &byte, 1), ssize_t{1});
    ::close(ready[0]);
    QCOMPARE(::kill(child, SIGKILL), 0);
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    QVERIFY2(QFileInfo::exists(fabriclab::app::FileActions::autosavePath()),
             qPrintable(fabriclab::app::FileActions::autosavePath()));

    // The next start: the recovery question names the design, and Yes brings the edit back.
    TopologyDocument document(Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    fabriclab::app::FileActions files(document, window);
    QString asked;
    QTimer answer;
    answer.setInterval(20);
    connect(&answer, &QTimer::timeout, this, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        asked = box->text();
        box->button(QMessageBox::Yes)->click();
    });
    answer.start();
    QVERIFY(files.offerRecovery());
    answer.stop();
    QVERIFY2(asked.contains(QStringLiteral("Recover")) &&
                 asked.contains(QStringLiteral("teaching-4-servers")),
             qPrintable(asked));
    const auto spines = document.design().topology.switchCounts().spine;
    const auto original =
        fabriclab::model::loadDesign(sample("teaching-4-servers").toStdString(), Catalog::builtin())
            .topology.switchCounts()
            .spine;
    QCOMPARE(spines, original + 1); // the autosaved edit is back
    QVERIFY(document.isModified()); // as unsaved work, not as if saved
    QCOMPARE(document.filePath(), sample("teaching-4-servers"));
    // Taken up: the autosave is gone, so the next start does not ask again.
    QVERIFY(!QFileInfo::exists(fabriclab::app::FileActions::autosavePath()));
}

QTEST_MAIN(tst_CrashRecovery)
#include "tst_CrashRecovery.moc"
