// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The dashboard draws what the engine computed: each chart's table is compared with the
// report runDesign returns for the same design (never with constants); exports decode;
// playback colours the canvas only while it plays, with the engine's frame values.
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"
#include "views/canvas/LinkItem.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/charts/BisectionChart.hpp"
#include "views/charts/BusBandwidthChart.hpp"
#include "views/charts/ChartPanel.hpp"
#include "views/charts/CostChart.hpp"
#include "views/charts/ScalingChart.hpp"
#include "views/charts/StepTimeChart.hpp"
#include "views/charts/ThroughputChart.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/PlaybackClock.hpp"
#include "views/sim/ResultsDashboard.hpp"

#include <QAbstractSeries>
#include <QChart>
#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using fabriclab::model::Catalog;
using namespace fabriclab::views;

namespace {

struct Fixture {
    TopologyDocument document{Catalog::builtin()};
    RunResultPtr result;
    ScalingStudyPtr scaling;
};

/// The engine's own run of the document's design, with the detail the app asks for.
std::unique_ptr<Fixture> runAdopted(std::unique_ptr<Fixture> f) {
    auto result = std::make_shared<RunResult>();
    fabriclab::model::RunOptions options;
    options.detail = true;
    result->design = f->document.snapshot();
    result->report = fabriclab::model::runDesign(*result->design, Catalog::builtin(), options);
    f->result = result;
    f->scaling = std::make_shared<const fabriclab::model::ScalingStudy>(
        fabriclab::model::scalingStudy(*result->design, Catalog::builtin()));
    return f;
}

/// The engine's own run of a sample.
std::unique_ptr<Fixture> run(const char* name) {
    auto f = std::make_unique<Fixture>();
    const QString path =
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/%1.fabric.json").arg(QLatin1String(name));
    f->document.adopt(fabriclab::model::loadDesign(path.toStdString(), Catalog::builtin()), path);
    return runAdopted(std::move(f));
}

/// The engine's own run of four p5-class servers (8 H100, 32 x 100G EFA).
std::unique_ptr<Fixture> runP5() {
    auto f = std::make_unique<Fixture>();
    const nlohmann::json design = {{"format", "fabriclab-design"},
                                   {"version", 1},
                                   {"name", "4 x p5"},
                                   {"fabric", "efa"},
                                   {"generator",
                                    {{"kind", "leaf-spine"},
                                     {"servers", 4},
                                     {"gpusPerServer", 8},
                                     {"nicsPerServer", 32},
                                     {"nicGbps", 100},
                                     {"railOptimized", true},
                                     {"leafRadix", 64},
                                     {"spineRadix", 64},
                                     {"oversubscription", 1.0}}},
                                   {"workload",
                                    {{"model", "llama3-8b"},
                                     {"gpu", "h100-sxm"},
                                     {"globalBatchTokens", 4194304},
                                     {"tp", 8},
                                     {"pp", 1},
                                     {"dp", 4}}}};
    f->document.adopt(fabriclab::model::parseDesign(design.dump(), "4 x p5", Catalog::builtin()),
                      QString());
    return runAdopted(std::move(f));
}

template <typename Chart> Chart* chartOf(const ResultsDashboard& dashboard) {
    for (ChartPanel* chart : dashboard.charts())
        if (auto* typed = qobject_cast<Chart*>(chart))
            return typed;
    return nullptr;
}

double cell(const ChartTable& table, int row, int column) {
    return table.rows.at(row).at(column).toDouble();
}

} // namespace

class tst_ResultsDashboard : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void chartsCarryTheEngineSeries_data();
    void chartsCarryTheEngineSeries();
    void exportsDecode();
    void playbackColoursLinksOnlyWhilePlaying();
    void refusalClearsTheCharts();
    void summaryNamesWhoChose();
};

void tst_ResultsDashboard::chartsCarryTheEngineSeries_data() {
    QTest::addColumn<QString>("design");
    QTest::addRow("4 servers, ECMP") << QStringLiteral("teaching-4-servers");
    QTest::addRow("512 GPUs, RoCE 2:1, MoE") << QStringLiteral("roce-v2-moe-2to1");
    QTest::addRow("1,024 GPUs, adaptive") << QStringLiteral("spectrum-x-1024gpu-rail");
}

void tst_ResultsDashboard::chartsCarryTheEngineSeries() {
    QFETCH(QString, design);
    const auto f = run(design.toUtf8().constData());
    const auto& r = f->result->report;
    ResultsDashboard dashboard;
    dashboard.showResult(f->result);
    dashboard.finishChartUpdates();
    dashboard.showScaling(f->scaling);

    // Bisection: first bar is the min cut and the delivered bisection, as the CLI prints
    // them (rounded to 3 decimals there and here).
    const ChartTable bisection = chartOf<BisectionChart>(dashboard)->table();
    QCOMPARE(cell(bisection, 0, 1), std::round(r.bisection.minCut.value * 1e3) / 1e3);
    QCOMPARE(cell(bisection, 0, 2), std::round(r.effective.gbps * 1e3) / 1e3);
    QCOMPARE(cell(bisection, 0, 3), std::round(r.otherRouting->gbps * 1e3) / 1e3);

    // Bus bandwidth: one row per engine point, same values.
    const ChartTable busbw = chartOf<BusBandwidthChart>(dashboard)->table();
    QCOMPARE(busbw.rows.size(), static_cast<qsizetype>(r.busBwCurve.size()));
    for (int i = 0; i < busbw.rows.size(); ++i) {
        const auto& p = r.busBwCurve[static_cast<std::size_t>(i)];
        QCOMPARE(cell(busbw, i, 0), p.bytes);
        QCOMPARE(cell(busbw, i, 3), std::round(p.busBwGBps * 1e3) / 1e3);
        // The ECMP band's edges are the engine's slowest and fastest draws.
        QCOMPARE(cell(busbw, i, 5), std::round(p.busBwMinGBps * 1e3) / 1e3);
        QCOMPARE(cell(busbw, i, 6), std::round(p.busBwMaxGBps * 1e3) / 1e3);
    }
    // The band is drawn exactly when the engine drew several sets of hash keys: the
    // teaching sample's all-reduce over 4 servers on static ECMP, never adaptive routing.
    const bool drawn = std::any_of(r.busBwCurve.begin(), r.busBwCurve.end(),
                                   [](const auto& p) { return p.ecmpDraws > 1; });
    if (design == QStringLiteral("teaching-4-servers"))
        QVERIFY(drawn);
    if (r.fabric.routing == fabriclab::model::Routing::Adaptive)
        QVERIFY(!drawn);
    bool banded = false;
    for (const QAbstractSeries* series : chartOf<BusBandwidthChart>(dashboard)->chart()->series())
        banded = banded || series->type() == QAbstractSeries::SeriesTypeArea;
    QCOMPARE(banded, drawn);

    // Throughput: the playback frames drawn as steps (2 points per frame but the first).
    const ChartTable throughput = chartOf<ThroughputChart>(dashboard)->table();
    const auto& playback = *r.playback;
    if (playback.seconds > 0 && playback.frameCount() > 0) {
        QCOMPARE(throughput.rows.size(), static_cast<qsizetype>(2 * playback.frameCount() - 1));
        QCOMPARE(cell(throughput, 0, 1), std::round(playback.throughputGbps[0] * 1e3) / 1e3);
    }

    // Step: compute, then every part the step waits on, add up to the step time.
    if (r.step) {
        const ChartTable step = chartOf<StepTimeChart>(dashboard)->table();
        double critical = 0;
        for (int i = 0; i < step.rows.size(); ++i)
            critical += cell(step, i, 1);
        // Each row is rounded to 1 µs for CSV: allow one rounding per row.
        QVERIFY(std::abs(critical - r.step->stepSeconds) <= 1e-6 * step.rows.size());
        // The "inside MFU" row is the fabric traffic's time on the ideal fabric, as the
        // engine reports it, not a share the view works out.
        double insideMfu = 0;
        for (int i = 0; i < step.rows.size(); ++i)
            insideMfu += cell(step, i, 2);
        QVERIFY(std::abs(insideMfu - r.step->idealCommSeconds) <= 1e-6 * step.rows.size());
    }

    // Cost: the bill of materials line by line, adding up to the capex.
    const ChartTable cost = chartOf<CostChart>(dashboard)->table();
    QCOMPARE(cost.rows.size(), static_cast<qsizetype>(r.cost.bom.size()));
    double total = 0;
    for (int i = 0; i < cost.rows.size(); ++i)
        total += cell(cost, i, 5);
    QVERIFY(std::abs(total - r.cost.capex.value) < 0.01 * cost.rows.size());
    // Scaling: the study's points, fabric by fabric; a hand-drawn design (no generator)
    // has none, and the chart says why instead of drawing.
    const auto* scalingChart = chartOf<ScalingChart>(dashboard);
    const ChartTable scaling = scalingChart->table();
    QCOMPARE(scaling.rows.size(), static_cast<qsizetype>(f->scaling->points.size()));
    for (int i = 0; i < scaling.rows.size(); ++i) {
        const auto& p = f->scaling->points[static_cast<std::size_t>(i)];
        QCOMPARE(scaling.rows[i][0], QString::fromStdString(p.fabricId));
        QCOMPARE(cell(scaling, i, 2), static_cast<double>(p.gpus));
        QCOMPARE(cell(scaling, i, 3), std::round(p.stepSeconds * 1e6) / 1e6);
    }
    QCOMPARE(scalingChart->hasData(), !f->scaling->points.empty());
    for (ChartPanel* chart : dashboard.charts())
        if (chart != scalingChart)
            QVERIFY2(chart->hasData(), qPrintable(chart->name()));
}

void tst_ResultsDashboard::exportsDecode() {
    const auto f = run("teaching-4-servers");
    ResultsDashboard dashboard;
    dashboard.resize(1400, 700);
    dashboard.showResult(f->result);
    dashboard.finishChartUpdates();
    // A generated design, so the scaling chart has points to export too.
    dashboard.showScaling(run("spectrum-x-1024gpu-rail")->scaling);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (ChartPanel* chart : dashboard.charts()) {
        const QString stem = dir.filePath(chart->name());
        QString error;
        QVERIFY2(chart->exportPng(stem + QStringLiteral(".png"), &error), qPrintable(error));
        QVERIFY2(chart->exportSvg(stem + QStringLiteral(".svg"), &error), qPrintable(error));
        QVERIFY2(chart->exportCsv(stem + QStringLiteral(".csv"), &error), qPrintable(error));
        QImage png(stem + QStringLiteral(".png"));
        QVERIFY(!png.isNull() && png.width() >= 300);
        QVERIFY(QSvgRenderer(stem + QStringLiteral(".svg")).isValid());
        QFile csv(stem + QStringLiteral(".csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QString header = QString::fromUtf8(csv.readLine()).trimmed();
        QCOMPARE(header, toCsv({chart->table().header, {}}).trimmed());
        QVERIFY(!csv.readLine().isEmpty()); // at least one row of numbers
    }
    // A folder that cannot be written to is refused with a sentence, not a crash.
    QString error;
    QVERIFY(
        !dashboard.charts().front()->exportCsv(QStringLiteral("/nonexistent/dir/x.csv"), &error));
    QVERIFY(error.contains(QStringLiteral("/nonexistent/dir/x.csv")));
}

void tst_ResultsDashboard::playbackColoursLinksOnlyWhilePlaying() {
    const auto f = run("teaching-4-servers");
    TopologyScene scene(f->document);
    ResultsDashboard dashboard;
    dashboard.setScene(&scene);
    dashboard.showState(SimulationController::State::Current);
    dashboard.showResult(f->result);
    dashboard.finishChartUpdates();
    const auto& playback = *f->result->report.playback;
    QVERIFY(playback.frameCount() > 1);
    QVERIFY(!scene.hasLinkHeat()); // at rest: the design as drawn

    // Seek into the first frame with traffic: the scene shows that frame's values.
    const double t = playback.times[0] + (playback.times[1] - playback.times[0]) / 2;
    dashboard.clock().seek(t);
    QVERIFY(scene.hasLinkHeat());
    // Back to the start: colours go.
    dashboard.clock().seek(0);
    QVERIFY(!scene.hasLinkHeat());
    // A stale result never colours today's links.
    dashboard.clock().seek(t);
    dashboard.showState(SimulationController::State::Stale);
    QVERIFY(!scene.hasLinkHeat());
}

void tst_ResultsDashboard::refusalClearsTheCharts() {
    auto refused = std::make_shared<RunResult>();
    refused->error = QStringLiteral("cannot evaluate this design: it has no servers");
    ResultsDashboard dashboard;
    dashboard.showResult(run("teaching-4-servers")->result);
    dashboard.showResult(refused);
    dashboard.finishChartUpdates();
    for (ChartPanel* chart : dashboard.charts())
        QVERIFY(!chart->hasData());
    QVERIFY(dashboard.summaryText().contains(QStringLiteral("no servers")));
    QCOMPARE(dashboard.clock().duration(), 0.0);
}

void tst_ResultsDashboard::summaryNamesWhoChose() {
    // The summary says who picked the collective's algorithm and protocol, as the engine's
    // report records it: NCCL's cost model, or the tuner plugin EFA jobs load.
    ResultsDashboard dashboard;
    const auto roce = run("teaching-4-servers");
    QCOMPARE(roce->result->report.collective.chosenBy, std::string("nccl"));
    dashboard.showResult(roce->result);
    QVERIFY2(!dashboard.summaryText().contains(QStringLiteral("chosen by")),
             qPrintable(dashboard.summaryText()));

    const auto efa = runP5();
    QCOMPARE(efa->result->report.collective.chosenBy, std::string("aws-ofi-nccl"));
    dashboard.showResult(efa->result);
    QVERIFY2(dashboard.summaryText().contains(QStringLiteral("chosen by aws-ofi-nccl's tuner")),
             qPrintable(dashboard.summaryText()));
}

QTEST_MAIN(tst_ResultsDashboard)
#include "tst_ResultsDashboard.moc"
