// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The document is the one writer of a design: every edit is an undo step, undo restores
// the design exactly (compared as saved JSON), and a failed load changes nothing.
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "model/core/JsonCursor.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

#include <atomic>
#include <stdexcept>

using fabriclab::model::Catalog;
using fabriclab::model::LinkId;
using fabriclab::model::NodeId;
using fabriclab::model::NodeKind;
using fabriclab::views::DesignReset;
using fabriclab::views::TopologyDocument;

namespace {

std::string snapshot(const TopologyDocument& document) {
    return fabriclab::model::serializeDesign(document.design());
}

/// A 16-server rail-optimized leaf/spine, as File > Generate would make it.
fabriclab::model::Design generated(const TopologyDocument& document) {
    fabriclab::model::Design design = document.design();
    fabriclab::model::GeneratorParams params;
    params.servers = 16;
    design.generator = params;
    design.topology = fabriclab::model::generate(params);
    return design;
}

/// A build that waits for the test to let it go (at most ten seconds, so that a failing
/// test cannot hang in the document's destructor), notes the thread it ran on and renames
/// the design it was given. Declared before the document, which it must outlive.
struct HeldBuild {
    QSemaphore go;
    std::atomic<int> runs{0};
    std::atomic<QThread*> thread{nullptr};

    TopologyDocument::DesignBuild rename(std::string suffix) {
        return [this, suffix](const fabriclab::model::Design& current) {
            go.tryAcquire(1, 10000);
            ++runs;
            thread = QThread::currentThread();
            fabriclab::model::Design next = current;
            next.name += suffix;
            return next;
        };
    }
};

/// Until the document has applied or refused every build asked of it.
bool settled(const TopologyDocument& document) {
    return QTest::qWaitFor([&] { return document.pendingBuilds() == 0; }, 10000);
}

} // namespace

class tst_TopologyDocument : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyEditUndoesToTheOriginal_data();
    void everyEditUndoesToTheOriginal();
    void redoReplaysExactly();
    void connectRefusesExhaustedPorts();
    void connectTwiceAddsAParallelCable();
    void signalsFollowEdits();
    void editsOutsideTheFileRangesAreRefused_data();
    void editsOutsideTheFileRangesAreRefused();
    void failedLoadKeepsTheDesign();
    void saveMarksCleanAndLoadRoundTrips();
    void failedSaveKeepsTheDesignAndSaysWhy_data();
    void failedSaveKeepsTheDesignAndSaysWhy();
    void recoveryReadsAsLoadDoes();
    void builtDesignsApplyOffTheGuiThread();
    void anEditMadeDuringABuildStands();
    void buildsApplyInOrder();
    void refusedBuildsChangeNothing();
    void openingAnotherDesignDropsPendingBuilds();
};

void tst_TopologyDocument::everyEditUndoesToTheOriginal_data() {
    QTest::addColumn<int>("edits");
    QTest::newRow("1 edit") << 1;
    QTest::newRow("5 edits") << 5;
    QTest::newRow("all 9 edits") << 9;
}

void tst_TopologyDocument::everyEditUndoesToTheOriginal() {
    QFETCH(int, edits);
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QString());
    const std::string original = snapshot(document);

    // A mix of every kind of edit, applied in order; the first `edits` of them run.
    const NodeId firstLeaf = *document.topology().findNode("leaf-1");
    const NodeId firstServer = *document.topology().findNode("srv-1");
    const std::function<void()> steps[] = {
        [&] { document.addNode(NodeKind::Spine, QPointF(100, -200)); },
        [&] {
            document.moveNodes({{firstLeaf, QPointF(5, 5)}});
        },
        [&] {
            auto node = document.topology().node(firstServer);
            node.server.gpus = 4;
            document.editNode(firstServer, node);
        },
        [&] {
            const LinkId link = document.topology().links().begin()->first;
            auto edited = document.topology().link(link);
            edited.lengthMeters = 30;
            document.editLink(link, edited);
        },
        [&] { document.duplicate({firstServer}, QPointF(40, 0)); },
        [&] { document.remove({firstLeaf}, {}); },
        [&] {
            const NodeId leaf = document.addNode(NodeKind::Leaf, QPointF(0, 300));
            document.connect(firstServer, leaf);
        },
        [&] {
            auto design = document.design();
            design.name = "renamed";
            document.replaceDesign(design, QStringLiteral("Rename"));
        },
        [&] { document.remove({}, {document.topology().links().begin()->first}); },
    };
    for (int i = 0; i < edits; ++i)
        steps[i]();
    QVERIFY(document.isModified());
    QVERIFY(snapshot(document) != original);
    QCOMPARE(document.undoStack()->count(), edits + (edits >= 7 ? 1 : 0)); // step 7 is two edits
    while (document.undoStack()->canUndo())
        document.undoStack()->undo();
    QCOMPARE(snapshot(document), original);
    QVERIFY(!document.isModified());
}

void tst_TopologyDocument::redoReplaysExactly() {
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QString());
    const NodeId spine = document.addNode(NodeKind::Spine, QPointF(0, 0));
    document.connect(*document.topology().findNode("leaf-1"), spine);
    document.remove({*document.topology().findNode("srv-2")}, {});
    const std::string edited = snapshot(document);
    while (document.undoStack()->canUndo())
        document.undoStack()->undo();
    while (document.undoStack()->canRedo())
        document.undoStack()->redo();
    // Ids are reused on redo, so the saved design is the same to the byte.
    QCOMPARE(snapshot(document), edited);
}

void tst_TopologyDocument::connectRefusesExhaustedPorts() {
    TopologyDocument document(Catalog::builtin());
    const NodeId server = document.addNode(NodeKind::Server, QPointF(0, 0));
    auto node = document.topology().node(server);
    node.server.nics = 1;
    document.editNode(server, node);
    const NodeId a = document.addNode(NodeKind::Leaf, QPointF(0, 100));
    const NodeId b = document.addNode(NodeKind::Leaf, QPointF(100, 100));
    QVERIFY(document.connect(server, a).has_value());
    const int steps = document.undoStack()->count();
    QString refusal;
    QVERIFY(!document.connect(server, b, &refusal).has_value());
    QVERIFY2(refusal.contains(QStringLiteral("srv-1")) && refusal.contains(QStringLiteral("NIC")),
             qPrintable(refusal));
    QCOMPARE(document.undoStack()->count(), steps); // a refusal records nothing
    QVERIFY(!document.connect(a, a, &refusal).has_value());
    QVERIFY(!refusal.isEmpty());
}

void tst_TopologyDocument::connectTwiceAddsAParallelCable() {
    TopologyDocument document(Catalog::builtin());
    const NodeId leaf = document.addNode(NodeKind::Leaf, QPointF(0, 100));
    const NodeId spine = document.addNode(NodeKind::Spine, QPointF(0, 0));
    const auto first = document.connect(leaf, spine);
    const auto second = document.connect(spine, leaf);
    QVERIFY(first && second);
    QCOMPARE(first->value, second->value);
    QCOMPARE(document.topology().link(*first).count, 2);
    QCOMPARE(document.topology().portsUsed(leaf), 2);
}

void tst_TopologyDocument::signalsFollowEdits() {
    TopologyDocument document(Catalog::builtin());
    QSignalSpy added(&document, &TopologyDocument::nodeAdded);
    QSignalSpy removed(&document, &TopologyDocument::nodeRemoved);
    QSignalSpy linksRemoved(&document, &TopologyDocument::linkRemoved);
    QSignalSpy reset(&document, &TopologyDocument::designReset);
    const NodeId leaf = document.addNode(NodeKind::Leaf, QPointF(0, 0));
    const NodeId server = document.addNode(NodeKind::Server, QPointF(0, 100));
    document.connect(server, leaf);
    QCOMPARE(added.count(), 2);
    document.remove({leaf}, {});
    QCOMPARE(removed.count(), 1);
    QCOMPARE(linksRemoved.count(), 1); // the link goes with its endpoint, and is announced
    QCOMPARE(removed.first().first().value<NodeId>().value, leaf.value);
    document.replaceDesign(generated(document), QStringLiteral("Generate"));
    QCOMPARE(reset.count(), 1);
    QCOMPARE(reset.first().first().value<DesignReset>(), DesignReset::Replaced);
    document.newDesign();
    QCOMPARE(reset.last().first().value<DesignReset>(), DesignReset::Opened);
}

void tst_TopologyDocument::editsOutsideTheFileRangesAreRefused_data() {
    // What the app accepts must reopen: each value is outside what a design file takes.
    QTest::addColumn<QString>("field");
    QTest::addColumn<double>("value");
    QTest::newRow("NIC speed 0.5 Gb/s") << QStringLiteral("nicGbps") << 0.5;
    QTest::newRow("2000 GPUs in a server") << QStringLiteral("gpus") << 2000.0;
    QTest::newRow("link of 6400 Gb/s") << QStringLiteral("gbps") << 6400.0;
    QTest::newRow("link 200 km long") << QStringLiteral("lengthM") << 200000.0;
}

void tst_TopologyDocument::editsOutsideTheFileRangesAreRefused() {
    QFETCH(QString, field);
    QFETCH(double, value);
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QString());
    const std::string before = snapshot(document);
    const int steps = document.undoStack()->count();
    const NodeId server = *document.topology().findNode("srv-1");
    const LinkId link = document.topology().linksOf(server).front();
    try {
        if (field == QStringLiteral("nicGbps") || field == QStringLiteral("gpus")) {
            auto node = document.topology().node(server);
            if (field == QStringLiteral("gpus"))
                node.server.gpus = static_cast<int>(value);
            else
                node.server.nicSpeed = fabriclab::model::Gbps(value);
            document.editNode(server, node);
        } else {
            auto edited = document.topology().link(link);
            if (field == QStringLiteral("gbps"))
                edited.speed = fabriclab::model::Gbps(value);
            else
                edited.lengthMeters = value;
            document.editLink(link, edited);
        }
        QFAIL("the edit must be refused");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(!QString::fromUtf8(e.what()).isEmpty(), "the refusal says why");
    }
    QCOMPARE(snapshot(document), before);
    QCOMPARE(document.undoStack()->count(), steps);
}

void tst_TopologyDocument::failedLoadKeepsTheDesign() {
    QTemporaryDir dir;
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QStringLiteral("/somewhere/kept.fabric.json"));
    document.addNode(NodeKind::Core, QPointF(0, -300));
    const std::string before = snapshot(document);
    const int steps = document.undoStack()->count();

    const QString broken = dir.filePath(QStringLiteral("broken.fabric.json"));
    QFile file(broken);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        R"({"format":"fabriclab-design","version":1,"fabric":"ib-ndr","nodes":[{"id":"a","kind":"leaf"}],
                  "links":[{"a":"a","b":"ghost"}]})");
    file.close();
    try {
        document.load(broken);
        QFAIL("a dangling link must be refused");
    } catch (const fabriclab::model::JsonError& e) {
        QCOMPARE(QString::fromStdString(e.path()), QStringLiteral("/links/0/b"));
    }
    QCOMPARE(snapshot(document), before);
    QCOMPARE(document.undoStack()->count(), steps);
    QCOMPARE(document.filePath(), QStringLiteral("/somewhere/kept.fabric.json"));
    QVERIFY(document.isModified());
}

void tst_TopologyDocument::saveMarksCleanAndLoadRoundTrips() {
    QTemporaryDir dir;
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QString());
    document.addNode(NodeKind::Spine, QPointF(10, 10));
    const QString path = dir.filePath(QStringLiteral("saved.fabric.json"));
    document.save(path);
    QVERIFY(!document.isModified());
    QCOMPARE(document.filePath(), path);
    const std::string saved = snapshot(document);
    TopologyDocument reopened(Catalog::builtin());
    reopened.load(path);
    QCOMPARE(snapshot(reopened), saved);
    QCOMPARE(reopened.undoStack()->count(), 0);
}

void tst_TopologyDocument::failedSaveKeepsTheDesignAndSaysWhy_data() {
    // Targets no save can reach, even as root (CI runs as root, which a read-only folder
    // does not stop): the path is relative to a fresh temporary folder, where "file" is
    // a regular file and "folder" a folder.
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("reason");
    QTest::newRow("folder missing") << "missing/design.fabric.json"
                                    << "cannot write";
    QTest::newRow("under a file") << "file/design.fabric.json"
                                  << "cannot write";
    QTest::newRow("over a folder") << "folder"
                                   << "cannot replace";
}

void tst_TopologyDocument::failedSaveKeepsTheDesignAndSaysWhy() {
    QFETCH(QString, target);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("file")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder")));
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QStringLiteral("/somewhere/kept.fabric.json"));
    document.addNode(NodeKind::Core, QPointF(0, -300));
    const std::string before = snapshot(document);
    const int steps = document.undoStack()->count();

    const QString path = dir.filePath(target);
    try {
        document.save(path);
        QFAIL("the save must fail");
    } catch (const std::runtime_error& e) {
        // The message names the file and why, as the app's dialog shows it.
        const QString message = QString::fromStdString(e.what());
        QVERIFY2(message.contains(path) && message.contains(reason), qPrintable(message));
    }
    // Nothing of the user's work is lost: the design, its history, its file and its
    // unsaved mark are as they were, and no half-written file was left behind.
    QCOMPARE(snapshot(document), before);
    QCOMPARE(document.undoStack()->count(), steps);
    QCOMPARE(document.filePath(), QStringLiteral("/somewhere/kept.fabric.json"));
    QVERIFY(document.isModified());
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
             QStringList({QStringLiteral("file"), QStringLiteral("folder")}));
}

void tst_TopologyDocument::recoveryReadsAsLoadDoes() {
    // An autosave of a design whose workload split no longer matches its GPU count (the
    // user regenerated with fewer servers) must recover, as it would open with load().
    QTemporaryDir dir;
    TopologyDocument document(Catalog::builtin());
    document.load(
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json"));
    fabriclab::model::Design edited = document.design();
    QVERIFY(edited.workload);
    edited.workload->dp += 1;
    document.adopt(edited, QString());
    const QString autosave = dir.filePath(QStringLiteral("autosave.fabric.json"));
    document.save(autosave);

    TopologyDocument recovered(Catalog::builtin());
    const QString origin = dir.filePath(QStringLiteral("mine.fabric.json"));
    recovered.recover(autosave, origin);
    QCOMPARE(snapshot(recovered), snapshot(document));
    QVERIFY(recovered.isModified());
    QCOMPARE(recovered.filePath(), origin);
}

void tst_TopologyDocument::builtDesignsApplyOffTheGuiThread() {
    // The GUI thread keeps its event loop while the build runs, then swaps the design in
    // as one undo step, with the workers' copy already made: neither the apply nor an undo
    // and redo of it copies the design on the GUI thread.
    HeldBuild held;
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QString());
    const std::string original = snapshot(document);
    const std::string name = document.design().name;
    QSignalSpy resets(&document, &TopologyDocument::designReset);
    document.replaceDesignLater(held.rename("!"), QStringLiteral("Rename"));
    QCOMPARE(document.pendingBuilds(), 1);
    bool ticked = false;
    QTimer::singleShot(0, &document, [&] { ticked = true; });
    QTRY_VERIFY(ticked); // the event loop runs while the build waits
    QCOMPARE(document.design().name, name);
    QCOMPARE(document.undoStack()->count(), 0);

    const int copies = document.snapshotsMade();
    held.go.release();
    QVERIFY(settled(document));
    QVERIFY(held.thread.load() != nullptr);
    QVERIFY(held.thread.load() != QThread::currentThread());
    QCOMPARE(document.design().name, name + "!");
    QCOMPARE(resets.size(), 1);
    QCOMPARE(document.undoStack()->count(), 1);
    QCOMPARE(document.undoStack()->text(0), QStringLiteral("Rename"));
    const auto built = document.snapshot();
    QCOMPARE(built->name, name + "!");
    QCOMPARE(fabriclab::model::serializeDesign(*built), snapshot(document));
    QCOMPARE(document.snapshotsMade(), copies);

    // A copy somebody still holds (a result shown) comes back with its design.
    document.undoStack()->undo();
    QCOMPARE(snapshot(document), original);
    document.undoStack()->redo();
    QCOMPARE(document.snapshot().get(), built.get());
    QCOMPARE(document.snapshotsMade(), copies);
}

void tst_TopologyDocument::anEditMadeDuringABuildStands() {
    // The build was asked of the design before the move; it runs again on the moved one,
    // so both the move and the rename survive, as two undo steps.
    HeldBuild held;
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QString());
    const NodeId leaf = *document.topology().findNode("leaf-1");
    document.replaceDesignLater(held.rename("!"), QStringLiteral("Rename"));
    document.moveNodes({{leaf, QPointF(7, 9)}});
    held.go.release(2);
    QVERIFY(settled(document));
    QCOMPARE(held.runs.load(), 2);
    QCOMPARE(document.topology().node(leaf).x, 7.0);
    QVERIFY(document.design().name.ends_with('!'));
    QCOMPARE(document.undoStack()->count(), 2);
}

void tst_TopologyDocument::buildsApplyInOrder() {
    HeldBuild first;
    HeldBuild second;
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QString());
    const std::string name = document.design().name;
    document.replaceDesignLater(first.rename("a"), QStringLiteral("a"));
    document.replaceDesignLater(second.rename("b"), QStringLiteral("b"));
    QCOMPARE(document.pendingBuilds(), 2);
    second.go.release();
    first.go.release();
    QVERIFY(settled(document));
    QCOMPARE(document.design().name, name + "ab");
    QCOMPARE(document.undoStack()->count(), 2);
    document.undoStack()->undo();
    QCOMPARE(document.design().name, name + "a");
}

void tst_TopologyDocument::refusedBuildsChangeNothing() {
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QString());
    const std::string original = snapshot(document);
    QSignalSpy refused(&document, &TopologyDocument::designBuildRefused);
    document.replaceDesignLater(
        [](const fabriclab::model::Design&) -> fabriclab::model::Design {
            throw std::invalid_argument("leaf radix 64 is too small");
        },
        QStringLiteral("Oversubscription 9:1"));
    QVERIFY(settled(document));
    QCOMPARE(refused.size(), 1);
    QCOMPARE(refused.front().at(0).toString(), QStringLiteral("Oversubscription 9:1"));
    QCOMPARE(refused.front().at(1).toString(), QStringLiteral("leaf radix 64 is too small"));
    QCOMPARE(snapshot(document), original);
    QCOMPARE(document.undoStack()->count(), 0);
}

void tst_TopologyDocument::openingAnotherDesignDropsPendingBuilds() {
    HeldBuild held;
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document), QString());
    document.replaceDesignLater(held.rename("!"), QStringLiteral("Rename"));
    document.replaceDesignLater(held.rename("?"), QStringLiteral("Rename again"));
    document.newDesign();
    const std::string opened = snapshot(document);
    QCOMPARE(document.pendingBuilds(), 0);
    held.go.release(2);
    // Nothing pending is left to watch: wait for the running build's end to be handled.
    QTRY_COMPARE(held.runs.load(), 1);
    QTest::qWait(50);
    QCOMPARE(snapshot(document), opened);
    QCOMPARE(document.undoStack()->count(), 0);
}

QTEST_GUILESS_MAIN(tst_TopologyDocument)
#include "tst_TopologyDocument.moc"
