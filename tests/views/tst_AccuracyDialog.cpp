// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Help > Model accuracy as a user meets it: the dialog runs every published figure through
// the engine on a worker and shows what model::runValidation computes, the same figures and
// verdicts `fabriclab-cli validate` prints and tst_Validation asserts.
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/TextFile.hpp"
#include "model/validation/MeasuredLog.hpp"
#include "model/validation/ValidationReport.hpp"
#include "views/charts/MeasuredChart.hpp"
#include "views/dialogs/AccuracyDialog.hpp"

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace fabriclab;
using views::AccuracyDialog;
using views::AccuracyTableModel;

class tst_AccuracyDialog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void showsTheEnginesScoreAndRows();
    void filtersBySetTextAndMisses();
    void ownFiguresReplaceTheTableAndABadFileKeepsIt();
    void yourNcclTestsLogAgainstTheOpenDesign();
    void closingWhileRunningStopsTheWork();

private:
    /// `servers` x 8 H100 on a rail-optimized NDR leaf-spine, as the log's cluster.
    static std::shared_ptr<const model::Design> cluster(int servers) {
        const nlohmann::json design = {{"format", "fabriclab-design"},
                                       {"version", 1},
                                       {"name", std::to_string(servers) + " x 8 H100"},
                                       {"fabric", "ib-ndr"},
                                       {"generator",
                                        {{"kind", "leaf-spine"},
                                         {"servers", servers},
                                         {"gpusPerServer", 8},
                                         {"nicsPerServer", 8},
                                         {"nicGbps", 400},
                                         {"railOptimized", true},
                                         {"leafRadix", 64},
                                         {"spineRadix", 64},
                                         {"oversubscription", 1}}}};
        return std::make_shared<const model::Design>(
            model::parseDesign(design.dump(), "cluster", model::Catalog::builtin()));
    }
    /// Runs `call`, accepting the message box it raises; returns the box's text.
    QString answerWarning(const std::function<void()>& call) {
        QString told;
        QTimer answer;
        answer.setInterval(20);
        connect(&answer, &QTimer::timeout, this, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                told = box->text();
                box->accept();
            }
        });
        answer.start();
        call();
        answer.stop();
        return told;
    }

    static void waitUntilDone(AccuracyDialog& dialog) {
        if (!dialog.isDone()) {
            QSignalSpy done(&dialog, &AccuracyDialog::done);
            QVERIFY(done.wait(120000));
        }
    }
};

void tst_AccuracyDialog::showsTheEnginesScoreAndRows() {
    const model::Catalog& catalog = model::Catalog::builtin();
    AccuracyDialog dialog(catalog);
    dialog.show();
    waitUntilDone(dialog);
    if (QTest::currentTestFailed())
        return;
    // The score line is the engine's own score, computed here independently of the dialog.
    const model::ValidationReport expected = model::runValidation(catalog);
    const QString score = dialog.findChild<QLabel*>(QStringLiteral("score"))->text();
    QVERIFY2(score.contains(QStringLiteral("%1 of %2 check figures")
                                .arg(expected.score.checkWithin)
                                .arg(expected.score.checkCount)),
             qPrintable(score));
    QVERIFY2(score.contains(QStringLiteral("training step: %1 of %2")
                                .arg(expected.score.stepWithin)
                                .arg(expected.steps.size())),
             qPrintable(score));
    QVERIFY2(score.contains(QStringLiteral("sizing: %1 of %2 exact")
                                .arg(expected.score.architectureExact)
                                .arg(expected.architectures.size())),
             qPrintable(score));
    QVERIFY(expected.score.checkCount > 200);

    // One row per figure, each cell the engine's figure.
    const AccuracyTableModel& table = dialog.table();
    QCOMPARE(table.rowCount(), static_cast<int>(expected.figures.size()));
    for (int row = 0; row < table.rowCount(); ++row) {
        const auto& check = expected.checks[static_cast<std::size_t>(row)];
        QCOMPARE(table.index(row, AccuracyTableModel::FabricLabColumn)
                     .data(AccuracyTableModel::SortRole)
                     .toDouble(),
                 check.measured);
        QCOMPARE(table.index(row, AccuracyTableModel::VerdictColumn)
                         .data(AccuracyTableModel::SortRole)
                         .toInt() == 0,
                 check.withinTolerance);
    }
    // A row names its source where the user looks for it.
    const QString tip = table.index(0, 0).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QString::fromStdString(expected.figures.front().source).toHtmlEscaped()),
             qPrintable(tip));

    // The step and sizing tabs: a row per figure, the engine's step time in each.
    QCOMPARE(dialog.stepTable().rowCount(), static_cast<int>(expected.steps.size()));
    for (int row = 0; row < dialog.stepTable().rowCount(); ++row)
        QCOMPARE(dialog.stepTable().index(row, 2).data(Qt::UserRole).toDouble(),
                 expected.stepChecks[static_cast<std::size_t>(row)].stepSeconds);
    QCOMPARE(dialog.sizingTable().rowCount(), static_cast<int>(expected.architectures.size()));
    // The cost tab: a row per build-out, fit ones included, the engine's cost per GPU in each.
    QVERIFY2(score.contains(QStringLiteral("cost per GPU: %1 of %2")
                                .arg(expected.score.buildOutWithin)
                                .arg(expected.score.buildOutCount)),
             qPrintable(score));
    QCOMPARE(dialog.costTable().rowCount(), static_cast<int>(expected.buildOuts.size()));
    QVERIFY(expected.score.buildOutCount > 0);
    for (int row = 0; row < dialog.costTable().rowCount(); ++row)
        QCOMPARE(dialog.costTable().index(row, 4).data(Qt::UserRole).toDouble(),
                 expected.buildOutChecks[static_cast<std::size_t>(row)].usdPerGpu);

    // FABRICLAB_SCREENSHOTS=DIR keeps PNGs of the dialog for review.
    if (const QString folder = qEnvironmentVariable("FABRICLAB_SCREENSHOTS"); !folder.isEmpty()) {
        QVERIFY(dialog.grab().save(QDir(folder).filePath(QStringLiteral("model-accuracy.png"))));
        auto* tabs = dialog.findChild<QTabWidget*>(QStringLiteral("tabs"));
        tabs->setCurrentIndex(1);
        QVERIFY(
            dialog.grab().save(QDir(folder).filePath(QStringLiteral("model-accuracy-steps.png"))));
        tabs->setCurrentIndex(2);
        QVERIFY(
            dialog.grab().save(QDir(folder).filePath(QStringLiteral("model-accuracy-sizing.png"))));
        tabs->setCurrentIndex(3);
        QVERIFY(
            dialog.grab().save(QDir(folder).filePath(QStringLiteral("model-accuracy-cost.png"))));
    }
}

void tst_AccuracyDialog::filtersBySetTextAndMisses() {
    AccuracyDialog dialog(model::Catalog::builtin());
    waitUntilDone(dialog);
    if (QTest::currentTestFailed())
        return;
    auto* view = dialog.findChild<QTableView*>(QStringLiteral("figures"));
    const auto rows = [&] { return view->model()->rowCount(); };
    const auto& report = *dialog.table().report();
    const int all = static_cast<int>(report.figures.size());
    const int check = report.score.checkCount;
    QCOMPARE(rows(), all);

    auto* set = dialog.findChild<QComboBox*>(QStringLiteral("set"));
    set->setCurrentIndex(1); // check set
    QCOMPARE(rows(), check);
    set->setCurrentIndex(2); // fit set
    QCOMPARE(rows(), report.score.fitCount);
    set->setCurrentIndex(1);

    // Outside tolerance only: the check set's misses, known or new.
    dialog.findChild<QCheckBox*>(QStringLiteral("missesOnly"))->setChecked(true);
    QCOMPARE(rows(), check - report.score.checkWithin);

    // Text matches the figure, cluster or test: every MI355X check figure, here.
    dialog.findChild<QCheckBox*>(QStringLiteral("missesOnly"))->setChecked(false);
    dialog.findChild<QLineEdit*>(QStringLiteral("text"))->setText(QStringLiteral("mi355x"));
    int mi355x = 0;
    for (const auto& f : report.figures)
        mi355x += f.isCheck() && f.gpu == "mi355x";
    QVERIFY(mi355x > 0);
    QCOMPARE(rows(), mi355x);
}

void tst_AccuracyDialog::ownFiguresReplaceTheTableAndABadFileKeepsIt() {
    AccuracyDialog dialog(model::Catalog::builtin());
    waitUntilDone(dialog);
    if (QTest::currentTestFailed())
        return;
    // A user's measurement: one figure, on a cluster FabricLab's own figures also cover.
    QTemporaryDir dir;
    const QString own = dir.filePath(QStringLiteral("our-cluster.json"));
    QFile file(own);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"cases": [{"id": "ours-2-nodes-8g", "set": "check", "source": "our run",
        "why": "our goal", "servers": 2, "gpusPerServer": 8, "nicsPerServer": 8,
        "nicGbps": 400, "fabric": "ib-ndr", "gpu": "h100-sxm", "op": "allreduce",
        "algorithm": "auto", "bytes": 8589934592, "published": [466.73, 466.73],
        "tolerance": 0.1}]})");
    file.close();
    QVERIFY(dialog.runOwnFigures(own));
    waitUntilDone(dialog);
    QCOMPARE(dialog.table().rowCount(), 1);
    const model::FigureCheck expected = model::checkPublishedFigure(
        model::loadPublishedFigures(own.toStdString()).front(), model::Catalog::builtin());
    QCOMPARE(dialog.table()
                 .index(0, AccuracyTableModel::FabricLabColumn)
                 .data(AccuracyTableModel::SortRole)
                 .toDouble(),
             expected.measured);
    const QString score = dialog.findChild<QLabel*>(QStringLiteral("score"))->text();
    QVERIFY2(score.contains(QStringLiteral("our-cluster.json")), qPrintable(score));
    QVERIFY(!dialog.findChild<QPushButton*>(QStringLiteral("builtinFigures"))->isHidden());
    if (const QString folder = qEnvironmentVariable("FABRICLAB_SCREENSHOTS"); !folder.isEmpty())
        QVERIFY(
            dialog.grab().save(QDir(folder).filePath(QStringLiteral("model-accuracy-own.png"))));

    // A file that is not figures is named with its problem; the table stays as it was.
    const QString bad = dir.filePath(QStringLiteral("not-figures.json"));
    QFile badFile(bad);
    QVERIFY(badFile.open(QIODevice::WriteOnly));
    badFile.write("{\"cases\": [{\"id\": \"x\"}]}");
    badFile.close();
    const QString told = answerWarning([&] { QVERIFY(!dialog.runOwnFigures(bad)); });
    QVERIFY2(told.contains(QStringLiteral("not-figures.json")) &&
                 told.contains(QStringLiteral("/cases/0")),
             qPrintable(told));
    QCOMPARE(dialog.table().rowCount(), 1);

    // And back to FabricLab's own.
    dialog.findChild<QPushButton*>(QStringLiteral("builtinFigures"))->click();
    waitUntilDone(dialog);
    QVERIFY(dialog.table().rowCount() > 200);
}

void tst_AccuracyDialog::yourNcclTestsLogAgainstTheOpenDesign() {
    // A real log of five runs, chosen with the 12-server design open: the "Your measurements"
    // tab shows every row, each FabricLab figure the one model::compareMeasured computes,
    // and a chart per run.
    const model::Catalog& catalog = model::Catalog::builtin();
    AccuracyDialog dialog(catalog);
    std::shared_ptr<const model::Design> open = cluster(12);
    dialog.setOpenDesign([&] { return open; });
    dialog.show();
    waitUntilDone(dialog);
    const QString log =
        QStringLiteral(FABRICLAB_SOURCE_DIR "/tests/io/fixtures/h100-10x8.nccl-tests.log");
    QVERIFY(dialog.runOwnFigures(log));
    waitUntilDone(dialog);
    QVERIFY(dialog.measured());
    const model::MeasuredComparison expected = model::compareMeasured(
        *open, catalog,
        model::readNcclTestsLog(model::readTextFile(log.toStdString(), 1 << 24, "log"),
                                "h100-10x8.nccl-tests.log"),
        "h100-10x8.nccl-tests.log");
    QCOMPARE(dialog.measured()->compared, 50);
    QCOMPARE(dialog.measured()->within, expected.within);
    const QStandardItemModel& table = dialog.measuredTable();
    QCOMPARE(table.rowCount(), 50);
    QCOMPARE(table.item(0, 4)->data(Qt::UserRole).toDouble(),
             expected.runs[0].points[0].predictedBusBwGBps);
    auto* tabs = dialog.findChild<QTabWidget*>(QStringLiteral("tabs"));
    QVERIFY(tabs->tabText(tabs->currentIndex()).startsWith(QStringLiteral("Your measurements")));
    auto* runs = dialog.findChild<QComboBox*>(QStringLiteral("measuredRuns"));
    QCOMPARE(runs->count(), 5);
    auto* chart = dialog.findChild<views::MeasuredChart*>();
    QVERIFY(chart && chart->hasData());
    QCOMPARE(chart->table().rows.size(), 10);
    runs->setCurrentIndex(3); // alltoall_perf
    QCOMPARE(chart->table().rows.size(), 10);
    QCOMPARE(chart->table().rows.front().value(3).toDouble(),
             std::round(expected.runs[3].points[0].predictedBusBwGBps * 1000) / 1000);
    runs->setCurrentIndex(0);
    if (const QString folder = qEnvironmentVariable("FABRICLAB_SCREENSHOTS"); !folder.isEmpty()) {
        dialog.resize(1360, 900);
        QTest::qWait(1000); // the chart's grow animation
        QVERIFY(
            dialog.grab().save(QDir(folder).filePath(QStringLiteral("model-accuracy-log.png"))));
    }

    // A log that does not name its collective: the user is asked, and the answer is noted.
    QTemporaryDir dir;
    const QString unnamed = dir.filePath(QStringLiteral("unnamed.log"));
    QFile file(unnamed);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#  size count type redop root time algbw busbw #wrong\n"
               "  1048576 262144 float none -1 100.0 10.49 9.18 0\n");
    file.close();
    int asked = 0;
    dialog.setCollectiveQuestion([&]() -> std::optional<model::CollectiveOp> {
        ++asked;
        return model::CollectiveOp::AllGather;
    });
    QVERIFY(dialog.runOwnFigures(unnamed));
    waitUntilDone(dialog);
    QCOMPARE(asked, 1);
    QCOMPARE(dialog.measured()->runs.size(), std::size_t(1));
    QCOMPARE(int(dialog.measured()->runs[0].op), int(model::CollectiveOp::AllGather));
    QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("measuredScore"))
                ->text()
                .contains(QStringLiteral("as asked")));

    // A cluster larger than the open design, and no open design: each named, and the
    // measurements shown stay.
    open = cluster(2);
    const QString tooBig = answerWarning([&] {
        QVERIFY(dialog.runOwnFigures(log));
        waitUntilDone(dialog);
    });
    QVERIFY2(
        tooBig.contains(QStringLiteral("the run used 10 servers (80 ranks); the design has 2")),
        qPrintable(tooBig));
    QCOMPARE(dialog.measured()->runs.size(), std::size_t(1));
    open = nullptr;
    const QString noDesign = answerWarning([&] { QVERIFY(!dialog.runOwnFigures(log)); });
    QVERIFY2(noDesign.contains(QStringLiteral("open that design first")), qPrintable(noDesign));
    QCOMPARE(dialog.measuredTable().rowCount(), 1);
}

void tst_AccuracyDialog::closingWhileRunningStopsTheWork() {
    // Closed while its figures still run: the destructor stops the worker and waits for it,
    // and progress queued for the dialog is dropped with it. A progress call reaching a freed
    // dialog fails here under AddressSanitizer (the CI's second build).
    for (int round = 0; round < 3; ++round) {
        AccuracyDialog dialog(model::Catalog::builtin());
        dialog.show();
        QCoreApplication::processEvents();
        QVERIFY(!dialog.isDone() || dialog.table().report());
    }
    QCoreApplication::processEvents();
}

QTEST_MAIN(tst_AccuracyDialog)
#include "tst_AccuracyDialog.moc"
