// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Real fabrics come in: ibnetdiscover output and Slurm's topology.conf become designs.
// Export then import gives the same topology back on every sample (ibnetdiscover: every
// device, cable, port count and speed; Slurm, which names no cables: the same file again).
// Real outputs from public clusters (tests/io/fixtures, sources in docs/fixtures.md) import
// with the structure their own documentation describes, and bad files are refused with
// the file and the line.
#include "model/catalog/Catalog.hpp"
#include "model/cost/CostModel.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/FabricImport.hpp"
#include "model/io/TextFile.hpp"
#include "model/report/CablingPlan.hpp"
#include "model/report/FabricExport.hpp"

#include <QDir>
#include <QtTest>

#include <map>
#include <tuple>

using namespace fabriclab::model;

namespace {

Design loadSample(const QString& file) {
    return loadDesign((QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/") + file).toStdString(),
                      Catalog::builtin());
}

std::string fixture(const char* name) {
    return readTextFile(std::string(FABRICLAB_SOURCE_DIR "/tests/io/fixtures/") + name, 1 << 24,
                        "fixture");
}

/// A topology as the files describe it: devices by name with their kind, and cables by the
/// pair of devices and speed (bundles and single cables alike).
struct Shape {
    std::map<std::string, NodeKind> devices;
    std::map<std::tuple<std::string, std::string, double>, int> cables;
    std::map<std::string, int> serverNics;
    std::map<std::string, int> switchRadix;

    explicit Shape(const Topology& topology) {
        for (const auto& [id, node] : topology.nodes()) {
            devices[node.name] = node.kind;
            if (node.kind == NodeKind::Server)
                serverNics[node.name] = node.server.nics;
            else
                switchRadix[node.name] = node.sw.radix;
        }
        for (const auto& [id, link] : topology.links()) {
            std::string a = topology.node(link.a).name;
            std::string b = topology.node(link.b).name;
            if (b < a)
                std::swap(a, b);
            cables[{a, b, link.speed.value}] += link.count;
        }
    }
};

ImportOptions optionsFor(const Design& design) {
    ImportOptions options;
    options.name = design.name;
    options.fabricId = design.fabric.spec.id;
    if (design.workload)
        options.gpuId = design.workload->gpu.spec.id;
    for (const auto& [id, node] : design.topology.nodes())
        if (node.kind == NodeKind::Server) {
            options.gpusPerServer = node.server.gpus;
            options.nicsPerServer = node.server.nics;
            break;
        }
    return options;
}

std::string withoutComments(const std::string& text) {
    std::string kept;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        if (text[at] != '#')
            kept.append(text, at, end - at + 1);
        at = end + 1;
    }
    return kept;
}

void addEverySample() {
    QTest::addColumn<QString>("sample");
    const QDir samples(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples"));
    for (const QString& file : samples.entryList({QStringLiteral("*.fabric.json")}))
        QTest::newRow(file.toUtf8().constData()) << file;
}

} // namespace

class tst_FabricImport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ibnetdiscoverRoundTrip_data();
    void ibnetdiscoverRoundTrip();
    void slurmRoundTrip_data();
    void slurmRoundTrip();
    void realSubnetsImport();
    void refusedWithFileAndLine_data();
    void refusedWithFileAndLine();
    void hostlists_data();
    void hostlists();
};

void tst_FabricImport::ibnetdiscoverRoundTrip_data() {
    addEverySample();
}

void tst_FabricImport::ibnetdiscoverRoundTrip() {
    QFETCH(QString, sample);
    const Design design = loadSample(sample);
    const CablingPlan plan =
        cablingPlan(design.topology, design.fabric.spec, Catalog::builtin().prices());
    if (design.fabric.spec.transport != "infiniband") {
        // An Ethernet fabric has no subnet manager to ask: the export says so.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 ibnetdiscoverTopology(design.topology, design.fabric.spec, plan));
        return;
    }
    const std::string text = ibnetdiscoverTopology(design.topology, design.fabric.spec, plan);
    const Design imported =
        importIbnetdiscover(text, "exported.topo", optionsFor(design), Catalog::builtin());
    const Shape before(design.topology);
    const Shape after(imported.topology);
    QCOMPARE(after.devices.size(), before.devices.size());
    QVERIFY(after.devices == before.devices); // names and tiers
    QCOMPARE(after.cables.size(), before.cables.size());
    QVERIFY(after.cables == before.cables); // every cable, once, at its speed
    QVERIFY(after.serverNics == before.serverNics);
    QVERIFY(after.switchRadix == before.switchRadix);
    QCOMPARE(imported.fabric.spec.id, design.fabric.spec.id);
    QCOMPARE(imported.topology.gpuCount(), design.topology.gpuCount());
}

void tst_FabricImport::slurmRoundTrip_data() {
    addEverySample();
}

void tst_FabricImport::slurmRoundTrip() {
    // topology.conf names switches and which servers sit under which, not cables: what it
    // says to Slurm survives the trip, so exporting the import gives the same lines (the
    // comments naming a rail group's leaves are for people, and Slurm skips them).
    QFETCH(QString, sample);
    const Design design = loadSample(sample);
    const std::string text = slurmTopology(design.topology);
    const Design imported =
        importSlurmTopology(text, "topology.conf", optionsFor(design), Catalog::builtin());
    QCOMPARE(withoutComments(slurmTopology(imported.topology)), withoutComments(text));
    QCOMPARE(imported.topology.serverCount(), design.topology.serverCount());
    QCOMPARE(imported.topology.gpuCount(), design.topology.gpuCount());
    // Every server is cabled to exactly one leaf with its NICs.
    for (const auto& [id, node] : imported.topology.nodes())
        if (node.kind == NodeKind::Server)
            QCOMPARE(imported.topology.linksOf(id).size(), std::size_t{1});
}

void tst_FabricImport::realSubnetsImport() {
    // PSMN's X5 cluster (ENS Lyon, 2020): 11 Voltaire/Mellanox QDR switches and 89 single-
    // port ConnectX adapters; the repository's own notes name 6 leaves carrying 6, 9, 24,
    // 21, 5 and 24 hosts. One of its 5 non-leaf switches hangs below another, so the
    // structure reads as 4 spines and a core.
    ImportOptions options;
    const Design x5 = importIbnetdiscover(fixture("x5-qdr.ibnetdiscover.txt"),
                                          "x5-qdr.ibnetdiscover.txt", options, Catalog::builtin());
    QCOMPARE(x5.topology.serverCount(), 89);
    const TierCounts tiers = x5.topology.switchCounts();
    QCOMPARE(tiers.leaf, 6);
    QCOMPARE(tiers.total(), 11);
    std::multiset<int> hostsPerLeaf;
    for (const auto& [id, node] : x5.topology.nodes())
        if (node.kind == NodeKind::Leaf) {
            int hosts = 0;
            for (const LinkId link : x5.topology.linksOf(id))
                hosts += x5.topology.tierOf(x5.topology.link(link)) == LinkTier::Server;
            hostsPerLeaf.insert(hosts);
        }
    QVERIFY((hostsPerLeaf == std::multiset<int>{6, 9, 24, 21, 5, 24}));
    // 4xQDR is 40 Gb/s, 4xDDR 20 Gb/s: both occur.
    bool qdr = false;
    bool ddr = false;
    for (const auto& [id, link] : x5.topology.links()) {
        qdr = qdr || link.speed.value == 40;
        ddr = ddr || link.speed.value == 20;
    }
    QVERIFY(qdr && ddr);

    // The topology.conf the same repository generated from that subnet: the same servers
    // and the same tiers.
    const Design slurm = importSlurmTopology(fixture("x5-qdr.topology.conf"), "x5.topology.conf",
                                             options, Catalog::builtin());
    QCOMPARE(slurm.topology.serverCount(), 89);
    QCOMPARE(slurm.topology.switchCounts().leaf, 6);
    QCOMPARE(slurm.topology.switchCounts().total(), 11);

    // NVIDIA's ibdiagpath how-to (2016): a SwitchIB EDR switch with loopback cables and an
    // SX6012 FDR switch, 6 adapters on 5 hosts, pasted with its tabs lost and a stray
    // error line on top.
    const Design two = importIbnetdiscover(fixture("edr-fdr-two-switches.ibnetdiscover.txt"),
                                           "two.topo", options, Catalog::builtin());
    QCOMPARE(two.topology.switchCounts().total(), 2);
    QCOMPARE(two.topology.serverCount(), 5);
}

void tst_FabricImport::refusedWithFileAndLine_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    const QString head = QStringLiteral(
        "vendid=0x2c9\nSwitch\t36 \"S-0000000000000001\"\t\t# \"leaf-1\" enhanced port 0 lid 1\n");
    QTest::newRow("ibnetdiscover cut mid-line")
        << "ibnetdiscover" << head + QStringLiteral("[1]\t\"H-00000000") << 3;
    QTest::newRow("ibnetdiscover peer never described")
        << "ibnetdiscover"
        << head + QStringLiteral("[1]\t\"H-0000000000000002\"[1]\t\t# \"srv mlx5_0\" lid 2 4xNDR\n")
        << 3;
    QTest::newRow("ibnetdiscover without rate")
        << "ibnetdiscover"
        << head + QStringLiteral("[1]\t\"S-0000000000000001\"[2]\t\t# \"leaf-1\" lid 1\n") << 3;
    QTest::newRow("a JSON file") << "ibnetdiscover" << QStringLiteral("{\"name\": \"x\"}\n") << 1;
    QTest::newRow("an empty file") << "ibnetdiscover" << QString() << 1;
    QTest::newRow("port before record")
        << "ibnetdiscover" << QStringLiteral("[1]\t\"H-01\"[1] # 4xNDR\n") << 1;
    QTest::newRow("slurm node under two leaves")
        << "slurm" << QStringLiteral("SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n2\n") << 2;
    QTest::newRow("slurm unknown key") << "slurm" << QStringLiteral("SwitchName=a Wires=3\n") << 1;
    QTest::newRow("slurm unbalanced")
        << "slurm" << QStringLiteral("\nSwitchName=a Nodes=n[1-2\n") << 2;
    QTest::newRow("slurm backwards")
        << "slurm" << QStringLiteral("SwitchName=a Nodes=n[9-1]\n") << 1;
    QTest::newRow("slurm lists itself")
        << "slurm" << QStringLiteral("SwitchName=a Nodes=n1\nSwitchName=s Switches=s,a\n") << 2;
    QTest::newRow("slurm undefined switch")
        << "slurm" << QStringLiteral("SwitchName=a Nodes=n1\nSwitchName=s Switches=a,b\n") << 2;
    QTest::newRow("slurm both lists")
        << "slurm" << QStringLiteral("# c\nSwitchName=a Nodes=n1 Switches=b\n") << 2;
    QTest::newRow("slurm no switches") << "slurm" << QStringLiteral("# only a comment\n") << 1;
}

void tst_FabricImport::refusedWithFileAndLine() {
    QFETCH(QString, format);
    QFETCH(QString, text);
    QFETCH(int, line);
    const std::string body = text.toStdString();
    try {
        if (format == QLatin1String("slurm"))
            importSlurmTopology(body, "bad.conf", {}, Catalog::builtin());
        else
            importIbnetdiscover(body, "bad.conf", {}, Catalog::builtin());
        QFAIL("accepted");
    } catch (const ImportError& e) {
        QVERIFY2(std::string(e.what()).starts_with("bad.conf:" + std::to_string(line) + ": "),
                 e.what());
    }
}

void tst_FabricImport::hostlists_data() {
    QTest::addColumn<QString>("list");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("one") << "srv-1" << QStringList{"srv-1"};
    QTest::newRow("range") << "srv-[1-3]" << QStringList{"srv-1", "srv-2", "srv-3"};
    QTest::newRow("zeros kept") << "n[008-010]" << QStringList{"n008", "n009", "n010"};
    QTest::newRow("ranges and lists") << "a[1,3-4],b7" << QStringList{"a1", "a3", "a4", "b7"};
    QTest::newRow("suffix") << "r[1-2]x" << QStringList{"r1x", "r2x"};
}

void tst_FabricImport::hostlists() {
    QFETCH(QString, list);
    QFETCH(QStringList, names);
    QStringList expanded;
    for (const std::string& name : expandHostlist(list.toStdString()))
        expanded << QString::fromStdString(name);
    QCOMPARE(expanded, names);
    // And the export's compression reads back as the same names.
    std::vector<std::string> sorted;
    for (const QString& name : names)
        sorted.push_back(name.toStdString());
    QVERIFY(expandHostlist(hostlist(sorted)).size() == sorted.size());
}

QTEST_GUILESS_MAIN(tst_FabricImport)
#include "tst_FabricImport.moc"
