// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// File > Export as an architect uses it: the bill of materials and the cabling plan the app
// writes are byte for byte what `fabriclab-cli bom` and `cabling` write for the same design,
// and a folder that cannot be written leaves no file and says why.
#include "app/gui/ExportActions.hpp"
#include "app/gui/FileActions.hpp"
#include "app/gui/ImportActions.hpp"
#include "app/gui/MainWindow.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/cost/CostModel.hpp"
#include "model/report/BillOfMaterials.hpp"
#include "model/report/CablingPlan.hpp"
#include "model/report/FabricExport.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QFile>
#include <QImage>
#include <QMenu>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::TopologyDocument;

class tst_ExportActions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void billOfMaterialsIsTheCliOne_data();
    void billOfMaterialsIsTheCliOne();
    void plansAndGraphsAreTheCliOnes_data();
    void plansAndGraphsAreTheCliOnes();
    void unwritableFolderLeavesNothing();
    void canvasAsSvgAndPng();
    void importTakesARealFabricOrKeepsTheDesign();
};

void tst_ExportActions::billOfMaterialsIsTheCliOne_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("csv") << "bom.csv";
    QTest::newRow("json") << "bom.json";
}

void tst_ExportActions::billOfMaterialsIsTheCliOne() {
    QFETCH(QString, file);
    TopologyDocument document(Catalog::builtin());
    document.load(
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json"));
    fabriclab::app::MainWindow window(document);
    fabriclab::app::ExportActions exports(document, window);
    // File > Export offers every export, by the names a user looks for.
    QStringList offered;
    for (const QAction* action : window.fileMenu()->actions())
        if (action->menu() && action->menu()->title().contains(QStringLiteral("Export")))
            for (const QAction* item : action->menu()->actions())
                offered << item->text().remove(QLatin1Char('&'));
    for (const char* wanted :
         {"Bill of materials", "Cabling plan", "Graphviz", "Slurm", "ibnetdiscover", "Canvas"})
        QVERIFY2(offered.filter(QLatin1String(wanted)).size() == 1, wanted);

    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    QSignalSpy exported(&exports, &fabriclab::app::ExportActions::exported);
    exports.exportBillOfMaterials(path);
    QVERIFY(exported.wait(10000));
    QFile written(path);
    QVERIFY(written.open(QIODevice::ReadOnly));
    // What `fabriclab-cli bom DESIGN --json|--csv` prints, head and all.
    QProcess cli;
    cli.start(QStringLiteral(FABRICLAB_CLI),
              {QStringLiteral("bom"),
               QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json"),
               file.endsWith(QStringLiteral(".json")) ? QStringLiteral("--json")
                                                      : QStringLiteral("--csv")});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    QCOMPARE(written.readAll(), cli.readAllStandardOutput());
}

void tst_ExportActions::plansAndGraphsAreTheCliOnes_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("cabling plan") << "cabling";
    QTest::newRow("slurm") << "slurm";
    QTest::newRow("graphviz") << "dot";
    QTest::newRow("ibnetdiscover") << "ibnetdiscover";
}

void tst_ExportActions::plansAndGraphsAreTheCliOnes() {
    QFETCH(QString, kind);
    TopologyDocument document(Catalog::builtin());
    document.load(
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json"));
    fabriclab::app::MainWindow window(document);
    fabriclab::app::ExportActions exports(document, window);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("export.out"));
    QSignalSpy exported(&exports, &fabriclab::app::ExportActions::exported);
    const auto& design = document.design();
    const auto plan = fabriclab::model::cablingPlan(design.topology, design.fabric.spec,
                                                    document.catalog().prices());
    std::string expected;
    if (kind == QLatin1String("cabling")) {
        exports.exportCablingPlan(path);
        expected = fabriclab::model::cablingCsv(plan);
    } else if (kind == QLatin1String("slurm")) {
        exports.exportSlurmTopology(path);
        expected = fabriclab::model::slurmTopology(design.topology);
    } else if (kind == QLatin1String("dot")) {
        exports.exportGraphviz(path);
        expected = fabriclab::model::graphvizDot(design.name, design.topology, plan);
    } else {
        exports.exportIbnetdiscover(path);
        expected =
            fabriclab::model::ibnetdiscoverTopology(design.topology, design.fabric.spec, plan);
    }
    QVERIFY(exported.wait(10000));
    QFile written(path);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QCOMPARE(written.readAll(), QByteArray::fromStdString(expected));
}

void tst_ExportActions::unwritableFolderLeavesNothing() {
    TopologyDocument document(Catalog::builtin());
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json"));
    fabriclab::app::MainWindow window(document);
    fabriclab::app::ExportActions exports(document, window);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("no-such-folder/bom.csv"));
    QSignalSpy failed(&exports, &fabriclab::app::ExportActions::failed);
    exports.exportBillOfMaterials(path);
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.at(0).at(0).toString(), path);
    QVERIFY(!failed.at(0).at(1).toString().isEmpty());
    QVERIFY(!QFile::exists(path));
    QCOMPARE(document.undoStack()->count(), 0); // the design is untouched
}

void tst_ExportActions::canvasAsSvgAndPng() {
    // The whole design as the canvas draws it: an SVG whose text is the canvas's (node names,
    // tier labels), and a PNG at least a screen wide.
    TopologyDocument document(Catalog::builtin());
    document.load(
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json"));
    fabriclab::app::MainWindow window(document);
    window.show();
    fabriclab::app::ExportActions exports(document, window);
    QTemporaryDir dir;
    QSignalSpy exported(&exports, &fabriclab::app::ExportActions::exported);
    const QString svg = dir.filePath(QStringLiteral("canvas.svg"));
    exports.exportCanvas(svg);
    QCOMPARE(exported.size(), 1);
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray drawing = svgFile.readAll();
    QVERIFY(drawing.contains("<svg"));
    QVERIFY(drawing.contains("leaf-1"));
    QVERIFY(drawing.contains("Leaves"));
    const QString png = dir.filePath(QStringLiteral("canvas.png"));
    exports.exportCanvas(png);
    QCOMPARE(exported.size(), 2);
    const QImage picture(png);
    QVERIFY(!picture.isNull());
    QVERIFY(picture.width() >= 1280);

    QSignalSpy failed(&exports, &fabriclab::app::ExportActions::failed);
    const QString missing = dir.filePath(QStringLiteral("no-such-folder/canvas.svg"));
    exports.exportCanvas(missing);
    QCOMPARE(failed.size(), 1);
    QVERIFY(!QFile::exists(missing));
}

void tst_ExportActions::importTakesARealFabricOrKeepsTheDesign() {
    // File > Import fabric: a real subnet becomes the open design, unsaved; a file cut short
    // is refused with its line, and the design the user had stays.
    TopologyDocument document(Catalog::builtin());
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json"));
    fabriclab::app::MainWindow window(document);
    fabriclab::app::FileActions files(document, window);
    fabriclab::app::ImportActions imports(document, files, window);
    const std::string before = document.design().name;

    QTemporaryDir dir;
    const QString cut = dir.filePath(QStringLiteral("cut.topo"));
    QFile file(cut);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("vendid=0x2c9\nSwitch\t36 \"S-0000000000000001\"\t# \"leaf\"\n[1]\t\"H-00");
    file.close();
    QString error;
    QVERIFY(!imports.importFile(fabriclab::app::ImportActions::Format::Ibnetdiscover, cut, {},
                                &error));
    QVERIFY2(error.contains(QStringLiteral("cut.topo:3:")), qPrintable(error));
    QCOMPARE(document.design().name, before);

    fabriclab::model::ImportOptions options;
    options.name = "two switches";
    QVERIFY2(imports.importFile(fabriclab::app::ImportActions::Format::Ibnetdiscover,
                                QStringLiteral(FABRICLAB_SOURCE_DIR "/tests/io/fixtures/"
                                               "edr-fdr-two-switches.ibnetdiscover.txt"),
                                options, &error),
             qPrintable(error));
    QCOMPARE(document.design().name, std::string("two switches"));
    QCOMPARE(document.topology().serverCount(), 5);
    QVERIFY(document.filePath().isEmpty()); // saving asks where: the source stays as it is
}

QTEST_MAIN(tst_ExportActions)
#include "tst_ExportActions.moc"
