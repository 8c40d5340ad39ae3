// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The dashboard draws what the engine computed: each chart's table is compared with the
// report runDesign returns for the same design (never with constants); exports decode;
// playback colours the canvas only while it plays, with the engine's frame values.
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"
#include "views/canvas/LinkItem.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/charts/AcrossSitesChart.hpp"
#include "views/charts/BisectionChart.hpp"
#include "views/charts/BusBandwidthChart.hpp"
#include "views/charts/ChartPanel.hpp"
#include "views/charts/CostChart.hpp"
#include "views/charts/ScalingChart.hpp"
#include "views/charts/StepTimeChart.hpp"
#include "views/charts/ThroughputChart.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/sim/PlaybackClock.hpp"
#include "views/sim/ResultsDashboard.hpp"
#include "views/sim/SimulationController.hpp"

#include <QAbstractBarSeries>
#include <QAbstractSeries>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
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

/// The engine's run of a sample with the given options, without the scaling study.
RunResultPtr runSample(const char* name, fabriclab::model::RunOptions options) {
    const QString path =
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/%1.fabric.json").arg(QLatin1String(name));
    auto result = std::make_shared<RunResult>();
    result->design = std::make_shared<const fabriclab::model::Design>(
        fabriclab::model::loadDesign(path.toStdString(), Catalog::builtin()));
    result->report = fabriclab::model::runDesign(*result->design, Catalog::builtin(), options);
    return result;
}

fabriclab::model::RunOptions withDetail() {
    fabriclab::model::RunOptions options;
    options.detail = true;
    return options;
}

/// The colour of the bar set called `label` in a chart; invalid when there is none.
QColor barColour(const ChartPanel& chart, const QString& label) {
    for (QAbstractSeries* series : chart.chart()->series())
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
            for (QBarSet* set : bars->barSets())
                if (set->label().startsWith(label))
                    return set->color();
    return {};
}

/// The text of the first label inside `widget` that contains `text`; empty when none does.
QString labelWith(const QWidget& widget, const QString& text) {
    for (const QLabel* label : widget.findChildren<QLabel*>())
        if (label->text().contains(text))
            return label->text();
    return {};
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
    void partialRefusalKeepsWhatCanBeComputed();
    void routingKeepsItsColour();
    void oneUnitPerFigure();
    void singleSwitchMentionsNoDraws();
    void previewIsLabelledAndCompleted();
    void acrossSitesComesWithSites();
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
    // Then every other routing, in the report's order.
    QCOMPARE(bisection.header.size(), qsizetype(3 + r.otherRoutings.size()));
    for (std::size_t k = 0; k < r.otherRoutings.size(); ++k)
        QCOMPARE(cell(bisection, 0, 3 + static_cast<int>(k)),
                 std::round(r.otherRoutings[k].effective.gbps * 1e3) / 1e3);

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
    if (r.fabric.routing != fabriclab::model::Routing::Ecmp)
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
        if (chart != scalingChart && chart->name() != QLatin1String(AcrossSitesChart::kId))
            QVERIFY2(chart->hasData(), qPrintable(chart->name()));
}

void tst_ResultsDashboard::acrossSitesComesWithSites() {
    // The two-site sample: the chart carries the engine's figures, as the CLI rounds them,
    // and the dashboard shows it; a one-site design next takes it away again.
    const RunResultPtr sites = runSample("two-sites-diloco-2x1024gpu-ib-ndr", {});
    QVERIFY(sites->report.sites.has_value());
    const fabriclab::model::TrainingAcrossSites& t = *sites->report.sites;
    ResultsDashboard dashboard;
    dashboard.showResult(sites);
    dashboard.finishChartUpdates();
    auto* chart = chartOf<AcrossSitesChart>(dashboard);
    QVERIFY(chart->hasData());
    QVERIFY(chart->isVisibleTo(&dashboard));
    const ChartTable table = chart->table();
    QCOMPARE(table.rows.size(), qsizetype(2));
    QCOMPARE(cell(table, 0, 2), std::round(t.synchronous.stallSeconds * 1e6) / 1e6);
    QCOMPARE(cell(table, 1, 2), std::round(t.diloco.stallSeconds * 1e6) / 1e6);
    QCOMPARE(cell(table, 1, 3), std::round(t.diloco.stepSeconds * 1e6) / 1e6);
    QCOMPARE(cell(table, 0, 5), std::round(t.synchronous.trainSeconds / 86400 * 1e3) / 1e3);
    // Synchronous training waits on the WAN far longer than DiLoCo on this 200 Gb/s span.
    QVERIFY(t.synchronous.stallSeconds > 100 * t.diloco.stallSeconds);
    QVERIFY(chart->caption().contains(QStringLiteral("borrowed")));
    QVERIFY(dashboard.summaryText().contains(QStringLiteral("2 sites")));

    dashboard.showResult(runSample("teaching-4-servers", {}));
    dashboard.finishChartUpdates();
    QVERIFY(!chart->hasData());
    QVERIFY(!chart->isVisibleTo(&dashboard));
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
        if (chart->name() == QLatin1String(AcrossSitesChart::kId))
            continue; // figures only for a design with sites: acrossSitesComesWithSites
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
    for (ChartPanel* chart : dashboard.charts()) {
        QVERIFY(!chart->hasData());
        // No caption keeps describing the figures of the result before.
        QVERIFY2(chart->caption().isEmpty(), qPrintable(chart->caption()));
    }
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

void tst_ResultsDashboard::partialRefusalKeepsWhatCanBeComputed() {
    // One server's GPU count changed in the inspector: the workload's split no longer fits,
    // so the training step cannot be estimated. Bisection, the collective and the cost still
    // can: their charts stay, the step's says why, and no caption keeps old figures.
    using State = SimulationController::State;
    TopologyDocument document(Catalog::builtin());
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json"));
    SimulationController controller(document);
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Current, 30000);
    ResultsDashboard dashboard;
    dashboard.showResult(controller.result());
    dashboard.finishChartUpdates();
    const QString stepBefore = chartOf<StepTimeChart>(dashboard)->caption();
    QVERIFY(!stepBefore.isEmpty());

    const auto server = *document.topology().findNode("srv-1");
    fabriclab::model::Node edited = document.topology().node(server);
    edited.server.gpus = 4;
    document.editNode(server, edited);
    QTRY_VERIFY_WITH_TIMEOUT(controller.result()->revision == controller.revision() &&
                                 controller.state() != State::Running,
                             30000);
    const RunResultPtr result = controller.result();
    dashboard.showState(controller.state());
    dashboard.showResult(result);
    dashboard.finishChartUpdates();
    QVERIFY2(result->ok(), qPrintable(result->error));
    QCOMPARE(controller.state(), State::Current);
    QVERIFY(!result->report.step);
    QVERIFY(!result->report.stepRefusal.empty());
    const QString reason = QString::fromStdString(result->report.stepRefusal);

    // Kept: the charts the engine could compute, captioned with the new run's figures.
    for (ChartPanel* chart :
         QList<ChartPanel*>{chartOf<BisectionChart>(dashboard), chartOf<ThroughputChart>(dashboard),
                            chartOf<BusBandwidthChart>(dashboard), chartOf<CostChart>(dashboard)}) {
        QVERIFY2(chart->hasData(), qPrintable(chart->name()));
        QVERIFY2(!chart->caption().isEmpty(), qPrintable(chart->name()));
    }
    QCOMPARE(cell(chartOf<BisectionChart>(dashboard)->table(), 0, 2),
             std::round(result->report.effective.gbps * 1e3) / 1e3);
    // The collective's caption is the new run's (its ranks changed with the GPUs).
    const QString ranks =
        QStringLiteral("over %1 GPUs").arg(numberText(result->report.collective.ranks));
    QVERIFY(result->report.collective.ranks != 32);
    QVERIFY2(chartOf<ThroughputChart>(dashboard)->caption().contains(ranks),
             qPrintable(chartOf<ThroughputChart>(dashboard)->caption()));
    // Blanked: the step, with the engine's reason in its place and no stale caption.
    auto* step = chartOf<StepTimeChart>(dashboard);
    QVERIFY(!step->hasData());
    QVERIFY2(step->caption().isEmpty(), qPrintable(step->caption()));
    QVERIFY2(!labelWith(*step, reason.mid(1)).isEmpty(), qPrintable(reason));
    // The header has the figures there are and the reason for the one missing.
    const QString summary = dashboard.summaryText();
    QVERIFY2(summary.contains(QStringLiteral("28 GPUs")), qPrintable(summary));
    QVERIFY2(!summary.contains(QStringLiteral(" · step ")), qPrintable(summary));
    QVERIFY2(summary.contains(reason.mid(1).toHtmlEscaped()), qPrintable(summary));
}

void tst_ResultsDashboard::routingKeepsItsColour() {
    // Static ECMP is one colour, adaptive routing another and spraying a third in every
    // chart, whichever the fabric runs: RoCE (ECMP) and Spectrum-X (adaptive) side by side.
    ResultsDashboard roce;
    roce.showResult(runSample("teaching-4-servers", withDetail()));
    roce.finishChartUpdates();
    ResultsDashboard spectrum;
    spectrum.showResult(runSample("workshop-16gpu-leaf-spine", withDetail()));
    spectrum.finishChartUpdates();
    const auto* a = chartOf<BisectionChart>(roce);
    const auto* b = chartOf<BisectionChart>(spectrum);
    const QString ecmp = QStringLiteral("ECMP");
    const QString adaptive = QStringLiteral("adaptive");
    const QString spraying = QStringLiteral("spraying");
    QVERIFY(barColour(*a, ecmp).isValid() && barColour(*b, ecmp).isValid());
    QVERIFY(barColour(*a, adaptive).isValid() && barColour(*b, adaptive).isValid());
    QCOMPARE(barColour(*a, ecmp), barColour(*b, ecmp));
    QCOMPARE(barColour(*a, adaptive), barColour(*b, adaptive));
    QVERIFY(barColour(*a, ecmp) != barColour(*a, adaptive));
    QCOMPARE(barColour(*a, ecmp), ChartPanel::routingColor(fabriclab::model::Routing::Ecmp));
    QCOMPARE(barColour(*a, spraying), barColour(*b, spraying));
    QCOMPARE(barColour(*a, spraying), ChartPanel::routingColor(fabriclab::model::Routing::Spray));
    QVERIFY(barColour(*a, spraying) != barColour(*a, ecmp) &&
            barColour(*a, spraying) != barColour(*a, adaptive));
    // The bus-bandwidth chart's band is what ECMP's hashes do: the ECMP colour too.
    QColor band;
    for (QAbstractSeries* series : chartOf<BusBandwidthChart>(roce)->chart()->series())
        if (auto* area = qobject_cast<QAreaSeries*>(series))
            band = area->brush().color();
    QVERIFY(band.isValid());
    QCOMPARE(band.rgb(), barColour(*a, ecmp).rgb());
}

void tst_ResultsDashboard::oneUnitPerFigure() {
    // A figure and its spread or range share one unit: "196.6 ± 0 Tb/s", never
    // "196.6 Tb/s ± 0 Gb/s"; thousands are grouped in text and on the charts' axes.
    ResultsDashboard dashboard;
    dashboard.showResult(runSample("spectrum-x-1024gpu-rail", withDetail()));
    dashboard.finishChartUpdates();
    const QString summary = dashboard.summaryText();
    const QRegularExpression mixed(QStringLiteral("[TG]b/s ± "));
    QVERIFY2(!summary.contains(mixed), qPrintable(summary));
    QVERIFY2(summary.contains(QRegularExpression(QStringLiteral("[0-9] ± [0-9.,]+ Tb/s"))),
             qPrintable(summary));
    const QString caption = chartOf<BisectionChart>(dashboard)->caption();
    QVERIFY2(!caption.contains(QRegularExpression(QStringLiteral("[TG]b/s to [0-9]"))),
             qPrintable(caption));
    QVERIFY2(caption.contains(QRegularExpression(QStringLiteral("[0-9] to [0-9.,]+ Tb/s"))),
             qPrintable(caption));
    // Axis labels ("8000" Tb/s on the bisection chart) are written as the text is.
    for (ChartPanel* chart : dashboard.charts()) {
        QVERIFY2(chart->chart()->localizeNumbers(), qPrintable(chart->name()));
        QCOMPARE(chart->chart()->locale().toString(8000.0, 'f', 0), numberText(8000));
    }
}

void tst_ResultsDashboard::singleSwitchMentionsNoDraws() {
    // One leaf and RoCE's static ECMP: every flow has one path, so there is no hash luck to
    // draw and nothing may speak of draws. Two tiers on the same fabric still do.
    ResultsDashboard dashboard;
    const RunResultPtr single = runSample("article000-64gpu-roce-v2", withDetail());
    QCOMPARE(single->report.switches.leaf + single->report.switches.spine, 1);
    dashboard.showResult(single);
    dashboard.finishChartUpdates();
    QVERIFY2(!dashboard.summaryText().contains(QStringLiteral("draws")),
             qPrintable(dashboard.summaryText()));
    QVERIFY2(!chartOf<BusBandwidthChart>(dashboard)->caption().contains(QStringLiteral("draws")),
             qPrintable(chartOf<BusBandwidthChart>(dashboard)->caption()));
    QCOMPARE(single->report.collective.ecmpDraws, 1);

    dashboard.showResult(runSample("teaching-4-servers", withDetail()));
    dashboard.finishChartUpdates();
    QVERIFY2(dashboard.summaryText().contains(QStringLiteral("ECMP draws")),
             qPrintable(dashboard.summaryText()));
}

void tst_ResultsDashboard::previewIsLabelledAndCompleted() {
    // The app's live run draws the effective bisection fewer times on a large design than
    // fabriclab-cli run does: the figure says it is a preview, and the full figure, the
    // CLI's to the digit, takes its place once computed.
    fabriclab::model::GeneratorParams p;
    p.servers = 1024;
    p.gpusPerServer = 1;
    p.nicsPerServer = 1;
    p.railOptimized = false;
    fabriclab::model::Design design;
    design.name = "1,024 single-NIC servers on RoCE";
    design.fabric.spec = *Catalog::builtin().findFabric("roce-v2");
    design.generator = p;
    design.topology = fabriclab::model::generateLeafSpine(p);
    const int draws = fabriclab::model::interactiveBisectionSeeds(design.topology.serverCount());
    QVERIFY(draws < fabriclab::model::RunOptions{}.bisectionSeeds);

    auto preview = std::make_shared<RunResult>();
    preview->design = std::make_shared<const fabriclab::model::Design>(design);
    fabriclab::model::RunOptions options; // as the app runs it
    options.detail = true;
    options.bisectionSeeds = draws;
    preview->report = fabriclab::model::runDesign(design, Catalog::builtin(), options);
    const auto cli = fabriclab::model::runDesign(design, Catalog::builtin());

    ResultsDashboard dashboard;
    QSignalSpy completed(&dashboard, &ResultsDashboard::fullBisectionShown);
    dashboard.showResult(preview);
    dashboard.finishChartUpdates();
    const QString label = QStringLiteral("%1-draw preview").arg(draws);
    QVERIFY2(dashboard.summaryText().contains(label), qPrintable(dashboard.summaryText()));
    QVERIFY2(chartOf<BisectionChart>(dashboard)->caption().contains(label),
             qPrintable(chartOf<BisectionChart>(dashboard)->caption()));

    QTRY_COMPARE_WITH_TIMEOUT(completed.count(), 1, 60000);
    const ChartTable bisection = chartOf<BisectionChart>(dashboard)->table();
    QCOMPARE(cell(bisection, 0, 2), std::round(cli.effective.gbps * 1e3) / 1e3);
    QVERIFY(!dashboard.showsBisectionPreview());
    QVERIFY2(!dashboard.summaryText().contains(QStringLiteral("preview")),
             qPrintable(dashboard.summaryText()));
    QVERIFY2(dashboard.summaryText().contains(
                 bandwidthSpreadText(cli.effective.gbps, cli.effective.stddevGbps)),
             qPrintable(dashboard.summaryText()));
}

QTEST_MAIN(tst_ResultsDashboard)
#include "tst_ResultsDashboard.moc"
