// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// nccl-tests output read as the tools write it. A real log of five runs on 10 x 8 H100
// (tests/io/fixtures, source in docs/sources.md) reads run by run with the values it prints;
// an older build's log under mpirun --tag-output with NCCL's INFO lines between the rows,
// and a -J JSON file written to the layout of nccl-tests' own writer, read alike; bad files
// are refused with the file and the line.
#include "model/io/FabricImport.hpp"
#include "model/core/JsonCursor.hpp"
#include "model/io/NcclTestsLog.hpp"
#include "model/io/TextFile.hpp"

#include <QtTest>

using namespace fabriclab::model;

namespace {

std::string fixture(const char* name) {
    return readTextFile(std::string(FABRICLAB_SOURCE_DIR "/tests/io/fixtures/") + name, 1 << 24,
                        "fixture");
}

/// A log of one all-gather run, current layout, with `rows` in place of its table.
std::string allGatherLog(const std::string& rows) {
    return "# nccl-tests version 2.17.9 nccl-headers=22602 nccl-library=22602\n"
           "# Collective test starting: all_gather_perf\n"
           "# nThread 1 nGpus 8 minBytes 8 maxBytes 1024 step: 2(factor) warmup iters: 5\n"
           "#  Rank  0 Group  0 Pid   1 on host-a device  0 [0000:29:00] NVIDIA H100 80GB HBM3\n"
           "#       size         count      type   redop    root     time   algbw   busbw "
           "#wrong     time   algbw   busbw #wrong\n" +
           rows;
}

} // namespace

class tst_NcclTestsLog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void realLogOfFiveRuns();
    void olderBuildUnderMpiTags();
    void jsonFileOfMinusJ();
    void jsonFileOfAnOlderWriter();
    void collectiveFromTheBinaryName_data();
    void collectiveFromTheBinaryName();
    void allReduceKnownByItsBusFactor();
    void badInput_data();
    void badInput();
};

void tst_NcclTestsLog::realLogOfFiveRuns() {
    // The values below are the fixture's own lines (line 92 is all_reduce's first row).
    const NcclTestsLog log = readNcclTestsLog(fixture("h100-10x8.nccl-tests.log"), "log");
    QVERIFY(!log.json);
    QCOMPARE(log.runs.size(), std::size_t(5));
    const CollectiveOp ops[] = {CollectiveOp::AllReduce, CollectiveOp::AllGather,
                                CollectiveOp::ReduceScatter, CollectiveOp::AllToAll,
                                CollectiveOp::SendRecv};
    const char* binaries[] = {"all_reduce_perf", "all_gather_perf", "reduce_scatter_perf",
                              "alltoall_perf", "sendrecv_perf"};
    const double averages[] = {265.631, 218.677, 216.683, 47.1472, 15.1671}; // lines 103, 210, ...
    for (std::size_t i = 0; i < 5; ++i) {
        const NcclTestsLogRun& run = log.runs[i];
        QVERIFY(run.op.has_value());
        QCOMPARE(int(*run.op), int(ops[i]));
        QCOMPARE(run.binary, std::string(binaries[i]));
        QCOMPARE(run.version, std::string("2.17.8"));
        QCOMPARE(run.ranks, 80);
        QCOMPARE(run.hosts.size(), std::size_t(10));
        QCOMPARE(run.ranksPerHost(), 8);
        QCOMPARE(run.gpuName, std::string("NVIDIA H100 80GB HBM3"));
        QCOMPARE(run.rows.size(), std::size_t(10));
        QVERIFY(run.averageBusBwGBps.has_value());
        QCOMPARE(*run.averageBusBwGBps, averages[i]);
    }
    const NcclTestsLogRow& first = log.runs[0].rows.front();
    QCOMPARE(first.line, 92);
    QCOMPARE(first.bytes, 33554432.0);
    QCOMPARE(first.count, 4194304.0);
    QCOMPARE(first.type, std::string("double"));
    QCOMPARE(first.outOfPlaceTimeUs, 798.52);
    QCOMPARE(first.outOfPlaceAlgBwGBps, 42.02);
    QCOMPARE(first.outOfPlaceBusBwGBps, 82.99);
    QCOMPARE(first.inPlaceTimeUs.value_or(0), 857.09);
    QCOMPARE(first.inPlaceBusBwGBps.value_or(0), 77.32);
    // A time past 100 ms loses its decimals; the largest all-gather size is not a power of
    // two (rounded down to a multiple of 80 ranks x 8 bytes).
    QCOMPARE(log.runs[0].rows.back().outOfPlaceTimeUs, 105854.0);
    QCOMPARE(log.runs[1].rows.back().bytes, 17179868160.0);
}

void tst_NcclTestsLog::olderBuildUnderMpiTags() {
    // Pre-2.11 columns (no redop, an "error" column), ranks without "Group", bus ids as
    // [0x18], every line tagged by mpirun, NCCL INFO lines between header and rows, and the
    // collective named only by the command line typed above the output.
    const NcclTestsLog log = readNcclTestsLog(fixture("v100-2x4-tagged.nccl-tests.log"), "log");
    QCOMPARE(log.runs.size(), std::size_t(1));
    const NcclTestsLogRun& run = log.runs.front();
    QCOMPARE(run.binary, std::string("broadcast_perf"));
    QCOMPARE(int(run.op.value_or(CollectiveOp::AllReduce)), int(CollectiveOp::Broadcast));
    QVERIFY(run.version.empty());
    QCOMPARE(run.ranks, 8);
    QCOMPARE(run.hosts, (std::vector<std::string>{"node01", "node02"}));
    QCOMPARE(run.ranksPerHost(), 4);
    QCOMPARE(run.gpuName, std::string("Tesla V100-SXM2-32GB"));
    QCOMPARE(run.rows.size(), std::size_t(4));
    QCOMPARE(run.rows[1].bytes, 4194304.0);
    QCOMPARE(run.rows[1].outOfPlaceTimeUs, 339.6);
    QCOMPARE(run.rows[1].outOfPlaceBusBwGBps, 12.35);
    QCOMPARE(run.rows[1].inPlaceBusBwGBps.value_or(0), 12.41);
    QCOMPARE(run.averageBusBwGBps.value_or(0), 12.1225);
}

void tst_NcclTestsLog::jsonFileOfMinusJ() {
    // One entry per process in config.devices, each driving nthreads x ngpus ranks; an
    // in-place half the writer left as "nan".
    const NcclTestsLog log =
        readNcclTestsLog(fixture("h100-2x8-all-gather.nccl-tests.json"), "ag.json");
    QVERIFY(log.json);
    QCOMPARE(log.runs.size(), std::size_t(1));
    const NcclTestsLogRun& run = log.runs.front();
    QCOMPARE(int(run.op.value_or(CollectiveOp::AllReduce)), int(CollectiveOp::AllGather));
    QCOMPARE(run.binary, std::string("all_gather_perf"));
    QCOMPARE(run.ranks, 16);
    QCOMPARE(run.ranksPerHost(), 8);
    QCOMPARE(run.gpuName, std::string("NVIDIA H100 80GB HBM3"));
    QCOMPARE(run.rows.size(), std::size_t(3));
    QCOMPARE(run.rows[0].bytes, 67108864.0);
    QCOMPARE(run.rows[0].outOfPlaceTimeUs, 1190.412);
    QCOMPARE(run.rows[0].outOfPlaceBusBwGBps, 52.851111);
    QVERIFY(!run.rows[1].inPlaceBusBwGBps.has_value());
    QCOMPARE(run.averageBusBwGBps.value_or(0), 74.8378);
}

void tst_NcclTestsLog::jsonFileOfAnOlderWriter() {
    // Before nccl-tests 2.17.9 the average was spelled "bandwidith"; -C 1 writes cpu_time.
    const std::string json = R"({"version":1,"args":["./reduce_scatter_perf"],
        "config":{"nthreads":1,"ngpus":8,"devices":[{"hostname":"n1","device_info":"B200"}]},
        "results":[{"size":1048576,"count":32768,"type":"float","redop":"sum","root":"    -1",
          "out_of_place":{"cpu_time":40.5,"alg_bw":25.89,"bus_bw":22.65,"nwrong":null}}],
        "average_bus_bandwidith":{"bandwidith":22.65,"okay":"unchecked"}})";
    const NcclTestsLog log = readNcclTestsLog(json, "rs.json");
    const NcclTestsLogRun& run = log.runs.front();
    QCOMPARE(int(run.op.value_or(CollectiveOp::AllReduce)), int(CollectiveOp::ReduceScatter));
    QCOMPARE(run.ranks, 8);
    QCOMPARE(run.rows.front().outOfPlaceTimeUs, 40.5);
    QVERIFY(!run.rows.front().inPlaceTimeUs.has_value());
    QCOMPARE(run.averageBusBwGBps.value_or(0), 22.65);
}

void tst_NcclTestsLog::collectiveFromTheBinaryName_data() {
    QTest::addColumn<QString>("binary");
    QTest::addColumn<int>("op"); // -1: not one FabricLab models
    QTest::newRow("all_reduce") << "all_reduce_perf" << int(CollectiveOp::AllReduce);
    QTest::newRow("path") << "/opt/nccl-tests/build/alltoall_perf" << int(CollectiveOp::AllToAll);
    QTest::newRow("sendrecv") << "sendrecv_perf" << int(CollectiveOp::SendRecv);
    QTest::newRow("reduce") << "reduce_perf" << -1;
    QTest::newRow("gather") << "gather_perf" << -1;
    QTest::newRow("hypercube") << "hypercube_perf" << -1;
    QTest::newRow("foreign") << "ib_write_bw" << -1;
}

void tst_NcclTestsLog::collectiveFromTheBinaryName() {
    QFETCH(QString, binary);
    QFETCH(int, op);
    const auto found = collectiveOfBinary(binary.toStdString());
    QCOMPARE(found ? int(*found) : -1, op);
}

void tst_NcclTestsLog::allReduceKnownByItsBusFactor() {
    // Nothing names the collective: busbw = 2(n-1)/n x algbw (1.75 at 8 ranks, beyond any
    // other collective's factor of at most 1) says all-reduce; a factor of 7/8 says nothing.
    const std::string header = "#  Rank  0 Group  0 Pid 1 on h device 0 [0000:1b:00] GPU\n"
                               "#  size count type redop root time algbw busbw #wrong time "
                               "algbw busbw #wrong\n";
    const NcclTestsLog allReduce = readNcclTestsLog(
        header + "  1048576 262144 float sum -1 100.0 10.49 18.35 0 100.0 10.49 18.35 0\n", "a");
    QCOMPARE(int(allReduce.runs.front().op.value_or(CollectiveOp::SendRecv)),
             int(CollectiveOp::AllReduce));
    const NcclTestsLog other = readNcclTestsLog(
        header + "  1048576 262144 float none -1 100.0 10.49 9.18 0 100.0 10.49 9.18 0\n", "b");
    QVERIFY(!other.runs.front().op.has_value());
}

void tst_NcclTestsLog::badInput_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("words");
    QTest::newRow("empty") << QByteArray() << "log.txt: no nccl-tests result rows"
                           << "-J";
    QTest::newRow("another tool's output")
        << QByteArray("---------------------------------------------\n"
                      " #bytes #iterations BW peak[Gb/sec] BW average[Gb/sec]\n"
                      " 65536 5000 97.12 97.10 0.185\n")
        << "log.txt: no nccl-tests result rows"
        << "all_reduce_perf";
    QTest::newRow("truncated row")
        << QByteArray::fromStdString(allGatherLog("  1024  32  float  none  -1  34.78\n"))
        << "log.txt:6: a result row of 6 fields"
        << "truncated";
    QTest::newRow("not a number")
        << QByteArray::fromStdString(
               allGatherLog("  1024  32  float  none  -1  34.78  0.03  fast  0  1  1  1  0\n"))
        << "log.txt:6: \"fast\" in the busbw column"
        << "not a measurement";
    QTest::newRow("negative time")
        << QByteArray::fromStdString(
               allGatherLog("  1024  32  float  none  -1  -4  0.03  0.03  0  1  1  1  0\n"))
        << "log.txt:6: \"-4\" in the time column"
        << "not a measurement";
    QTest::newRow("huge size")
        << QByteArray::fromStdString(allGatherLog(
               "  99999999999999999999999  32  float  none  -1  4  0.03  0.03  0  1  1  1  0\n"))
        << "log.txt:6:"
        << "size column";
    QTest::newRow("JSON not valid") << QByteArray("{\"results\": [") << "log.txt"
                                    << "not valid JSON";
    QTest::newRow("JSON of something else") << QByteArray("{\"name\": \"cluster\"}") << "log.txt"
                                            << "no \"results\"";
    QTest::newRow("JSON result without bandwidth")
        << QByteArray(R"({"results":[{"size":8,"out_of_place":{"time":1}}]})") << "/results/0"
        << "alg_bw";
    QTest::newRow("JSON size a string")
        << QByteArray(
               R"({"results":[{"size":"8","out_of_place":{"time":1,"alg_bw":0,"bus_bw":0}}]})")
        << "/results/0/size"
        << "number";
}

void tst_NcclTestsLog::badInput() {
    QFETCH(QByteArray, text);
    QFETCH(QString, where);
    QFETCH(QString, words);
    try {
        readNcclTestsLog(text.toStdString(), "log.txt");
        QFAIL("the log was accepted");
    } catch (const std::invalid_argument& e) {
        const QString message = QString::fromStdString(e.what());
        QVERIFY2(message.contains(where), qPrintable(message));
        QVERIFY2(message.contains(words), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
    }
}

QTEST_APPLESS_MAIN(tst_NcclTestsLog)
#include "tst_NcclTestsLog.moc"
