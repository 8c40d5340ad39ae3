// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The document is the one writer of a design: every edit is an undo step, undo restores
// the design exactly (compared as saved JSON), and a failed load changes nothing.
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/JsonCursor.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

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

QTEST_GUILESS_MAIN(tst_TopologyDocument)
#include "tst_TopologyDocument.moc"
