// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// File > Export report as a sales engineer uses it after a demo: the PDF has its pages, and
// what a reader (pdftotext) finds in it is the design's name, the bill's total equal to the
// capex every other output shows, every chart the window shows by its title, the sections
// the design calls for, and page numbers. A folder that cannot be written leaves no file.
#include "app/gui/MainWindow.hpp"
#include "app/gui/ReportExport.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/cost/CostModel.hpp"
#include "views/charts/ChartPanel.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/sim/CompareController.hpp"
#include "views/sim/ResultsDashboard.hpp"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::TopologyDocument;

namespace {

/// A 16K-GPU design is simulated and compared on six fabrics before its report is drawn.
constexpr int kReportTimeoutMs = 180'000;

/// What a reader extracts from the PDF, with runs of white space as one space (titles wrap)
/// and the fi/fl ligatures the PDF's fonts use spelt out.
QString extractedText(const QString& pdf) {
    QProcess process;
    // -layout: table rows stay rows ("Total ... $514,000").
    process.start(QStringLiteral("pdftotext"),
                  {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    if (!process.waitForFinished(60'000) || process.exitCode() != 0)
        return {};
    QString text = QString::fromUtf8(process.readAllStandardOutput());
    text.replace(QChar(0xFB01), QStringLiteral("fi")).replace(QChar(0xFB02), QStringLiteral("fl"));
    return text.simplified();
}

QString simplified(const QString& text) {
    return QString(text).simplified();
}

} // namespace

class tst_DesignReport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void reportHoldsWhatTheWindowShows_data();
    void reportHoldsWhatTheWindowShows();
    void chosenFabricsAreTheOnesCompared();
    void unwritableFolderLeavesNothing();
};

void tst_DesignReport::initTestCase() {
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        QSKIP("pdftotext (poppler-utils, installed by scripts/dev.sh) is needed to read the PDF");
}

void tst_DesignReport::reportHoldsWhatTheWindowShows_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QStringList>("sections");
    const QStringList always{QStringLiteral("Summary"),         QStringLiteral("Topology"),
                             QStringLiteral("Results"),         QStringLiteral("Fabric comparison"),
                             QStringLiteral("Verdict"),         QStringLiteral("Bill of materials"),
                             QStringLiteral("Cabling summary"), QStringLiteral("Assumptions")};
    QTest::newRow("16 GPUs, leaf and spine") << "workshop-16gpu-leaf-spine.fabric.json" << always;
    QTest::newRow("64 GPUs on one leaf") << "article000-64gpu-ib-ndr.fabric.json" << always;
    // Failures and story steps saved with the design get their own sections.
    QTest::newRow("1,024 GPUs, a spine down, a story")
        << "spectrum-x-1024gpu-spine-down.fabric.json"
        << (always + QStringList{QStringLiteral("What-if failures"), QStringLiteral("Story")});
    QTest::newRow("16,384 GPUs, three tiers") << "fat-tree-16k-ib-ndr.fabric.json" << always;
}

void tst_DesignReport::reportHoldsWhatTheWindowShows() {
    QFETCH(QString, sample);
    QFETCH(QStringList, sections);
    TopologyDocument document(Catalog::builtin());
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/") + sample);
    fabriclab::app::MainWindow window(document);
    window.resize(1600, 1000);
    window.show();
    fabriclab::app::ReportExport report(window);
    report.setInteractive(false);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    QSignalSpy exported(&report, &fabriclab::app::ReportExport::exported);
    QSignalSpy failed(&report, &fabriclab::app::ReportExport::failed);
    report.exportReport(path);
    QTRY_VERIFY_WITH_TIMEOUT(!exported.isEmpty() || !failed.isEmpty(), kReportTimeoutMs);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(1).toString()));
    const int pages = exported.at(0).at(1).toInt();
    // Title, topology, results, comparison, bill and assumptions each start a page.
    QVERIFY2(pages >= 6, qPrintable(QString::number(pages)));

    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.read(5), QByteArray("%PDF-"));
    const QString text = extractedText(path);
    QVERIFY2(!text.isEmpty(), "pdftotext found no text");

    const auto& design = document.design();
    QVERIFY2(text.contains(simplified(QString::fromStdString(design.name))), design.name.c_str());
    // The bill's total is the capex: the same cost model, priced once.
    const auto cost = fabriclab::model::estimateCost(design.topology, design.fabric.spec,
                                                     document.catalog().prices());
    const QString total = fabriclab::views::usdText(cost.capex.value);
    QVERIFY2(text.contains(QStringLiteral("Total ") + total), qPrintable(total));
    // Every chart the window shows, by its title; charts without results say so.
    QList<fabriclab::views::ChartPanel*> charts = window.dashboard()->charts();
    charts << window.findChildren<fabriclab::views::ChartPanel*>(QStringLiteral("compare"));
    for (const auto* chart : charts)
        if (chart->hasData())
            QVERIFY2(text.contains(simplified(chart->title())), qPrintable(chart->title()));
    for (const QString& section : sections)
        QVERIFY2(text.contains(section), qPrintable(section));
    // A workload's memory per GPU among the key figures, as the run works it out.
    if (design.workload)
        QVERIFY(text.contains(QStringLiteral("Memory per GPU")));
    // Every compared fabric has its row.
    const auto comparison = window.comparisons()->result();
    QVERIFY(comparison);
    for (const auto& row : comparison->rows)
        QVERIFY2(text.contains(simplified(row.fabricName).left(20)), qPrintable(row.fabricName));
    QVERIFY(text.contains(QStringLiteral("Page 1 of %1").arg(pages)));
    QVERIFY(text.contains(QStringLiteral("Page %1 of %1").arg(pages)));
    QVERIFY(!text.contains(QStringLiteral("Page %1 of").arg(pages + 1)));
}

void tst_DesignReport::chosenFabricsAreTheOnesCompared() {
    TopologyDocument document(Catalog::builtin());
    document.load(
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json"));
    fabriclab::app::MainWindow window(document);
    window.show();
    window.comparisons()->setChosenFabrics({QStringLiteral("ib-ndr"), QStringLiteral("roce-v2")});
    fabriclab::app::ReportExport report(window);
    report.setInteractive(false);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two.pdf"));
    QSignalSpy exported(&report, &fabriclab::app::ReportExport::exported);
    report.exportReport(path);
    QVERIFY(exported.wait(kReportTimeoutMs));
    const auto comparison = window.comparisons()->result();
    QVERIFY(comparison);
    QCOMPARE(comparison->rows.size(), 2);
    QCOMPARE(comparison->rows.at(0).fabricId, QStringLiteral("ib-ndr"));
    QCOMPARE(comparison->rows.at(1).fabricId, QStringLiteral("roce-v2"));
    const QString text = extractedText(path);
    QVERIFY(!text.contains(QStringLiteral("InfiniBand XDR")));
}

void tst_DesignReport::unwritableFolderLeavesNothing() {
    TopologyDocument document(Catalog::builtin());
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json"));
    fabriclab::app::MainWindow window(document);
    window.show();
    fabriclab::app::ReportExport report(window);
    report.setInteractive(false);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("no-such-folder/report.pdf"));
    QSignalSpy failed(&report, &fabriclab::app::ReportExport::failed);
    report.exportReport(path);
    QVERIFY(failed.wait(kReportTimeoutMs));
    QCOMPARE(failed.at(0).at(0).toString(), path);
    QVERIFY(!failed.at(0).at(1).toString().isEmpty());
    QVERIFY(!QFile::exists(path));
    QVERIFY(!report.isBusy());                  // ready for the next try
    QCOMPARE(document.undoStack()->count(), 0); // the design is untouched
}

QTEST_MAIN(tst_DesignReport)
#include "tst_DesignReport.moc"
