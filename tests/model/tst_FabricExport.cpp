// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Files other tools read: Slurm's topology.conf lists every server exactly once under one
// bottom switch and defines every switch it names; hostlists compress as Slurm writes them
// (cases worked out by hand); the Graphviz file has one port-annotated edge per cable.
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/FabricExport.hpp"

#include <QDir>
#include <QRegularExpression>
#include <QtTest>

#include <map>

using namespace fabriclab::model;

namespace {

/// Slurm's hostlist expanded: "srv-[1-3,7],x" -> srv-1 srv-2 srv-3 srv-7 x (one bracket per
/// item, as FabricLab writes them).
QStringList expand(const QString& list) {
    QStringList names;
    static const QRegularExpression item(QStringLiteral(R"(([^,\[]*)(?:\[([^\]]*)\])?(?:,|$))"));
    auto match = item.globalMatch(list);
    while (match.hasNext()) {
        const auto m = match.next();
        if (m.capturedLength(0) == 0)
            break;
        if (m.captured(2).isEmpty()) {
            names << m.captured(1);
            continue;
        }
        for (const QString& range : m.captured(2).split(QLatin1Char(','))) {
            const QStringList ends = range.split(QLatin1Char('-'));
            const int width = ends.front().startsWith(QLatin1Char('0')) ? ends.front().size() : 0;
            for (int n = ends.front().toInt(); n <= ends.back().toInt(); ++n)
                names << m.captured(1) + QString::number(n).rightJustified(width, QLatin1Char('0'));
        }
    }
    return names;
}

QStringList sampleFiles() {
    return QDir(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples"))
        .entryList({QStringLiteral("*.fabric.json")}, QDir::Files);
}

Design sample(const QString& name) {
    return loadDesign((QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/") + name).toStdString(),
                      Catalog::builtin());
}

} // namespace

class tst_FabricExport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void hostlists_data();
    void hostlists();
    void slurmListsEveryServerOnce_data();
    void slurmListsEveryServerOnce();
    void slurmJoinsADragonflysGroups();
    void dotHasAnEdgePerCable_data();
    void dotHasAnEdgePerCable();
    void ibnetdiscoverListsEveryCableFromBothEnds_data();
    void ibnetdiscoverListsEveryCableFromBothEnds();
};

void tst_FabricExport::hostlists_data() {
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QString>("list");
    QTest::newRow("one") << QStringList{"srv-1"} << "srv-1";
    QTest::newRow("a run") << QStringList{"srv-3", "srv-1", "srv-2"} << "srv-[1-3]";
    QTest::newRow("a gap") << QStringList{"srv-1", "srv-2", "srv-3", "srv-7"} << "srv-[1-3,7]";
    QTest::newRow("padded") << QStringList{"srv001", "srv002", "srv004"} << "srv[001-002,004]";
    QTest::newRow("two prefixes") << QStringList{"a1", "b1", "b2"} << "a1,b[1-2]";
    QTest::newRow("no number") << QStringList{"login", "srv-1"} << "login,srv-1";
    QTest::newRow("duplicates") << QStringList{"srv-1", "srv-1"} << "srv-1";
}

void tst_FabricExport::hostlists() {
    QFETCH(QStringList, names);
    QFETCH(QString, list);
    std::vector<std::string> input;
    for (const QString& name : names)
        input.push_back(name.toStdString());
    QCOMPARE(QString::fromStdString(hostlist(input)), list);
    QStringList unique = names;
    unique.removeDuplicates();
    QStringList back = expand(list);
    unique.sort();
    back.sort();
    QCOMPARE(back, unique);
}

void tst_FabricExport::slurmListsEveryServerOnce_data() {
    QTest::addColumn<QString>("name");
    for (const QString& file : sampleFiles())
        QTest::newRow(qPrintable(file)) << file;
}

void tst_FabricExport::slurmListsEveryServerOnce() {
    QFETCH(QString, name);
    const Design design = sample(name);
    const QString conf = QString::fromStdString(slurmTopology(design.topology));
    std::map<QString, int> listed;
    QStringList defined;
    QStringList referenced;
    for (const QString& line : conf.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1Char('#')))
            continue;
        static const QRegularExpression form(
            QStringLiteral(R"(^SwitchName=(\S+) (Nodes|Switches)=(\S+)$)"));
        const auto m = form.match(line);
        QVERIFY2(m.hasMatch(), qPrintable(line));
        defined << m.captured(1);
        for (const QString& item : expand(m.captured(3)))
            (m.captured(2) == QLatin1String("Nodes") ? (void)++listed[item]
                                                     : (void)(referenced << item));
    }
    int servers = 0;
    for (const auto& [id, node] : design.topology.nodes())
        if (node.kind == NodeKind::Server) {
            ++servers;
            QVERIFY2(listed[QString::fromStdString(node.name)] == 1, node.name.c_str());
        }
    QCOMPARE(static_cast<int>(listed.size()), servers);
    QCOMPARE(defined.size(),
             static_cast<qsizetype>(QSet<QString>(defined.begin(), defined.end()).size()));
    for (const QString& name : referenced)
        QVERIFY2(defined.contains(name), qPrintable(name + " is named but not defined"));
}

void tst_FabricExport::slurmJoinsADragonflysGroups() {
    // Four groups whose spines meet only by global links: without a common parent Slurm's
    // tree would keep every job inside one group, so a "global" switch lists all 128 spines.
    const Design design = sample(QStringLiteral("dragonfly-plus-4096gpu-ib-ndr.fabric.json"));
    const QString conf = QString::fromStdString(slurmTopology(design.topology));
    static const QRegularExpression global(QStringLiteral(R"(^SwitchName=global Switches=(\S+)$)"),
                                           QRegularExpression::MultilineOption);
    const auto m = global.match(conf);
    QVERIFY2(m.hasMatch(), qPrintable(conf.right(400)));
    QCOMPARE(expand(m.captured(1)).size(), 128);
    // A fat-tree is one tree already.
    QVERIFY(!QString::fromStdString(
                 slurmTopology(sample(QStringLiteral("fat-tree-16k-ib-ndr.fabric.json")).topology))
                 .contains(QStringLiteral("SwitchName=global")));
}

void tst_FabricExport::dotHasAnEdgePerCable_data() {
    slurmListsEveryServerOnce_data();
}

void tst_FabricExport::dotHasAnEdgePerCable() {
    QFETCH(QString, name);
    const Design design = sample(name);
    const CablingPlan plan =
        cablingPlan(design.topology, design.fabric.spec, Catalog::builtin().prices());
    const QString dot = QString::fromStdString(graphvizDot(design.name, design.topology, plan));
    QVERIFY(dot.startsWith(QStringLiteral("graph ")));
    QVERIFY(dot.trimmed().endsWith(QLatin1Char('}')));
    QCOMPARE(dot.count(QLatin1Char('{')), dot.count(QLatin1Char('}')));
    // Edges as NVIDIA Air reads them: "device":"port" -- "device":"port";
    qsizetype edges = 0;
    for (const QString& line : dot.split(QLatin1Char('\n'))) {
        if (!line.contains(QStringLiteral(" -- ")))
            continue;
        ++edges;
        const QStringList ends = line.trimmed().chopped(1).split(QStringLiteral(" -- "));
        QCOMPARE(ends.size(), 2);
        for (const QString& end : ends)
            QVERIFY2(end.count(QLatin1Char('"')) == 4 && end.contains(QStringLiteral("\":\"")),
                     qPrintable(line));
    }
    QCOMPARE(edges, static_cast<qsizetype>(plan.cables.size()));
    QCOMPARE(dot.count(QStringLiteral(" [shape=")),
             static_cast<qsizetype>(design.topology.nodes().size()));
}

void tst_FabricExport::ibnetdiscoverListsEveryCableFromBothEnds_data() {
    QTest::addColumn<QString>("name");
    for (const QString& file : sampleFiles())
        if (sample(file).fabric.spec.transport == "infiniband")
            QTest::newRow(qPrintable(file)) << file;
}

void tst_FabricExport::ibnetdiscoverListsEveryCableFromBothEnds() {
    // As ibnetdiscover prints a subnet: a Switch record per switch and a Ca record per
    // adapter (one per server NIC), each cable on a line at both of its ends, no port of a
    // switch listed twice, and every peer named by a GUID some record defines.
    QFETCH(QString, name);
    const Design design = sample(name);
    const CablingPlan plan =
        cablingPlan(design.topology, design.fabric.spec, Catalog::builtin().prices());
    const QString text =
        QString::fromStdString(ibnetdiscoverTopology(design.topology, design.fabric.spec, plan));
    static const QRegularExpression record(
        QStringLiteral(R"re(^(Switch|Ca)\t\d+ "([SH]-[0-9a-f]{16})")re"));
    static const QRegularExpression link(
        QStringLiteral(R"re(^\[(\d+)\](?:\([0-9a-f]+\))?\s+"([SH]-[0-9a-f]{16})"\[(\d+)\])re"));
    QSet<QString> defined;
    QSet<QString> peers;
    QSet<QString> portsSeen;
    QString current;
    int switches = 0;
    int adapters = 0;
    qsizetype links = 0;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (const auto m = record.match(line); m.hasMatch()) {
            current = m.captured(2);
            defined << current;
            (m.captured(1) == QLatin1String("Switch") ? switches : adapters) += 1;
        } else if (const auto l = link.match(line); l.hasMatch()) {
            ++links;
            const QString port = current + QLatin1Char('/') + l.captured(1);
            QVERIFY2(!portsSeen.contains(port), qPrintable(line));
            portsSeen << port;
            peers << l.captured(2);
        }
    }
    QCOMPARE(switches, design.topology.switchCounts().total());
    QCOMPARE(adapters, static_cast<int>(design.topology.cableCounts().server));
    QCOMPARE(links, 2 * static_cast<qsizetype>(plan.cables.size()));
    for (const QString& peer : peers)
        QVERIFY2(defined.contains(peer), qPrintable(peer));
}

QTEST_APPLESS_MAIN(tst_FabricExport)
#include "tst_FabricExport.moc"
