// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// A team's nccl-tests log against FabricLab on the design it ran on. The prediction for each
// row is runNcclTests' own (what `fabriclab-cli nccl-tests` prints) at the row's size, on as
// many servers as the run had hosts; FabricLab's own printed table read back as a log meets
// itself to the printing's rounding; the error and the tolerance are the check set's; a
// design that cannot stand for the cluster is refused with the log's line.
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/NcclTestsLog.hpp"
#include "model/io/TextFile.hpp"
#include "model/report/NcclTests.hpp"
#include "model/validation/MeasuredLog.hpp"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cstdio>

using namespace fabriclab::model;

namespace {

/// A rail-optimized, non-blocking NDR leaf-spine of `servers` x `gpus` H100, as the
/// validation suite's clusters are drawn.
Design cluster(int servers, int gpus) {
    const nlohmann::json design = {
        {"format", "fabriclab-design"},
        {"version", 1},
        {"name", std::to_string(servers) + " x " + std::to_string(gpus) + " H100"},
        {"fabric", "ib-ndr"},
        {"generator",
         {{"kind", "leaf-spine"},
          {"servers", servers},
          {"gpusPerServer", gpus},
          {"nicsPerServer", gpus},
          {"nicGbps", 400},
          {"railOptimized", true},
          {"leafRadix", 64},
          {"spineRadix", 64},
          {"oversubscription", 1}}}};
    return parseDesign(design.dump(), "cluster", Catalog::builtin());
}

std::string fixture(const char* name) {
    return readTextFile(std::string(FABRICLAB_SOURCE_DIR "/tests/io/fixtures/") + name, 1 << 24,
                        "fixture");
}

std::string errorOf(const std::function<void()>& call) {
    try {
        call();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(accepted)";
}

} // namespace

class tst_MeasuredLog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tolerances_data();
    void tolerances();
    void ownTableReadsBackAsItself_data();
    void ownTableReadsBackAsItself();
    void errorIsOfTheMeasurement_data();
    void errorIsOfTheMeasurement();
    void realLogRowByRow();
    void clusterMustFitTheDesign();
};

void tst_MeasuredLog::tolerances_data() {
    // The check set's goals (docs/sources.md): time below 1 MiB within 25%; busbw from
    // 1 MiB within 25%, from 1 GiB within 10%, all-to-all within 20%.
    QTest::addColumn<int>("op");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<bool>("byTime");
    QTest::addColumn<double>("tolerance");
    const int allReduce = int(CollectiveOp::AllReduce);
    const int allToAll = int(CollectiveOp::AllToAll);
    QTest::newRow("8 B") << allReduce << 8.0 << true << 0.25;
    QTest::newRow("1 MiB - 1") << allReduce << 1048575.0 << true << 0.25;
    QTest::newRow("1 MiB") << allReduce << 1048576.0 << false << 0.25;
    QTest::newRow("1 GiB - 1") << allReduce << 1073741823.0 << false << 0.25;
    QTest::newRow("1 GiB") << allReduce << 1073741824.0 << false << 0.10;
    QTest::newRow("all-to-all 64 KiB") << allToAll << 65536.0 << true << 0.25;
    QTest::newRow("all-to-all 16 GiB") << allToAll << 17179869184.0 << false << 0.20;
}

void tst_MeasuredLog::tolerances() {
    QFETCH(int, op);
    QFETCH(double, bytes);
    QFETCH(bool, byTime);
    QFETCH(double, tolerance);
    const MeasuredTolerance t = measuredTolerance(static_cast<CollectiveOp>(op), bytes);
    QCOMPARE(t.byTime, byTime);
    QCOMPARE(t.relative, tolerance);
}

void tst_MeasuredLog::ownTableReadsBackAsItself_data() {
    QTest::addColumn<int>("servers");
    QTest::addColumn<int>("op");
    QTest::addColumn<int>("seed");
    for (const int servers : {1, 2, 4, 16})
        for (const CollectiveOp op : {CollectiveOp::AllReduce, CollectiveOp::AllGather,
                                      CollectiveOp::AllToAll, CollectiveOp::SendRecv})
            for (const int seed : {1, 7})
                QTest::addRow("%d servers, %s, seed %d", servers, toString(op).data(), seed)
                    << servers << int(op) << seed;
}

void tst_MeasuredLog::ownTableReadsBackAsItself() {
    // The table `fabriclab-cli nccl-tests` prints, read as a log and set against the same
    // design: every size meets itself to the printing's rounding, half of 0.1 us on a time
    // and of 0.01 GB/s on a bus bandwidth (1e-9 more for the doubles' own rounding).
    QFETCH(int, servers);
    QFETCH(int, op);
    QFETCH(int, seed);
    const Design design = cluster(servers, 8);
    const Catalog& catalog = Catalog::builtin();
    NcclTestsOptions options;
    options.op = static_cast<CollectiveOp>(op);
    options.seed = static_cast<std::uint64_t>(seed);
    const NcclTestsReport printed = runNcclTests(design, catalog, options);
    const NcclTestsLog log = readNcclTestsLog(formatNcclTests(printed), "own.txt");
    MeasuredOptions measured;
    measured.op = options.op; // the table does not name its binary
    measured.seed = options.seed;
    const MeasuredComparison c = compareMeasured(design, catalog, log, "own.txt", measured);
    QCOMPARE(c.runs.size(), std::size_t(1));
    QCOMPARE(c.runs[0].servers, servers);
    QCOMPARE(c.runs[0].gpusPerServer, 8);
    QCOMPARE(c.compared, static_cast<int>(printed.rows.size()));
    for (const MeasuredPoint& p : c.runs[0].points) {
        const double gap = p.byTime ? std::abs(p.predictedTimeUs - p.measuredTimeUs) - 0.05
                                    : std::abs(p.predictedBusBwGBps - p.measuredBusBwGBps) - 0.005;
        QVERIFY2(gap <= 1e-9, qPrintable(QStringLiteral("%1 B: %2").arg(p.bytes).arg(p.error)));
        QVERIFY(p.within);
    }
}

void tst_MeasuredLog::errorIsOfTheMeasurement_data() {
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("scale"); // measured = FabricLab's figure x scale
    QTest::addColumn<bool>("within");
    // busbw from 1 MiB: error = 1/scale - 1.
    QTest::newRow("1 GiB, measured 5% higher") << 1073741824.0 << 1.05 << true;
    QTest::newRow("1 GiB, measured 20% lower") << 1073741824.0 << 0.80 << false;
    QTest::newRow("64 MiB, measured 20% lower") << 67108864.0 << 0.80 << true;
    // Time below 1 MiB: error = 1/scale - 1 as well (a longer time, a larger scale).
    QTest::newRow("4 KiB, measured 30% slower") << 4096.0 << 1.30 << true;
    QTest::newRow("4 KiB, measured 40% faster") << 4096.0 << 0.60 << false;
}

void tst_MeasuredLog::errorIsOfTheMeasurement() {
    QFETCH(double, bytes);
    QFETCH(double, scale);
    QFETCH(bool, within);
    const Design design = cluster(4, 8);
    const Catalog& catalog = Catalog::builtin();
    NcclTestsOptions options;
    options.sizes = {bytes};
    const NcclTestsRow p = runNcclTests(design, catalog, options).rows.front();
    const bool byTime = bytes < 1048576;
    // A measured row: the busbw (or, below 1 MiB, the time) scaled, the rest as predicted.
    char row[256];
    std::snprintf(row, sizeof row, "  %.0f %.0f float sum -1 %.6f %.6f %.6f 0 %.6f %.6f %.6f 0\n",
                  bytes, bytes / 4, byTime ? p.timeUs * scale : p.timeUs, p.algBwGBps,
                  byTime ? p.busBwGBps : p.busBwGBps * scale, p.timeUs, p.algBwGBps, p.busBwGBps);
    const std::string log = "# Collective test starting: all_reduce_perf\n" + std::string(row);
    const MeasuredComparison c = compareMeasured(design, catalog, readNcclTestsLog(log, "l"), "l");
    const MeasuredPoint& point = c.runs.front().points.front();
    QCOMPARE(point.byTime, byTime);
    QVERIFY(qAbs(point.error - (1 / scale - 1)) < 1e-6);
    QCOMPARE(point.within, within);
}

void tst_MeasuredLog::realLogRowByRow() {
    // The public 10 x 8 H100 log: five runs, every row compared on the design's first ten
    // servers, each prediction the one runNcclTests gives at that size.
    const Design design = cluster(12, 8);
    const Catalog& catalog = Catalog::builtin();
    const NcclTestsLog log = readNcclTestsLog(fixture("h100-10x8.nccl-tests.log"), "log");
    const MeasuredComparison c = compareMeasured(design, catalog, log, "log");
    QCOMPARE(c.runs.size(), std::size_t(5));
    QCOMPARE(c.compared, 50);
    for (const MeasuredRun& run : c.runs) {
        QCOMPARE(run.servers, 10);
        QCOMPARE(run.ranks, 80);
        QVERIFY2(run.notes.empty(), run.notes.empty() ? "" : run.notes.front().c_str());
        NcclTestsOptions options;
        options.op = run.op;
        options.servers = 10;
        options.sizes = {run.points[3].bytes};
        const NcclTestsRow expected = runNcclTests(design, catalog, options).rows.front();
        QCOMPARE(run.points[3].predictedBusBwGBps, expected.busBwGBps);
        QCOMPARE(run.points[3].predictedTimeUs, expected.timeUs);
    }
    // Every row has its line in the file.
    QCOMPARE(c.runs[0].points.front().line, 92);
}

void tst_MeasuredLog::clusterMustFitTheDesign() {
    const Catalog& catalog = Catalog::builtin();
    const NcclTestsLog real = readNcclTestsLog(fixture("h100-10x8.nccl-tests.log"), "real.log");
    QVERIFY(errorOf([&] {
                compareMeasured(cluster(2, 8), catalog, real, "real.log");
            }).starts_with("real.log:1: the run used 10 servers (80 ranks); the design has 2"));
    const NcclTestsLog v100 = readNcclTestsLog(fixture("v100-2x4-tagged.nccl-tests.log"), "v.log");
    const std::string perHost =
        errorOf([&] { compareMeasured(cluster(2, 8), catalog, v100, "v.log"); });
    QVERIFY2(perHost.find("the run used 4 GPUs per host; the design's servers have 8") !=
                 std::string::npos,
             perHost.c_str());
    // On 4-GPU servers it runs, and says the GPUs differ.
    const MeasuredComparison onFour = compareMeasured(cluster(2, 4), catalog, v100, "v.log");
    QCOMPARE(onFour.runs.front().notes.size(), std::size_t(1));
    QVERIFY(onFour.runs.front().notes.front().starts_with("measured on Tesla V100-SXM2-32GB"));
    // Nothing names the collective: asked for.
    const NcclTestsLog unnamed =
        readNcclTestsLog("#  size count type redop root time algbw busbw #wrong\n"
                         "  1048576 262144 float none -1 100.0 10.49 9.18 0\n",
                         "u.log");
    QVERIFY_THROWS_EXCEPTION(UnknownCollective,
                             compareMeasured(cluster(2, 8), catalog, unnamed, "u.log"));
    // A collective FabricLab does not model.
    const NcclTestsLog reduce = readNcclTestsLog(
        "# Collective test starting: reduce_perf\n  1048576 262144 float sum 0 100 10.49 10.49 0\n",
        "r.log");
    QVERIFY(errorOf([&] {
                compareMeasured(cluster(2, 8), catalog, reduce, "r.log");
            }).starts_with("r.log:1: reduce_perf times a collective FabricLab does not model"));
}

QTEST_APPLESS_MAIN(tst_MeasuredLog)
#include "tst_MeasuredLog.moc"
