// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Compare fabrics: the panel shows, for every fabric, exactly what model::compareOnFabric
// computes for that fabric (the design built like for like with the fabric's own switches),
// and the verdict model::comparisonVerdict reaches on those figures. A fabric the design cannot run
// on is a row with the engine's reason, not a failed comparison. An edit while the fabrics run
// stops them and nothing is shown as current; a comparison shown goes stale on an edit. The chart
// draws one bar pair per fabric and exports as PNG, SVG and CSV.
#include "model/advice/FabricVerdict.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/FabricComparison.hpp"
#include "model/report/RunReport.hpp"
#include "model/validation/PublishedFigures.hpp"
#include "views/charts/CompareChart.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/CompareTableModel.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/sim/CompareController.hpp"
#include "views/sim/ComparePanel.hpp"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using fabriclab::model::Catalog;
using fabriclab::model::FabricOutcome;
using fabriclab::model::RunReport;
using fabriclab::views::CompareController;
using fabriclab::views::ComparePanel;
using fabriclab::views::CompareResultPtr;
using fabriclab::views::CompareTableModel;
using fabriclab::views::TopologyDocument;

namespace {

const char* const kSample = FABRICLAB_SOURCE_DIR "/samples/article000-64gpu-ib-ndr.fabric.json";
/// Seven simulations on a 64-GPU design take well under a second; CI machines are shared.
constexpr int kTimeoutMs = 30000;

/// The engine on one fabric, as the comparison runs it (detail off, owned unless asked).
fabriclab::model::ComparedFabric
compareOn(const fabriclab::model::Design& design, const std::string& fabricId,
          fabriclab::model::OwnershipMode mode = fabriclab::model::OwnershipMode::Owned) {
    fabriclab::model::ComparisonOptions options;
    options.run.detail = false;
    options.ownership.mode = mode;
    options.evidence = &fabriclab::model::builtinPublishedFigures();
    return fabriclab::model::compareOnFabric(design, Catalog::builtin(), fabricId, options);
}

RunReport runOn(const fabriclab::model::Design& design, const std::string& fabricId) {
    fabriclab::model::ComparedFabric row = compareOn(design, fabricId);
    if (!row.ok())
        throw std::invalid_argument(row.error);
    return *row.report;
}

/// Relative comparison (STYLE.md §8); the figures come from the same deterministic engine.
bool same(double actual, double expected) {
    return std::abs(actual - expected) <= 1e-9 * std::max(1.0, std::abs(expected));
}

/// The source row of a fabric in the table.
int rowOf(const CompareTableModel& model, const QString& fabricId) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, 0).data(CompareTableModel::FabricIdRole).toString() == fabricId)
            return row;
    return -1;
}

double number(const CompareTableModel& model, int row, int column) {
    return model.index(row, column).data(CompareTableModel::SortRole).toDouble();
}

struct Fixture {
    TopologyDocument document{Catalog::builtin()};
    CompareController controller{document};
    ComparePanel panel{controller};

    explicit Fixture(fabriclab::model::Design design) {
        document.adopt(std::move(design), QString::fromUtf8(kSample));
    }
};

fabriclab::model::Design sample() {
    return fabriclab::model::loadDesign(kSample, Catalog::builtin());
}

} // namespace

class tst_ComparePanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tableShowsWhatTheEngineComputes();
    void verdictIsTheModelsVerdict();
    void aFabricThatCannotRunIsARow();
    void anEditDuringARunIsNeverShownAsCurrent();
    void aShownComparisonGoesStaleOnAnEdit();
    void chartDrawsEveryFabricAndExports();
    void cloudFabricsAndRentalAreTheUsersChoice();
    void servingColumnsShowWhatTheEngineComputes();
    void topologiesSideBySide();
};

void tst_ComparePanel::topologiesSideBySide() {
    // The 64-GPU sample is a leaf-spine: "Also as fat-tree" puts each fabric's fat-tree of
    // the same servers beside it, both rows named by their kind, each what the engine
    // computes for that topology.
    Fixture f(sample());
    auto* also = f.panel.findChild<QComboBox*>(QStringLiteral("alsoKind"));
    QVERIFY(also);
    also->setCurrentIndex(also->findData(QStringLiteral("fat-tree")));
    QCOMPARE(f.controller.alsoKind(), QStringLiteral("fat-tree"));
    const QStringList ids = f.controller.fabricsToRun();
    QCOMPARE(ids.size(), 2 * (CompareController::fabricIds().size() - 1));
    QCOMPARE(ids.at(0), QStringLiteral("ib-ndr@leaf-spine"));
    QCOMPARE(ids.at(1), QStringLiteral("ib-ndr@fat-tree"));
    // The same kind as the design's adds nothing.
    also->setCurrentIndex(also->findData(QStringLiteral("leaf-spine")));
    QCOMPARE(f.controller.fabricsToRun().size(), CompareController::fabricIds().size() - 1);

    f.controller.setChosenFabrics({QStringLiteral("ib-ndr@leaf-spine"),
                                   QStringLiteral("ib-ndr@fat-tree")});
    QSignalSpy finished(&f.controller, &CompareController::finished);
    f.panel.compareAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    const CompareTableModel& model = *f.panel.tableModel();
    QCOMPARE(model.rowCount(), 2);
    for (const char* id : {"ib-ndr@leaf-spine", "ib-ndr@fat-tree"}) {
        const int row = rowOf(model, QLatin1String(id));
        QVERIFY2(row >= 0, id);
        const RunReport expected = runOn(f.document.design(), id);
        QCOMPARE(number(model, row, CompareTableModel::CapexColumn), expected.cost.capex.value);
    }
    // 8 servers of 8 NICs fit one leaf either way, but the names say which is which.
    QVERIFY(model.index(rowOf(model, QStringLiteral("ib-ndr@fat-tree")), 0)
                .data()
                .toString()
                .startsWith(QStringLiteral("fat-tree on ")));
}

void tst_ComparePanel::tableShowsWhatTheEngineComputes() {
    Fixture f(sample());
    QAbstractItemModelTester tester(f.panel.tableModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy finished(&f.controller, &CompareController::finished);
    QSignalSpy progress(&f.controller, &CompareController::progress);
    f.panel.compareAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QVERIFY(!f.controller.isStale());
    QCOMPARE(finished.at(0).at(0).value<CompareResultPtr>()->revision, f.controller.revision());

    const CompareTableModel& model = *f.panel.tableModel();
    // Every fabric but the cloud's own (EFA), which joins only when asked for.
    const QStringList ids = f.controller.fabricsToRun();
    QCOMPARE(ids.size(), CompareController::fabricIds().size() - 1);
    QVERIFY(!ids.contains(QStringLiteral("efa")));
    QCOMPARE(model.rowCount(), ids.size());
    QCOMPARE(progress.last().at(0).toInt(), ids.size());
    QCOMPARE(progress.last().at(1).toInt(), ids.size());
    const fabriclab::model::Design design = f.document.design();
    for (const QString& id : ids) {
        const fabriclab::model::ComparedFabric compared = compareOn(design, id.toStdString());
        QVERIFY2(compared.ok(), compared.error.c_str());
        const RunReport& r = *compared.report;
        const int row = rowOf(model, id);
        QVERIFY2(row >= 0, qPrintable(id));
        QCOMPARE(model.index(row, CompareTableModel::FabricColumn).data().toString(),
                 QString::fromStdString(r.fabric.name));
        QVERIFY2(same(number(model, row, CompareTableModel::BisectionColumn), r.effective.gbps),
                 qPrintable(id));
        QVERIFY(same(number(model, row, CompareTableModel::BusBwColumn), r.collective.busBwGBps));
        QVERIFY(same(number(model, row, CompareTableModel::StepColumn), r.step->stepSeconds));
        QVERIFY(same(number(model, row, CompareTableModel::CapexColumn), r.cost.capex.value));
        QVERIFY(same(number(model, row, CompareTableModel::PerGpuHourColumn),
                     r.ownership.perGpuHourUsd));
        QVERIFY(same(number(model, row, CompareTableModel::PerTokenColumn),
                     r.ownership.perMillionTokensUsd));
        // How the design was built on the fabric is said in the row.
        QVERIFY2(model.index(row, CompareTableModel::NoteColumn)
                     .data()
                     .toString()
                     .contains(QString::fromStdString(compared.basis)),
                 qPrintable(id));
        // The cells people read use the one formatter, with their units.
        QCOMPARE(model.index(row, CompareTableModel::BisectionColumn).data().toString(),
                 fabriclab::views::bandwidthText(r.effective.gbps));
        QCOMPARE(model.index(row, CompareTableModel::BusBwColumn).data().toString(),
                 fabriclab::views::busBandwidthText(r.collective.busBwGBps));
        QCOMPARE(model.index(row, CompareTableModel::CapexColumn).data().toString(),
                 fabriclab::views::usdText(r.cost.capex.value));
        QVERIFY(model.index(row, CompareTableModel::BusBwColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("GB/s")));
    }

    // Sorting goes by the raw number: the cheapest capex first.
    auto* table = f.panel.findChild<QTableView*>(QStringLiteral("compareTable"));
    QVERIFY(table);
    table->sortByColumn(CompareTableModel::CapexColumn, Qt::AscendingOrder);
    double previous = -1;
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        const double capex = table->model()
                                 ->index(row, CompareTableModel::CapexColumn)
                                 .data(CompareTableModel::SortRole)
                                 .toDouble();
        QVERIFY(capex >= previous);
        previous = capex;
    }
    QCOMPARE(table->model()->index(0, 0).data(CompareTableModel::FabricIdRole).toString(),
             QStringLiteral("ethernet-tcp")); // $130,976 in the sample, the lowest
    // A design that serves no model shows no serving columns.
    QVERIFY(table->isColumnHidden(CompareTableModel::FirstTokenColumn));
    QVERIFY(table->isColumnHidden(CompareTableModel::ServedColumn));
}

void tst_ComparePanel::servingColumnsShowWhatTheEngineComputes() {
    const auto design = fabriclab::model::loadDesign(
        FABRICLAB_SOURCE_DIR "/samples/serving-disaggregated-32gpu-roce-2to1.fabric.json",
        Catalog::builtin());
    Fixture f(design);
    QSignalSpy finished(&f.controller, &CompareController::finished);
    f.panel.compareAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    auto* table = f.panel.findChild<QTableView*>(QStringLiteral("compareTable"));
    QVERIFY(table);
    QVERIFY(!table->isColumnHidden(CompareTableModel::FirstTokenColumn));
    QVERIFY(!table->isColumnHidden(CompareTableModel::ServedColumn));
    const CompareTableModel& model = *f.panel.tableModel();
    for (const QString& id : {QStringLiteral("roce-v2"), QStringLiteral("ib-ndr")}) {
        const RunReport r = runOn(f.document.design(), id.toStdString());
        QVERIFY(r.serving);
        const int row = rowOf(model, id);
        QVERIFY2(row >= 0, qPrintable(id));
        QVERIFY(
            same(number(model, row, CompareTableModel::FirstTokenColumn), r.serving->ttftSeconds));
        QVERIFY(same(number(model, row, CompareTableModel::ServedColumn),
                     r.serving->outputTokensPerSecondPerGpu));
    }
    // The verdict says whether the fabric matters for this serving design, in the model's
    // words.
    const auto result = finished.at(0).at(0).value<CompareResultPtr>();
    QVERIFY(!result->verdict.servingSentence.empty());
    QVERIFY(std::find(result->verdict.reasons.begin(), result->verdict.reasons.end(),
                      result->verdict.servingSentence) != result->verdict.reasons.end());
}

void tst_ComparePanel::verdictIsTheModelsVerdict() {
    Fixture f(sample());
    QSignalSpy finished(&f.controller, &CompareController::finished);
    f.controller.compare();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);

    std::vector<fabriclab::model::ComparedFabric> rows;
    for (const QString& id : f.controller.fabricsToRun())
        rows.push_back(compareOn(f.document.design(), id.toStdString()));
    const auto expected = fabriclab::model::comparisonVerdict(rows, f.document.design());
    QVERIFY(!expected.headline.empty());

    auto* headline = f.panel.findChild<QLabel*>(QStringLiteral("verdictHeadline"));
    auto* reasons = f.panel.findChild<QLabel*>(QStringLiteral("verdictReasons"));
    QVERIFY(headline && reasons);
    QCOMPARE(headline->text(), QString::fromStdString(expected.headline));
    for (const std::string& reason : expected.reasons)
        QVERIFY2(reasons->text().contains(QString::fromStdString(reason).toHtmlEscaped()),
                 reason.c_str());
    QCOMPARE(f.panel.chart()->caption(), QString::fromStdString(expected.headline));

    // The recommended fabric's row, and only it, is bold.
    const CompareTableModel& model = *f.panel.tableModel();
    for (int row = 0; row < model.rowCount(); ++row) {
        const bool recommended = model.index(row, 0).data(CompareTableModel::FabricIdRole) ==
                                 QString::fromStdString(expected.recommendedId);
        const QVariant font = model.index(row, CompareTableModel::StepColumn).data(Qt::FontRole);
        QCOMPARE(font.isValid() && font.value<QFont>().bold(), recommended);
    }
}

void tst_ComparePanel::aFabricThatCannotRunIsARow() {
    // In-network reduction (SHARP) asked for by name: only the InfiniBand fabrics have it,
    // so every Ethernet fabric refuses the collective.
    fabriclab::model::Design design = sample();
    design.collective->algorithm = fabriclab::model::CollectiveAlgorithm::Sharp;
    Fixture f(design);
    QSignalSpy finished(&f.controller, &CompareController::finished);
    f.controller.compare();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);

    const CompareTableModel& model = *f.panel.tableModel();
    QCOMPARE(model.rowCount(), f.controller.fabricsToRun().size());
    std::vector<fabriclab::model::ComparedFabric> rows;
    int ran = 0;
    for (const QString& id : f.controller.fabricsToRun()) {
        const int row = rowOf(model, id);
        const QString note = model.index(row, CompareTableModel::NoteColumn).data().toString();
        rows.push_back(compareOn(design, id.toStdString()));
        const auto& compared = rows.back();
        if (compared.ok()) {
            ++ran;
            QVERIFY2(same(number(model, row, CompareTableModel::StepColumn),
                          compared.report->step->stepSeconds),
                     qPrintable(id));
        } else {
            QVERIFY2(note.contains(QString::fromStdString(compared.error)), qPrintable(note));
            QVERIFY(!model.index(row, CompareTableModel::StepColumn)
                         .data(CompareTableModel::SortRole)
                         .isValid());
        }
    }
    QVERIFY(ran >= 2);                                 // IB NDR and XDR ran
    QVERIFY(ran < f.controller.fabricsToRun().size()); // others refused
    const auto expected = fabriclab::model::comparisonVerdict(rows, design);
    QCOMPARE(f.panel.findChild<QLabel*>(QStringLiteral("verdictHeadline"))->text(),
             QString::fromStdString(expected.headline));
    QCOMPARE(f.panel.chart()->table().rows.size(), qsizetype(ran));
}

void tst_ComparePanel::anEditDuringARunIsNeverShownAsCurrent() {
    Fixture f(sample());
    QSignalSpy finished(&f.controller, &CompareController::finished);
    QSignalSpy cancelled(&f.controller, &CompareController::cancelled);
    f.controller.compare();
    QVERIFY(f.controller.isRunning());
    // An edit before the event loop delivers anything: the runs are for the old design.
    const auto node = f.document.design().topology.nodes().begin()->first;
    f.document.moveNodes({{node, QPointF(40, 40)}});
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, kTimeoutMs);
    QVERIFY(!f.controller.isRunning());
    QCOMPARE(finished.count(), 0);
    QVERIFY(!f.controller.result());
    QCOMPARE(f.panel.tableModel()->rowCount(), 0);
    QVERIFY(f.panel.findChild<QLabel*>(QStringLiteral("verdictHeadline"))->text().isEmpty());

    // Comparing again runs the edited design.
    f.controller.compare();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QCOMPARE(f.controller.result()->revision, f.controller.revision());
}

void tst_ComparePanel::aShownComparisonGoesStaleOnAnEdit() {
    Fixture f(sample());
    QSignalSpy finished(&f.controller, &CompareController::finished);
    QSignalSpy cancelled(&f.controller, &CompareController::cancelled);
    QSignalSpy stale(&f.controller, &CompareController::staleChanged);
    auto* banner = f.panel.findChild<QLabel*>(QStringLiteral("staleBanner"));
    QVERIFY(banner);
    f.controller.compare();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QVERIFY(banner->isHidden());
    const quint64 shown = f.controller.result()->revision;

    // A second comparison overtaken by an edit: stopped, the first one stays, marked stale.
    f.controller.compare();
    const auto node = f.document.design().topology.nodes().begin()->first;
    f.document.moveNodes({{node, QPointF(40, 40)}});
    QVERIFY(f.controller.isStale());
    QCOMPARE(stale.count(), 1);
    QCOMPARE(stale.at(0).at(0).toBool(), true);
    QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, kTimeoutMs);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(f.controller.result()->revision, shown);
    QVERIFY(f.controller.result()->revision != f.controller.revision());
    QVERIFY(!banner->isHidden());
    QVERIFY(!f.panel.findChild<QLabel*>(QStringLiteral("verdictHeadline"))->isEnabled());

    f.panel.compareAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeoutMs);
    QVERIFY(!f.controller.isStale());
    QCOMPARE(stale.last().at(0).toBool(), false);
    QVERIFY(banner->isHidden());
    QVERIFY(f.panel.findChild<QLabel*>(QStringLiteral("verdictHeadline"))->isEnabled());
}

void tst_ComparePanel::chartDrawsEveryFabricAndExports() {
    Fixture f(sample());
    QSignalSpy finished(&f.controller, &CompareController::finished);
    f.controller.compare();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);

    const auto* chart = f.panel.chart();
    QCOMPARE(chart->name(), QStringLiteral("compare"));
    QVERIFY(chart->hasData());
    const fabriclab::views::ChartTable table = chart->table();
    QCOMPARE(table.rows.size(), f.controller.fabricsToRun().size());
    // Row by row the absolute figures drawn are the engine's for that fabric, in the
    // comparison's order (top to bottom).
    for (int i = 0; i < table.rows.size(); ++i) {
        const QStringList& row = table.rows.at(i);
        QCOMPARE(row.at(0), f.controller.fabricsToRun().at(i));
        const RunReport r = runOn(f.document.design(), row.at(0).toStdString());
        QCOMPARE(row.at(1), QString::fromStdString(r.fabric.name));
        QVERIFY(std::abs(row.at(2).toDouble() - r.step->stepSeconds) < 1e-6);
        // The CSV keeps six decimals of dollars per million tokens.
        QVERIFY(std::abs(row.at(3).toDouble() - r.ownership.perMillionTokensUsd) < 1e-6);
    }

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("compare.png"));
    const QString svg = dir.filePath(QStringLiteral("compare.svg"));
    const QString csv = dir.filePath(QStringLiteral("compare.csv"));
    QString error;
    QVERIFY2(chart->exportPng(png, &error), qPrintable(error));
    QVERIFY2(chart->exportSvg(svg, &error), qPrintable(error));
    QVERIFY2(chart->exportCsv(csv, &error), qPrintable(error));
    QVERIFY(!QImage(png).isNull());
    QVERIFY(QSvgRenderer(svg).isValid());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines =
        QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), table.rows.size() + 1);
    QCOMPARE(lines.first(), table.header.join(QLatin1Char(',')));
    QVERIFY(lines.first().startsWith(
        QStringLiteral("fabric,name,step time (s),lifetime cost per million tokens (USD)")));
}

void tst_ComparePanel::cloudFabricsAndRentalAreTheUsersChoice() {
    Fixture f(sample());
    QSignalSpy finished(&f.controller, &CompareController::finished);
    auto* cloud = f.panel.findChild<QCheckBox*>(QStringLiteral("includeCloudFabrics"));
    auto* mode = f.panel.findChild<QComboBox*>(QStringLiteral("ownershipMode"));
    QVERIFY(cloud && mode);
    QVERIFY(!cloud->isChecked());
    QVERIFY(!f.controller.fabricsToRun().contains(QStringLiteral("efa")));

    // Asked for, EFA joins, priced as AWS rents p5 instances (not bought as parts), and the
    // rest are rented at the GPU's own rate when the user picks rented GPUs.
    cloud->setChecked(true);
    mode->setCurrentIndex(
        mode->findData(static_cast<int>(fabriclab::model::OwnershipMode::Rented)));
    QCOMPARE(f.controller.fabricsToRun(), CompareController::fabricIds());
    f.controller.compare();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    const CompareTableModel& model = *f.panel.tableModel();
    const int efa = rowOf(model, QStringLiteral("efa"));
    QVERIFY(efa >= 0);
    const auto expected =
        compareOn(f.document.design(), "efa", fabriclab::model::OwnershipMode::Rented);
    QVERIFY(expected.ownership.cloudOffer);
    QVERIFY(same(number(model, efa, CompareTableModel::PerGpuHourColumn),
                 expected.ownership.perGpuHourUsd));
    QVERIFY(model.index(efa, CompareTableModel::PerGpuHourColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("AWS p5.48xlarge")));
    const int roce = rowOf(model, QStringLiteral("roce-v2"));
    QVERIFY(
        same(number(model, roce, CompareTableModel::PerGpuHourColumn),
             Catalog::builtin().prices().ownership.findGpu("h100-sxm")->rentalUsdPerGpuHour.value));

    // Either choice makes a shown comparison stale: it was priced the other way.
    cloud->setChecked(false);
    QVERIFY(f.controller.isStale());
}

QTEST_MAIN(tst_ComparePanel)
#include "tst_ComparePanel.moc"
