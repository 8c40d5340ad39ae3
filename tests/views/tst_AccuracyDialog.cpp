// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Help > Model accuracy as a user meets it: the dialog runs every published figure through
// the engine on a worker and shows what model::runValidation computes, the same figures and
// verdicts `fabriclab-cli validate` prints and tst_Validation asserts.
#include "model/catalog/Catalog.hpp"
#include "model/validation/ValidationReport.hpp"
#include "views/dialogs/AccuracyDialog.hpp"

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
    void closingWhileRunningStopsTheWork();

private:
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
    QVERIFY(!dialog.runOwnFigures(bad));
    answer.stop();
    QVERIFY2(told.contains(QStringLiteral("not-figures.json")) &&
                 told.contains(QStringLiteral("/cases/0")),
             qPrintable(told));
    QCOMPARE(dialog.table().rowCount(), 1);

    // And back to FabricLab's own.
    dialog.findChild<QPushButton*>(QStringLiteral("builtinFigures"))->click();
    waitUntilDone(dialog);
    QVERIFY(dialog.table().rowCount() > 200);
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
