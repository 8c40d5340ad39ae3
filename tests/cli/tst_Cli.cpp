// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// fabriclab-cli as scripts use it (docs/reference/design-format.md "fabriclab-cli"): exit 0 with
// JSON on stdout and nothing on stderr; on bad input exit 2, stdout empty, and exactly one stderr
// line that names the file and the JSON path or the offending argument.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "cli/CliProcess.hpp"
#include "model/io/NcclTestsLog.hpp"
#include "support/DesignText.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#endif

using namespace fabriclab::testing;
using nlohmann::json;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

/// Parses stdout, recording a failure message instead of throwing out of the test.
bool parseJson(const QByteArray& text, json& value, QString& error) {
    try {
        value = json::parse(text.toStdString());
        return true;
    } catch (const json::exception& e) {
        error = QString::fromUtf8(e.what());
        return false;
    }
}

bool isNumber(const json& object, const char* key) {
    return object.contains(key) && object.at(key).is_number();
}

/// The success contract every JSON command shares: normal exit 0, nothing on stderr, and
/// stdout that parses, into `value`. QTest's macros only leave this helper, so callers
/// return when QTest::currentTestFailed().
/// RFC 4180 as a spreadsheet reads it: quoted fields may hold commas, doubled quotes and
/// line breaks; records end with CRLF.
QList<QStringList> parseCsv(const QString& text) {
    QList<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text[i + 1] == u'"')
                field += text[++i];
            else if (c == u'"')
                quoted = false;
            else
                field += c;
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            record << std::exchange(field, QString());
        } else if (c == u'\r' && i + 1 < text.size() && text[i + 1] == u'\n') {
            ++i;
            record << std::exchange(field, QString());
            records << std::exchange(record, QStringList());
        } else {
            field += c;
        }
    }
    return records;
}

void runForJson(const QStringList& arguments, json& value) {
    const Outcome o = runCli(arguments);
    QVERIFY2(o.status == QProcess::NormalExit && o.exitCode == 0, qPrintable(diagnostics(o)));
    QCOMPARE(o.err, QByteArray());
    QString error;
    QVERIFY2(parseJson(o.out, value, error), qPrintable(error));
    // Every JSON output opens with the contract's head (docs/output-contract.md).
    QVERIFY2(value.is_object() && value.value("schemaVersion", 0) == 1,
             o.out.left(200).constData());
}

/// A table's JSON (compare, sweep, nccl-tests): its rows, under the head.
void runForRows(const QStringList& arguments, json& rows) {
    json document;
    runForJson(arguments, document);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(document.contains("rows") && document.at("rows").is_array(), "no \"rows\" array");
    rows = document.at("rows");
}

} // namespace

class tst_Cli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void helpAndVersion_data();
    void helpAndVersion();
    void runJson();
    void planRanksSplits();
    void compareJson();
    void sweepJson();
    void csvTablesCarryTheJsonFigures_data();
    void csvTablesCarryTheJsonFigures();
    void sweepShardsMergeToTheWholeSweep_data();
    void sweepShardsMergeToTheWholeSweep();
    void gnuFormsReadAlike_data();
    void gnuFormsReadAlike();
    void mergeRefusesAShardOfAnotherSweep_data();
    void mergeRefusesAShardOfAnotherSweep();
    void ncclTestsJson();
    void ncclTestsTable();
    void ncclTestsTakesItsOwnCommandLine();
    void ncclTestsReadsEverySpelling_data();
    void ncclTestsReadsEverySpelling();
    void ncclTestsSendRecv();
    void ncclTestsRunsTheDesignsFailures();
    void validateScoresThePublishedFigures();
    void validateSetsYourLogAgainstTheDesign();
    void badInput_data();
    void badInput();
    void samples_data();
    void samples();
    void exportWritesAllOrNothing();
    void reportWritesAPdfOrSaysWhy();
    void importMakesADesignOrNamesTheLine();

private:
    QTemporaryDir m_dir;
    QString m_good;
    QString m_explicit;
};

void tst_Cli::initTestCase() {
    QVERIFY2(QFileInfo(QStringLiteral(FABRICLAB_CLI)).isExecutable(), FABRICLAB_CLI);
    QVERIFY2(m_dir.isValid(), qPrintable(m_dir.errorString()));
    m_good = m_dir.filePath(QStringLiteral("good.fabric.json"));
    m_explicit = m_dir.filePath(QStringLiteral("explicit.fabric.json"));
    QVERIFY(writeFile(m_good, QByteArray::fromStdString(generatorDesign().dump(2))));
    QVERIFY(writeFile(m_explicit, QByteArray::fromStdString(explicitDesign().dump(2))));
}

void tst_Cli::helpAndVersion_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("mentions");
    QTest::addRow("--help") << QStringList{"--help"} << QStringList{"run", "compare", "sweep"};
    // Every command has its own --help, naming its options (and only its options).
    QTest::addRow("run --help") << QStringList{"run", "--help"}
                                << QStringList{"run", "--fabric", "--json", "--csv", "DESIGN"};
    QTest::addRow("compare --help")
        << QStringList{"compare", "--help"} << QStringList{"--fabrics", "--ownership"};
    QTest::addRow("sweep --help") << QStringList{"sweep", "-h"}
                                  << QStringList{"--servers", "--shard", "--merge"};
    QTest::addRow("nccl-tests --help")
        << QStringList{"nccl-tests", "--help"}
        << QStringList{"-b,--minbytes",    "-e,--maxbytes", "-g,--ngpus",
                       "-J,--output_file", "--explain",     "--algo"};
    QTest::addRow("validate --help")
        << QStringList{"validate", "--help"} << QStringList{"--set", "--figures"};
    QTest::addRow("bom --help") << QStringList{"bom", "--help"} << QStringList{"--csv", "--prices"};
    QTest::addRow("cabling --help") << QStringList{"cabling", "--help"} << QStringList{"--csv"};
    QTest::addRow("plan --help") << QStringList{"plan", "--help"} << QStringList{"--top", "--json"};
    QTest::addRow("export --help")
        << QStringList{"export", "--help"} << QStringList{"--format", "--out"};
    QTest::addRow("import --help")
        << QStringList{"import", "--help"} << QStringList{"--gpus-per-server", "--name"};
    QTest::addRow("report --help") << QStringList{"report", "--help"} << QStringList{"--out"};
    QTest::addRow("catalog --help") << QStringList{"catalog", "--help"} << QStringList{"--json"};
    // The bash completion: commands, each command's options, the fabric ids.
    QTest::addRow("completion") << QStringList{"completion"}
                                << QStringList{
                                       "complete -o filenames -F _fabriclab_cli fabriclab-cli",
                                       "nccl-tests) opts=",
                                       "--minbytes",
                                       "ib-ndr",
                                       "spectrum-x",
                                       "owned rented"};
    QTest::addRow("--version") << QStringList{"--version"} << QStringList{"fabriclab-cli", "."};
}

void tst_Cli::helpAndVersion() {
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, mentions);
    const Outcome o = runCli(arguments);
    QVERIFY2(o.status == QProcess::NormalExit, qPrintable(diagnostics(o)));
    QCOMPARE(o.exitCode, 0);
    QCOMPARE(o.err, QByteArray());
    const QString out = QString::fromUtf8(o.out);
    QVERIFY(!out.trimmed().isEmpty());
    for (const QString& word : mentions)
        QVERIFY2(out.contains(word), qPrintable(word + QStringLiteral(" missing from: ") + out));
}

void tst_Cli::planRanksSplits() {
    // The workshop sample's job (16 GPUs) split every way that fits, fastest first.
    json plan;
    runForJson(
        {QStringLiteral("plan"),
         QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json"),
         QStringLiteral("--top"), QStringLiteral("3"), QStringLiteral("--json")},
        plan);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(plan.at("kind").get<std::string>(), std::string("fabriclab-plan"));
    QVERIFY(plan.at("fitting").get<int>() <= plan.at("considered").get<int>());
    const json& rows = plan.at("rows");
    QVERIFY(!rows.empty() && rows.size() <= 3);
    double last = 0;
    int rank = 0;
    for (const json& row : rows) {
        QCOMPARE(row.at("rank").get<int>(), ++rank);
        QVERIFY(row.at("stepSeconds").get<double>() >= last);
        last = row.at("stepSeconds").get<double>();
        QVERIFY(row.at("memoryGB").get<double>() <= row.at("hbmGB").get<double>());
        QCOMPARE(row.at("tp").get<int>() * row.at("cp").get<int>() * row.at("pp").get<int>() *
                     row.at("dp").get<int>(),
                 16);
    }
    // A design without a training job has nothing to plan, and says so.
    const Outcome none = runCli({QStringLiteral("plan"), m_good});
    QCOMPARE(none.exitCode, 2);
    QVERIFY2(none.err.contains("plan needs the design's training workload"), none.err.constData());
    // The file is named once, as every refusal names it.
    QCOMPARE(none.err.count(QFileInfo(m_good).fileName().toUtf8()), 1);
}

void tst_Cli::runJson() {
    json report;
    runForJson({QStringLiteral("run"), m_good, QStringLiteral("--json")}, report);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(report.is_object());
    QVERIFY(isNumber(report, "gpus"));
    QCOMPARE(report.at("gpus").get<int>(), 32);
    QVERIFY(isNumber(report, "servers"));
    QCOMPARE(report.at("servers").get<int>(), 4);

    QVERIFY(report.contains("switches") && report.at("switches").is_object());
    const json& switches = report.at("switches");
    for (const char* tier : {"leaf", "spine", "core"})
        QVERIFY2(isNumber(switches, tier), tier);
    // 32 NICs fit one radix-64 leaf: no spine, no core.
    QCOMPARE(switches.at("leaf").get<int>(), 1);
    QCOMPARE(switches.at("spine").get<int>(), 0);
    QCOMPARE(switches.at("core").get<int>(), 0);

    QVERIFY(report.contains("bisection") && report.at("bisection").is_object());
    for (const char* key : {"theoreticalGbps", "effectiveGbps", "ratio"})
        QVERIFY2(report.at("bisection").contains(key), key);
    QVERIFY(isNumber(report.at("bisection"), "theoreticalGbps"));
    QVERIFY(isNumber(report.at("bisection"), "ratio"));

    // The simulator fills these: effective bisection never beats the min cut, and the
    // collective's busbw is algbw x 2(n-1)/n for an all-reduce (nccl-tests).
    QVERIFY(isNumber(report.at("bisection"), "effectiveGbps"));
    QVERIFY(report.at("bisection").at("effectiveGbps").get<double>() > 0);
    QVERIFY(report.at("bisection").at("effectiveGbps").get<double>() <=
            report.at("bisection").at("theoreticalGbps").get<double>());
    QVERIFY(report.contains("collective") && report.at("collective").is_object());
    const json& collective = report.at("collective");
    for (const char* key :
         {"bytes", "timeUs", "algBwGBps", "busBwGBps", "busBwMinGBps", "busBwMaxGBps"})
        QVERIFY2(isNumber(collective, key), key);
    QVERIFY(collective.at("timeUs").get<double>() > 0);
    // InfiniBand routes adaptively: one draw, so no spread around the figure.
    QCOMPARE(collective.at("ecmpDraws").get<int>(), 1);
    QCOMPARE(collective.at("busBwMinGBps").get<double>(), collective.at("busBwGBps").get<double>());
    QCOMPARE(collective.at("busBwMaxGBps").get<double>(), collective.at("busBwGBps").get<double>());
    const double ranks = 32;
    QVERIFY(qAbs(collective.at("busBwGBps").get<double>() -
                 collective.at("algBwGBps").get<double>() * 2 * (ranks - 1) / ranks) <
            1e-2 * collective.at("busBwGBps").get<double>()); // both rounded to 3 decimals
    QVERIFY(report.contains("step"));

    QVERIFY(report.contains("cost") && report.at("cost").is_object());
    const json& cost = report.at("cost");
    for (const char* key : {"fabricCapexUsd", "switchesUsd", "nicsUsd", "cablesUsd",
                            "fabricPerGpuHourUsd", "powerWatts"})
        QVERIFY2(isNumber(cost, key), key);
    QVERIFY(cost.at("fabricCapexUsd").get<double>() > 0);
    QVERIFY(cost.at("fabricPerGpuHourUsd").get<double>() > 0);
    QVERIFY(cost.at("powerWatts").get<double>() > 0);
}

void tst_Cli::compareJson() {
    json rows;
    runForRows({QStringLiteral("compare"), m_good, QStringLiteral("--fabrics"),
                QStringLiteral("ib-ndr,roce-v2"), QStringLiteral("--json")},
               rows);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(rows.is_array());
    QCOMPARE(rows.size(), std::size_t(2));
    const char* expected[] = {"ib-ndr", "roce-v2"};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QVERIFY(rows[i].is_object());
        QVERIFY(rows[i].contains("fabric") && rows[i].at("fabric").is_string());
        QCOMPARE(QString::fromStdString(rows[i].at("fabric").get<std::string>()),
                 QString::fromUtf8(expected[i]));
        QCOMPARE(rows[i].at("gpus").get<int>(), 32);
        QVERIFY(rows[i].at("cost").at("fabricCapexUsd").get<double>() > 0);
    }
    // The text table shows each fabric's delivered bisection, where routings part, as the
    // JSON has it (whole Gb/s, grouped by thousands).
    const Outcome text = runCli({QStringLiteral("compare"), m_good, QStringLiteral("--fabrics"),
                                 QStringLiteral("ib-ndr,roce-v2")});
    QVERIFY2(text.status == QProcess::NormalExit && text.exitCode == 0,
             qPrintable(diagnostics(text)));
    const QStringList lines = QString::fromUtf8(text.out).split(u'\n');
    QVERIFY(lines.front().contains(QStringLiteral("bisection Gb/s")));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double gbps = rows[i].at("bisection").at("effectiveGbps").get<double>();
        const QString grouped = QLocale(QLocale::English).toString(std::llround(gbps));
        const QStringList cells = lines.at(qsizetype(i) + 1).simplified().split(u' ');
        QVERIFY2(cells.size() > 4 && cells.at(4) == grouped,
                 qPrintable(lines.at(qsizetype(i) + 1) + QStringLiteral(" lacks ") + grouped));
    }
}

void tst_Cli::sweepJson() {
    json rows;
    runForRows({QStringLiteral("sweep"), m_good, QStringLiteral("--servers"),
                QStringLiteral("8,16"), QStringLiteral("--json")},
               rows);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(rows.is_array());
    QCOMPARE(rows.size(), std::size_t(2));
    const int servers[] = {8, 16};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QVERIFY(rows[i].is_object());
        QVERIFY(isNumber(rows[i], "servers"));
        QCOMPARE(rows[i].at("servers").get<int>(), servers[i]);
        QCOMPARE(rows[i].at("gpus").get<int>(), servers[i] * 8);
        QVERIFY(rows[i].contains("fabric"));
        QCOMPARE(QString::fromStdString(rows[i].at("fabric").get<std::string>()),
                 QStringLiteral("ib-ndr"));
    }
}

void tst_Cli::csvTablesCarryTheJsonFigures_data() {
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("leading"); // the column that names a row
    QTest::newRow("run") << QStringList{QStringLiteral("run")} << QStringLiteral("gpus");
    QTest::newRow("compare") << QStringList{QStringLiteral("compare"), QStringLiteral("--fabrics"),
                                            QStringLiteral("ib-ndr,roce-v2,spectrum-x")}
                             << QStringLiteral("fabric");
    QTest::newRow("sweep") << QStringList{QStringLiteral("sweep"), QStringLiteral("--servers"),
                                          QStringLiteral("4,8"), QStringLiteral("--fabrics"),
                                          QStringLiteral("ib-ndr,roce-v2")}
                           << QStringLiteral("servers");
}

void tst_Cli::csvTablesCarryTheJsonFigures() {
    // --csv is --json as a table: a record per object, every record as wide as the header,
    // and each figure the very number --json prints (the CSV writes JSON's own spelling).
    QFETCH(QStringList, command);
    QFETCH(QString, leading);
    command.insert(1, m_good);
    json rows;
    runForJson(command + QStringList{QStringLiteral("--json")}, rows);
    if (QTest::currentTestFailed())
        return;
    if (rows.contains("rows"))
        rows = json(rows.at("rows"));
    else
        rows = json::array({rows});
    const Outcome csv = runCli(command + QStringList{QStringLiteral("--csv")});
    QVERIFY2(csv.exitCode == 0 && csv.err.isEmpty(), qPrintable(diagnostics(csv)));
    QVERIFY(csv.out.endsWith("\r\n"));
    const QList<QStringList> records = parseCsv(QString::fromUtf8(csv.out));
    QCOMPARE(records.size(), static_cast<qsizetype>(rows.size()) + 1);
    const QStringList header = records.front();
    QCOMPARE(header.front(), leading);
    QCOMPARE(QSet<QString>(header.begin(), header.end()).size(), header.size());
    for (const QStringList& record : records)
        QCOMPARE(record.size(), header.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const QStringList& record = records[static_cast<qsizetype>(i) + 1];
        for (const char* path :
             {"gpus", "servers", "bisection.effectiveGbps", "collective.busBwGBps",
              "collective.timeUs", "cost.fabricCapexUsd", "cost.perGpuUsd"}) {
            const qsizetype column = header.indexOf(QString::fromLatin1(path));
            QVERIFY2(column >= 0, path);
            std::string slashed(1, '/'); // "/" + string trips GCC 12's false -Wrestrict
            slashed += path;
            std::replace(slashed.begin(), slashed.end(), '.', '/');
            const json::json_pointer pointer(slashed);
            QCOMPARE(record[column].toDouble(), rows[i].at(pointer).get<double>());
        }
        // Every table names the fabric of each row (run's JSON in its head).
        const qsizetype fabric = header.indexOf(QStringLiteral("fabric"));
        QVERIFY(fabric >= 0);
        QCOMPARE(record[fabric].toStdString(), rows[i].at("fabric").get<std::string>());
    }
    // The bill of materials is bom's table, not a column of this one.
    QVERIFY(!header.join(QLatin1Char(',')).contains(QStringLiteral("bom")));
}

void tst_Cli::sweepShardsMergeToTheWholeSweep_data() {
    QTest::addColumn<int>("shards");
    QTest::newRow("one shard") << 1;
    QTest::newRow("three shards") << 3;
    QTest::newRow("four shards") << 4;
    QTest::newRow("more shards than points") << 8;
}

void tst_Cli::sweepShardsMergeToTheWholeSweep() {
    // Six points (3 sizes x 2 fabrics) with a seed of their own: merged, the shards give
    // back the unsharded sweep byte for byte, whatever the number of shards.
    QFETCH(int, shards);
    const QStringList sweep{QStringLiteral("sweep"),     m_good,
                            QStringLiteral("--servers"), QStringLiteral("4,8,16"),
                            QStringLiteral("--fabrics"), QStringLiteral("ib-ndr,roce-v2"),
                            QStringLiteral("--seed"),    QStringLiteral("3")};
    const Outcome whole = runCli(sweep + QStringList{QStringLiteral("--json")});
    QVERIFY2(whole.exitCode == 0, qPrintable(diagnostics(whole)));
    QStringList merge{QStringLiteral("sweep"), QStringLiteral("--merge")};
    int lines = 0;
    for (int i = 1; i <= shards; ++i) {
        const Outcome part =
            runCli(sweep + QStringList{QStringLiteral("--shard"),
                                       QStringLiteral("%1/%2").arg(i).arg(shards)});
        QVERIFY2(part.exitCode == 0 && part.err.isEmpty(), qPrintable(diagnostics(part)));
        lines += part.out.count('\n');
        const QString file =
            m_dir.filePath(QStringLiteral("shard-%1-of-%2.jsonl").arg(i).arg(shards));
        QVERIFY(writeFile(file, part.out));
        merge << file;
    }
    QCOMPARE(lines, 6); // every point once over all shards
    const Outcome merged = runCli(merge + QStringList{QStringLiteral("--json")});
    QVERIFY2(merged.exitCode == 0 && merged.err.isEmpty(), qPrintable(diagnostics(merged)));
    QCOMPARE(merged.out, whole.out);
    // The same table as CSV, merged or whole.
    const Outcome wholeCsv = runCli(sweep + QStringList{QStringLiteral("--csv")});
    const Outcome mergedCsv = runCli(merge + QStringList{QStringLiteral("--csv")});
    QVERIFY2(wholeCsv.exitCode == 0 && mergedCsv.exitCode == 0, qPrintable(diagnostics(mergedCsv)));
    QCOMPARE(mergedCsv.out, wholeCsv.out);
    const Outcome table = runCli(merge);
    QVERIFY2(table.exitCode == 0, qPrintable(diagnostics(table)));
    QCOMPARE(table.out.count('\n'), 7); // a header and six rows
    QVERIFY(table.out.startsWith("fabric"));
}

void tst_Cli::gnuFormsReadAlike_data() {
    // The same request in the forms GNU tools accept: each prints what the spaced form does.
    QTest::addColumn<QStringList>("spaced");
    QTest::addColumn<QStringList>("other");
    QTest::newRow("--opt=value") << QStringList{"run", "{good}", "--fabric", "roce-v2", "--json"}
                                 << QStringList{"run", "{good}", "--fabric=roce-v2", "--json"};
    QTest::newRow("-b8 -e1M -f2") << QStringList{"nccl-tests", "{good}", "-b", "8",     "-e",
                                                 "1M",         "-f",     "2",  "--json"}
                                  << QStringList{"nccl-tests", "{good}", "-b8",
                                                 "-e1M",       "-f2",    "--json"};
    QTest::newRow("-- before the design")
        << QStringList{"run", "{good}", "--json"} << QStringList{"run", "--json", "--", "{good}"};
    QTest::newRow("options before the design")
        << QStringList{"bom", "{good}", "--csv"} << QStringList{"bom", "--csv", "{good}"};
}

void tst_Cli::gnuFormsReadAlike() {
    QFETCH(QStringList, spaced);
    QFETCH(QStringList, other);
    spaced.replaceInStrings(QStringLiteral("{good}"), m_good);
    other.replaceInStrings(QStringLiteral("{good}"), m_good);
    const Outcome a = runCli(spaced);
    const Outcome b = runCli(other);
    QVERIFY2(a.exitCode == 0, qPrintable(diagnostics(a)));
    QVERIFY2(b.exitCode == 0, qPrintable(diagnostics(b)));
    QCOMPARE(b.out, a.out);
}

void tst_Cli::mergeRefusesAShardOfAnotherSweep_data() {
    // Shard 2 of 2 of a sweep that differs in one respect from the sweep of shard 1: the
    // merge must say so, naming the second file and what differs, and print nothing.
    QTest::addColumn<QStringList>("changed"); // what shard 2's command line has instead
    QTest::addColumn<bool>("renamedDesign");  // shard 2 ran on a copy of the design, renamed
    QTest::addColumn<QString>("differs");
    const QStringList fabrics{QStringLiteral("--fabrics"), QStringLiteral("ib-ndr,roce-v2")};
    const QStringList seed{QStringLiteral("--seed"), QStringLiteral("3")};
    QTest::newRow("seed") << fabrics + QStringList{QStringLiteral("--seed"), QStringLiteral("4")}
                          << false << QStringLiteral("seed 4 here, 3 in ");
    QTest::newRow("months") << fabrics + seed +
                                   QStringList{QStringLiteral("--months"), QStringLiteral("48")}
                            << false << QStringLiteral("amortizationMonths 48.0 here, null in ");
    QTest::newRow("fabrics") << QStringList{QStringLiteral("--fabrics"),
                                            QStringLiteral("ib-ndr,spectrum-x")} +
                                    seed
                             << false << QStringLiteral("fabrics [\"ib-ndr\",\"spectrum-x\"] here");
    QTest::newRow("design") << fabrics + seed << true
                            << QStringLiteral("design {\"name\":\"the same fabric, renamed\"");
}

void tst_Cli::mergeRefusesAShardOfAnotherSweep() {
    QFETCH(QStringList, changed);
    QFETCH(bool, renamedDesign);
    QFETCH(QString, differs);
    const QStringList servers{QStringLiteral("--servers"), QStringLiteral("4,8")};
    QString secondDesign = m_good;
    if (renamedDesign) {
        QFile in(m_good);
        QVERIFY(in.open(QIODevice::ReadOnly));
        json design = json::parse(in.readAll().toStdString());
        design["name"] = "the same fabric, renamed";
        secondDesign = m_dir.filePath(QStringLiteral("renamed.fabric.json"));
        QVERIFY(writeFile(secondDesign, QByteArray::fromStdString(design.dump())));
    }
    const Outcome one =
        runCli(QStringList{QStringLiteral("sweep"), m_good} + servers +
               QStringList{QStringLiteral("--fabrics"), QStringLiteral("ib-ndr,roce-v2"),
                           QStringLiteral("--seed"), QStringLiteral("3"), QStringLiteral("--shard"),
                           QStringLiteral("1/2")});
    const Outcome two =
        runCli(QStringList{QStringLiteral("sweep"), secondDesign} + servers + changed +
               QStringList{QStringLiteral("--shard"), QStringLiteral("2/2")});
    QVERIFY2(one.exitCode == 0 && two.exitCode == 0, qPrintable(diagnostics(two)));
    const QString fileOne = m_dir.filePath(QStringLiteral("ours-1.jsonl"));
    const QString fileTwo = m_dir.filePath(QStringLiteral("theirs-2.jsonl"));
    QVERIFY(writeFile(fileOne, one.out) && writeFile(fileTwo, two.out));
    const Outcome merged = runCli({QStringLiteral("sweep"), QStringLiteral("--merge"), fileOne,
                                   fileTwo, QStringLiteral("--json")});
    QCOMPARE(merged.exitCode, 2);
    QVERIFY(merged.out.isEmpty());
    const QString said = QString::fromUtf8(merged.err);
    QVERIFY2(said.contains(fileTwo + QStringLiteral(":1: ")), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("a shard of another sweep")), qPrintable(said));
    QVERIFY2(said.contains(differs), qPrintable(said));
    QVERIFY2(said.contains(fileOne), qPrintable(said));
}

void tst_Cli::ncclTestsJson() {
    // The contract: one object per size from -b to -e by -f, with the nccl-tests columns
    // and NCCL's choice. The good design is 4 servers x 8 GPUs; --servers 2 takes 16 ranks.
    json rows;
    runForRows({QStringLiteral("nccl-tests"), m_good, QStringLiteral("-b"), QStringLiteral("1M"),
                QStringLiteral("-e"), QStringLiteral("64M"), QStringLiteral("-f"),
                QStringLiteral("4"), QStringLiteral("--servers"), QStringLiteral("2"),
                QStringLiteral("--json")},
               rows);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(rows.is_array());
    QCOMPARE(rows.size(), std::size_t(4)); // 1, 4, 16, 64 MiB
    const double ranks = 16;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const json& row = rows[i];
        for (const char* key : {"bytes", "timeUs", "algBwGBps", "busBwGBps"})
            QVERIFY2(isNumber(row, key), key);
        for (const char* key : {"algorithm", "protocol"})
            QVERIFY2(row.contains(key) && row.at(key).is_string(), key);
        // The good design is on InfiniBand: NCCL's own cost model chooses.
        QCOMPARE(row.value("chosenBy", std::string()), std::string("nccl"));
        const double bytes = row.at("bytes");
        QCOMPARE(bytes, double(1 << 20) * std::pow(4.0, double(i)));
        // nccl-tests' own arithmetic, to the 3 decimals printed: algbw = size / time,
        // busbw = algbw x 2(n-1)/n.
        const double algBw = row.at("algBwGBps");
        QVERIFY(std::abs(algBw - bytes / (row.at("timeUs").get<double>() * 1e3)) < 2e-3);
        QVERIFY(std::abs(row.at("busBwGBps").get<double>() - algBw * 2 * (ranks - 1) / ranks) <
                2e-3);
    }
}

void tst_Cli::ncclTestsRunsTheDesignsFailures() {
    // One NIC of srv-1 down: its 7 remaining NICs set every ring's pace, as in the design's
    // run report and the app's chart, so the 1 GiB all-reduce cannot keep the whole fabric's
    // bus bandwidth.
    const QString damaged = m_dir.filePath(QStringLiteral("one-nic-down.fabric.json"));
    QVERIFY(writeFile(
        damaged,
        QByteArray::fromStdString(patched(
            generatorDesign(),
            {{"failures", {{{"element", "leaf-1/srv-1"}, {"kind", "down"}, {"cables", 1}}}}}))));
    json whole;
    json lessOne;
    const QStringList size{QStringLiteral("-b"), QStringLiteral("1G"), QStringLiteral("-e"),
                           QStringLiteral("1G"), QStringLiteral("--json")};
    runForRows(QStringList{QStringLiteral("nccl-tests"), m_good} + size, whole);
    runForRows(QStringList{QStringLiteral("nccl-tests"), damaged} + size, lessOne);
    if (QTest::currentTestFailed())
        return;
    const double healthy = whole.at(0).at("busBwGBps");
    const double degraded = lessOne.at(0).at("busBwGBps");
    QVERIFY2(degraded < healthy,
             qPrintable(QStringLiteral("%1 with a NIC down, %2 whole").arg(degraded).arg(healthy)));
}

void tst_Cli::ncclTestsTable() {
    // nccl-tests' own layout, read back by FabricLab's reader of real nccl-tests logs: the
    // collective in the header, a rank line per GPU, the 13 columns with all_gather's
    // per-rank count and "none" reduction, #wrong N/A, and the average bus bandwidth of the
    // rows in the footer. The good design is 4 servers x 8 GPUs; --servers 2 takes 16 ranks,
    // so each size is a whole number of doubles per rank (16 x 8 bytes).
    const QStringList command{QStringLiteral("nccl-tests"),
                              m_good,
                              QStringLiteral("all_gather_perf"),
                              QStringLiteral("-b"),
                              QStringLiteral("1000"),
                              QStringLiteral("-e"),
                              QStringLiteral("1M"),
                              QStringLiteral("-f"),
                              QStringLiteral("32"),
                              QStringLiteral("-d"),
                              QStringLiteral("double"),
                              QStringLiteral("--servers"),
                              QStringLiteral("2")};
    const Outcome o = runCli(command);
    QVERIFY2(o.status == QProcess::NormalExit && o.exitCode == 0, qPrintable(diagnostics(o)));
    const QString text = QString::fromUtf8(o.out);
    QVERIFY(text.contains(QStringLiteral("\n# Collective test starting: all_gather_perf\n")));
    QCOMPARE(text.count(QStringLiteral("\n#  Rank ")), 16);
    QStringList rows;
    for (const QString& line : text.split('\n', Qt::SkipEmptyParts))
        if (!line.startsWith('#'))
            rows << line;
    // 1000 B rounds down to 896 (7 doubles per rank); 32,000 and 1,024,000 are whole (250
    // and 8,000 doubles per rank).
    QCOMPARE(rows.size(), 3);
    double busBwSum = 0;
    const double sizes[] = {896, 32000, 1024000};
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QStringList f = rows[i].split(' ', Qt::SkipEmptyParts);
        QCOMPARE(f.size(), 13);
        QCOMPARE(f[0].toDouble(), sizes[i]);
        QCOMPARE(f[1].toDouble(), sizes[i] / (16 * 8)); // per rank, as nccl-tests counts
        QCOMPARE(f[2], QStringLiteral("double"));
        QCOMPARE(f[3], QStringLiteral("none"));
        QCOMPARE(f[4], QStringLiteral("-1"));
        QCOMPARE(f[8], QStringLiteral("N/A"));
        QCOMPARE(f[12], QStringLiteral("N/A"));
        QCOMPARE(f[7], f[11]); // one simulated figure for both halves
        busBwSum += f[7].toDouble();
    }
    const QRegularExpressionMatch average =
        QRegularExpression(QStringLiteral("# Avg bus bandwidth    : (\\S+) \n")).match(text);
    QVERIFY(average.hasMatch());
    // The footer averages the unrounded figures; the rows print two decimals.
    QVERIFY(qAbs(average.captured(1).toDouble() - busBwSum / 3) <= 0.005);
    // --explain adds the algorithm, the protocol and who chose them, after the 13.
    const Outcome explained = runCli(command + QStringList{QStringLiteral("--explain")});
    QVERIFY2(explained.exitCode == 0, qPrintable(diagnostics(explained)));
    for (const QString& line : QString::fromUtf8(explained.out).split('\n', Qt::SkipEmptyParts))
        if (!line.startsWith('#'))
            QCOMPARE(line.split(' ', Qt::SkipEmptyParts).value(15), QStringLiteral("nccl"));
    const Outcome forced =
        runCli(command + QStringList{QStringLiteral("--explain"), QStringLiteral("--algo"),
                                     QStringLiteral("ring"), QStringLiteral("--proto"),
                                     QStringLiteral("Simple")});
    QVERIFY2(forced.out.contains("forced (--algo, --proto)"), forced.out.constData());
}

void tst_Cli::ncclTestsTakesItsOwnCommandLine() {
    // A command line as nccl-tests' README and issues give it: every flag taken with its
    // meaning, those no simulated figure depends on echoed in the header.
    const Outcome o = runCli({"nccl-tests", m_good,     "all_reduce_perf",
                              "-b",         "8",        "-e",
                              "128M",       "-f",       "2",
                              "-g",         "1",        "-t",
                              "1",          "-n",       "50",
                              "-w",         "10",       "-c",
                              "0",          "-o",       "sum",
                              "-d",         "bfloat16", "-z",
                              "0",          "-a",       "1",
                              "-G",         "0",        "-m",
                              "1",          "-r",       "0"});
    QVERIFY2(o.exitCode == 0 && o.err.isEmpty(), qPrintable(diagnostics(o)));
    QVERIFY2(o.out.contains("# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) "
                            "warmup iters: 10 iters: 50 agg iters: 1 validation: 0 graph: 0\n"),
             o.out.constData());
    QVERIFY(o.out.contains(" bfloat16     sum      -1 "));
    // The long names, and the flags the newest nccl-tests added (src/common.cu: -y, -x, -D,
    // -V, -M), each with its value; none changes a simulated figure.
    const Outcome longForm = runCli({"nccl-tests",
                                     m_good,
                                     "all_reduce_perf",
                                     "--minbytes=8",
                                     "--maxbytes=1M",
                                     "--stepfactor=4",
                                     "--ngpus=8",
                                     "--nthreads",
                                     "1",
                                     "--iters=20",
                                     "--warmup_iters=5",
                                     "--check=1",
                                     "--datatype=float",
                                     "--op=sum",
                                     "-y",
                                     "0",
                                     "-x",
                                     "1",
                                     "-D",
                                     "0",
                                     "-V",
                                     "16",
                                     "-M",
                                     "1",
                                     "--stream_null=1"});
    QVERIFY2(longForm.exitCode == 2 && longForm.err.contains("--stream_null given more than once"),
             qPrintable(diagnostics(longForm)));
    const Outcome newest = runCli({"nccl-tests", m_good, "all_reduce_perf", "--minbytes=8",
                                   "--maxbytes=1M", "--stepfactor=4", "--ngpus=8", "-y", "0", "-x",
                                   "1", "-D", "0", "-V", "16", "-M", "1"});
    QVERIFY2(newest.exitCode == 0 && newest.out.contains("# nThread 1 nGpus 8 minBytes 8 "),
             qPrintable(diagnostics(newest)));
    // nccl-tests' own --op is the reduction: read as one.
    const Outcome redop = runCli({"nccl-tests", m_good, "--op", "max", "-b", "1M", "-e", "1M"});
    QVERIFY2(redop.exitCode == 0 && redop.out.contains("     float     max      -1 "),
             qPrintable(diagnostics(redop)));
    // -J writes nccl-tests' JSON file beside the table: what a -J reader reads (FabricLab's
    // own reader of real logs here), the same figures as --json; an existing file is kept and
    // the next is FILE.0, as nccl-tests does.
    const QString file = m_dir.filePath(QStringLiteral("twin.json"));
    QFile::remove(file);
    QFile::remove(file + QStringLiteral(".0"));
    const QStringList twin{"nccl-tests", m_good, "reduce_scatter_perf", "-b", "1M", "-e", "64M",
                           "-f",         "8",    "--servers",           "2",  "-J", file};
    const Outcome written = runCli(twin);
    QVERIFY2(written.exitCode == 0 &&
                 written.out.startsWith(("# Writing JSON output to " + file + "\n").toUtf8()),
             qPrintable(diagnostics(written)));
    json rows;
    runForRows({"nccl-tests", m_good, "reduce_scatter_perf", "-b", "1M", "-e", "64M", "-f", "8",
                "--servers", "2", "--json"},
               rows);
    if (QTest::currentTestFailed())
        return;
    QFile jsonFile(file);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    const fabriclab::model::NcclTestsLog log =
        fabriclab::model::readNcclTestsLog(jsonFile.readAll().toStdString(), "twin.json");
    QVERIFY(log.json);
    QCOMPARE(log.runs.size(), std::size_t(1));
    QCOMPARE(int(log.runs[0].op.value_or(fabriclab::model::CollectiveOp::AllReduce)),
             int(fabriclab::model::CollectiveOp::ReduceScatter));
    QCOMPARE(log.runs[0].ranks, 16);
    QCOMPARE(log.runs[0].rows.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(log.runs[0].rows[i].bytes, rows[i].at("bytes").get<double>());
        QVERIFY(qAbs(log.runs[0].rows[i].outOfPlaceBusBwGBps -
                     rows[i].at("busBwGBps").get<double>()) <= 0.0005);
    }
    const Outcome again = runCli(twin);
    QVERIFY2(again.exitCode == 0 && QFile::exists(file + QStringLiteral(".0")),
             qPrintable(diagnostics(again)));
    // Without -f, sizes step by -i bytes, 1 MiB unless given, as nccl-tests steps them.
    const Outcome stepped = runCli({"nccl-tests", m_good, "-b", "1M", "-e", "4M"});
    QVERIFY2(stepped.out.contains(" step: 1048576(bytes) "), stepped.out.constData());
    for (const char* size :
         {"\n     1048576 ", "\n     2097152 ", "\n     3145728 ", "\n     4194304 "})
        QVERIFY2(stepped.out.contains(size), size);
    // Its default, as nccl-tests': one size, 32 MiB.
    const Outcome defaults = runCli({"nccl-tests", m_good});
    QVERIFY(defaults.out.contains("\n    33554432 "));
    QCOMPARE(defaults.out.count("\n    33554432 "), 1);
}

void tst_Cli::ncclTestsReadsEverySpelling_data() {
    QTest::addColumn<QString>("spelling");
    QTest::addColumn<QString>("op"); // the binary the header names

    // nccl-tests' binaries (all_reduce_perf), its names without the suffix, the hyphenated
    // forms papers and vendor guides use, and FabricLab's own.
    QTest::addRow("all_reduce_perf") << "all_reduce_perf"
                                     << "all_reduce_perf";
    QTest::addRow("all-reduce") << "all-reduce"
                                << "all_reduce_perf";
    QTest::addRow("AllReduce") << "AllReduce"
                               << "all_reduce_perf";
    QTest::addRow("all_gather") << "all_gather"
                                << "all_gather_perf";
    QTest::addRow("reduce-scatter") << "reduce-scatter"
                                    << "reduce_scatter_perf";
    QTest::addRow("all-to-all") << "all-to-all"
                                << "alltoall_perf";
    QTest::addRow("broadcast_perf") << "broadcast_perf"
                                    << "broadcast_perf";
    QTest::addRow("sendrecv_perf") << "sendrecv_perf"
                                   << "sendrecv_perf";
    QTest::addRow("send_recv") << "send_recv"
                               << "sendrecv_perf";
}

void tst_Cli::ncclTestsReadsEverySpelling() {
    QFETCH(QString, spelling);
    QFETCH(QString, op);
    const Outcome o = runCli({QStringLiteral("nccl-tests"), m_good, QStringLiteral("--op"),
                              spelling, QStringLiteral("-b"), QStringLiteral("1M"),
                              QStringLiteral("-e"), QStringLiteral("1M")});
    QVERIFY2(o.status == QProcess::NormalExit && o.exitCode == 0, qPrintable(diagnostics(o)));
    QVERIFY2(o.out.contains(("\n# Collective test starting: " + op + "\n").toUtf8()),
             o.out.constData());
}

void tst_Cli::ncclTestsSendRecv() {
    // sendrecv_perf between the good design's first 2 servers (8 x 400G InfiniBand each):
    // one GPU per server sends across, on the one NIC next to it, so at 1 GiB busbw (= algbw,
    // nccl-tests' factor 1) sits just under that NIC's goodput, 400 Gb/s x NDR's 0.96 = 48
    // GB/s, and far under the 400 GB/s of the server's eight NICs together.
    json rows;
    runForRows({QStringLiteral("nccl-tests"), m_good, QStringLiteral("sendrecv_perf"),
                QStringLiteral("-b"), QStringLiteral("1G"), QStringLiteral("-e"),
                QStringLiteral("1G"), QStringLiteral("--servers"), QStringLiteral("2"),
                QStringLiteral("--json")},
               rows);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(rows.size(), std::size_t(1));
    const json& row = rows.at(0);
    QVERIFY(row.at("bytes").is_number_integer()); // whole bytes, as nccl-tests prints sizes
    QCOMPARE(row.at("bytes").get<long long>(), 1LL << 30);
    QCOMPARE(row.at("busBwGBps").get<double>(), row.at("algBwGBps").get<double>());
    const double busBw = row.at("busBwGBps");
    QVERIFY2(busBw > 47 && busBw <= 48, qPrintable(QString::number(busBw)));
}

void tst_Cli::validateSetsYourLogAgainstTheDesign() {
    // A real log of five runs on 10 x 8 H100, the design named once: every row of every run
    // against FabricLab, as text, JSON and CSV; the -J file alike.
    const QString fixtures = QStringLiteral(FABRICLAB_SOURCE_DIR "/tests/io/fixtures/");
    const QString log = fixtures + QStringLiteral("h100-10x8.nccl-tests.log");
    json design = generatorDesign();
    design["generator"]["servers"] = 10;
    design["generator"]["gpusPerServer"] = 8;
    design["generator"]["nicsPerServer"] = 8;
    const QString ten = m_dir.filePath(QStringLiteral("ten.fabric.json"));
    QVERIFY(writeFile(ten, QByteArray::fromStdString(design.dump())));
    json result;
    runForJson({"validate", ten, "--figures", log, "--json"}, result);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(result.at("runs").size(), std::size_t(5));
    QCOMPARE(result.at("comparedCount").get<int>(), 50);
    int within = 0;
    for (const json& run : result.at("runs")) {
        QCOMPARE(run.at("servers").get<int>(), 10);
        QCOMPARE(run.at("points").size(), std::size_t(10));
        for (const json& point : run.at("points"))
            within += point.at("withinTolerance").get<bool>();
    }
    QCOMPARE(result.at("withinCount").get<int>(), within); // the score counts its rows
    const Outcome text = runCli({"validate", ten, "--figures", log});
    QVERIFY2(text.exitCode == 0 && text.err.isEmpty(), qPrintable(diagnostics(text)));
    for (const char* binary : {"all_reduce_perf (line 1)", "all_gather_perf (line 108)",
                               "reduce_scatter_perf", "alltoall_perf", "sendrecv_perf", "score:"})
        QVERIFY2(text.out.contains(binary), binary);
    const Outcome csv = runCli({"validate", ten, "--figures", log, "--csv"});
    QVERIFY2(csv.exitCode == 0, qPrintable(diagnostics(csv)));
    const QList<QStringList> records = parseCsv(QString::fromUtf8(csv.out));
    QCOMPARE(records.size(), 51);
    QCOMPARE(records.front().front(), QStringLiteral("binary"));

    design["generator"]["servers"] = 2;
    const QString two = m_dir.filePath(QStringLiteral("two.fabric.json"));
    QVERIFY(writeFile(two, QByteArray::fromStdString(design.dump())));
    json minusJ;
    runForJson({"validate", two, "--figures",
                fixtures + QStringLiteral("h100-2x8-all-gather.nccl-tests.json"), "--json"},
               minusJ);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(minusJ.at("runs").at(0).at("binary").get<std::string>(),
             std::string("all_gather_perf"));
    QCOMPARE(minusJ.at("comparedCount").get<int>(), 3);

    // Refusals, one line each, exit 2: a log without its design, a cluster larger than the
    // design, a log that does not name its collective, FabricLab's figures with a design.
    const auto refused = [&](const QStringList& arguments, const char* words) {
        const Outcome outcome = runCli(arguments);
        QVERIFY2(outcome.exitCode == 2 && outcome.err.count('\n') == 1 &&
                     outcome.err.contains(words),
                 qPrintable(diagnostics(outcome)));
    };
    refused({"validate", "--figures", log}, "is set against the design it was measured on");
    refused({"validate", two, "--figures", log}, "the run used 10 servers (80 ranks)");
    const QString unnamed = m_dir.filePath(QStringLiteral("unnamed.log"));
    QVERIFY(writeFile(unnamed, "#  size count type redop root time algbw busbw #wrong\n"
                               "  1048576 262144 float none -1 100.0 10.49 9.18 0\n"));
    refused({"validate", two, "--figures", unnamed}, "name it with --op");
    json named;
    runForJson({"validate", two, "--figures", unnamed, "--op", "all_gather", "--json"}, named);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(named.at("runs").at(0).at("op").get<std::string>(), std::string("allgather"));
    const QString own = m_dir.filePath(QStringLiteral("own-figures.json"));
    QVERIFY(writeFile(own, R"({"about": "", "cases": []})"));
    refused({"validate", two, "--figures", own}, "FabricLab's figures name their own clusters");
}

void tst_Cli::validateScoresThePublishedFigures() {
    // `validate` runs the figures the validation suite asserts, through the same engine
    // function; its score must count what its rows say.
    json all;
    runForJson({QStringLiteral("validate"), QStringLiteral("--json")}, all);
    if (QTest::currentTestFailed())
        return;
    const json& figures = all.at("figures");
    int check = 0;
    int checkWithin = 0;
    int fit = 0;
    for (const json& f : figures) {
        const double low = f.at("published").at(0);
        const double high = f.at("published").at(1);
        const double got = f.at("predicted");
        QVERIFY2(got > 0, f.at("id").get<std::string>().c_str());
        QVERIFY(low <= high);
        // The verdict is the row's own arithmetic: outside the range by at most the tolerance.
        const double nearest = std::clamp(got, low, high);
        const bool within =
            std::abs(got - nearest) / nearest <= f.at("tolerance").get<double>() + 1e-12;
        QCOMPARE(f.at("withinTolerance").get<bool>(), within);
        if (f.at("set") == "check") {
            ++check;
            checkWithin += within;
        } else {
            ++fit;
        }
    }
    QCOMPARE(all.at("score").at("checkCount").get<int>(), check);
    QCOMPARE(all.at("score").at("checkWithin").get<int>(), checkWithin);
    QCOMPARE(all.at("score").at("fitCount").get<int>(), fit);
    QVERIFY(check > 200); // the set as published in the suite's README, not a handful
    QVERIFY(fit > 0);
    // Step times and sizing come with it, each counted from its rows.
    int stepsWithin = 0;
    for (const json& s : all.at("stepTimes")) {
        const double error = s.at("predictedStepSeconds").get<double>() /
                                 s.at("publishedStepSeconds").get<double>() -
                             1;
        QCOMPARE(s.at("withinTolerance").get<bool>(),
                 std::abs(error) <= s.at("tolerance").get<double>());
        stepsWithin += s.at("withinTolerance").get<bool>();
    }
    QCOMPARE(all.at("score").at("stepWithin").get<int>(), stepsWithin);
    QVERIFY(all.at("stepTimes").size() > 30);
    int exact = 0;
    for (const json& a : all.at("referenceArchitectures")) {
        QCOMPARE(a.at("exact").get<bool>(), a.at("published") == a.at("predicted"));
        exact += a.at("exact").get<bool>();
    }
    QCOMPARE(all.at("score").at("architectureExact").get<int>(), exact);
    QVERIFY(all.at("referenceArchitectures").size() >= 20);

    json checkOnly;
    runForJson({QStringLiteral("validate"), QStringLiteral("--set"), QStringLiteral("check"),
                QStringLiteral("--json")},
               checkOnly);
    QCOMPARE(checkOnly.at("figures").size(), static_cast<std::size_t>(check));
    QCOMPARE(checkOnly.at("score").at("fitCount").get<int>(), 0);
    // A user's own figures run alone, through the same function: a copy of one of
    // FabricLab's figures, renamed, comes out at FabricLab's figure for it.
    json copy = json::parse(R"({"set": "check", "source": "our run", "why": "our goal",
                                "tolerance": 0.1})");
    copy["id"] = "ours";
    // The figure's cluster, as the figures file states it, is not in the JSON report: take
    // it from the shipped file.
    QFile shipped(QStringLiteral(FABRICLAB_SOURCE_DIR "/resources/validation/nccl-tests.json"));
    QVERIFY(shipped.open(QIODevice::ReadOnly));
    const json shippedCases = json::parse(shipped.readAll().toStdString()).at("cases");
    for (const char* key : {"servers", "gpusPerServer", "nicsPerServer", "nicGbps", "fabric", "gpu",
                            "op", "algorithm", "bytes", "published"})
        copy[key] = shippedCases.at(0).at(key);
    if (shippedCases.at(0).contains("measure"))
        copy["measure"] = shippedCases.at(0).at("measure");
    const QString own = m_dir.filePath(QStringLiteral("own-figures.json"));
    QVERIFY(writeFile(own, QByteArray::fromStdString(json{{"cases", {copy}}}.dump())));
    json ours;
    runForJson(
        {QStringLiteral("validate"), QStringLiteral("--figures"), own, QStringLiteral("--json")},
        ours);
    QCOMPARE(ours.at("figures").size(), std::size_t{1});
    QCOMPARE(ours.at("figures").at(0).at("id").get<std::string>(), std::string("ours"));
    QCOMPARE(ours.at("figures").at(0).at("predicted").get<double>(),
             figures.at(0).at("predicted").get<double>());
    QCOMPARE(figures.at(0).at("id").get<std::string>(),
             shippedCases.at(0).at("id").get<std::string>());
    QVERIFY(ours.at("stepTimes").empty()); // only the file's figures, none of FabricLab's

    // The fit set is collectives only: steps and sizing are all checks.
    json fitOnly;
    runForJson({QStringLiteral("validate"), QStringLiteral("--set"), QStringLiteral("fit"),
                QStringLiteral("--json")},
               fitOnly);
    QCOMPARE(fitOnly.at("figures").size(), static_cast<std::size_t>(fit));
    QVERIFY(fitOnly.at("stepTimes").empty());
    QVERIFY(fitOnly.at("referenceArchitectures").empty());
}

void tst_Cli::badInput_data() {
    // "file" is written to {file} when not null; {good}, {explicit} and {dir} name fixtures.
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("words");

    const json gen = generatorDesign();
    const QStringList runFile{"run", "{file}", "--json"};
    const auto bad = [&](const char* name, const std::string& text, const char* where,
                         const char* words) {
        QTest::addRow("file: %s", name) << QByteArray::fromStdString(text) << runFile
                                        << QString::fromUtf8(where) << QString::fromUtf8(words);
    };
    const auto usage = [](const char* name, const QStringList& arguments, const char* where,
                          const char* words) {
        QTest::addRow("usage: %s", name)
            << QByteArray() << arguments << QString::fromUtf8(where) << QString::fromUtf8(words);
    };

    const QStringList sweepGood{"sweep", "{good}", "--servers", "4,8"};
    usage("shard zero", sweepGood + QStringList{"--shard", "0/4"}, "--shard \"0/4\"",
          "I must be from 1 to N");
    usage("shard past N", sweepGood + QStringList{"--shard", "5/4"}, "--shard \"5/4\"",
          "I must be from 1 to N");
    usage("shard not a fraction", sweepGood + QStringList{"--shard", "half"}, "--shard \"half\"",
          "expected I/N");
    usage("merge without files", {"sweep", "--merge"}, "sweep --merge", "shards' files");
    usage("bom in two formats", {"bom", "{good}", "--csv", "--json"}, "--csv and --json",
          "choose one");
    usage("plan of no splits", {"plan", "{good}", "--top", "0"}, "--top expects positive",
          "got \"0\"");
    usage("run in two formats", {"run", "{good}", "--csv", "--json"}, "--csv and --json",
          "choose one");
    usage("a shard as CSV", sweepGood + QStringList{"--shard", "1/2", "--csv"}, "--shard writes",
          "sweep --merge");
    usage("nccl-tests as CSV", {"nccl-tests", "{good}", "--csv"}, "nccl-tests does not take --csv",
          "nccl-tests --help");
    usage("validate with a design but no log", {"validate", "{good}"}, "go with --figures LOG",
          "nccl-tests output");
    usage("validate --csv without a log", {"validate", "--csv"}, "validate --csv", "--figures LOG");
    usage("bom on another fabric", {"bom", "{good}", "--fabric", "ib-ndr"},
          "bom does not take --fabric", "it takes --json, --csv, --prices, --months");
    usage("export without a format", {"export", "{good}"}, "export needs --format",
          "dot, slurm or ibnetdiscover");
    usage("export in an unknown format", {"export", "{good}", "--format", "xml"},
          "--format: expected dot, slurm or ibnetdiscover", "\"xml\"");
    const QString ethernet =
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json");
    usage("ibnetdiscover of an Ethernet design", {"export", ethernet, "--format", "ibnetdiscover"},
          "teaching-4-servers.fabric.json: ibnetdiscover describes InfiniBand", "runs on");
    usage("cabling with a seed", {"cabling", "{good}", "--seed", "3"},
          "cabling does not take --seed", "it takes --json, --csv, --prices, --months");
    // GNU conventions, as CLI11 reads them: no abbreviations, one value per option, ranges
    // and ids answered with what is allowed.
    usage("an abbreviated option", {"run", "{good}", "--fab", "ib-ndr"}, "run does not take --fab",
          "--fabric");
    usage("an option given twice", {"run", "{good}", "--fabric", "ib-ndr", "--fabric=roce-v2"},
          "--fabric given more than once", "give it once");
    usage("an option without its value", {"run", "{good}", "--fabric"}, "--fabric needs a value",
          "");
    usage("months below the range", {"run", "{good}", "--months", "0.5"}, "--months",
          "from 1 to 600, got \"0.5\"");
    usage("an unknown fabric", {"run", "{good}", "--fabric=infiniband"}, "unknown fabric",
          "(known: efa, ethernet-tcp, gcp-rdma, gcp-tcpx, gcp-tcpxo, ib-hdr, ib-ndr");
    usage("an unknown algorithm", {"nccl-tests", "{good}", "--algo", "rings"},
          "unknown algorithm \"rings\"", "known: ring, tree");
    usage("an unknown command", {"runn", "{good}"}, "unknown command \"runn\"", "expected run");
    const QStringList mergeFile{"sweep", "--merge", "{file}"};
    const auto merged = [&](const char* name, const char* text, const char* where,
                            const char* words) {
        QTest::addRow("merge: %s", name) << QByteArray(text) << mergeFile
                                         << QString::fromUtf8(where) << QString::fromUtf8(words);
    };
    merged("not JSON", "garbage\n", "{file}:1: at /:", "not a JSON line");
    merged("not a shard line", "{\"rows\": []}\n", "{file}:1: at /:", "\"point\"");
    // A sweep's identity as shards carry it (an empty one, with the FNV-1a 64 of "{}" as its
    // fingerprint); the checks below are about the points.
#define SWEEP "\"sweep\": {\"fingerprint\": \"fnv1a64:08f44b07b5901a25\"}, "
    merged("point past the sweep", "{\"point\": 5, \"of\": 3, " SWEEP "\"row\": {}}\n",
           "{file}:1: at /point:", "point 5 of a sweep of 3");
    merged("points missing", "{\"point\": 1, \"of\": 3, " SWEEP "\"row\": {}}\n",
           "{file}: at /:", "2 of 3 points missing (0, 2)");
    merged("a point twice",
           "{\"point\": 0, \"of\": 2, " SWEEP "\"row\": {}}\n{\"point\": 0, \"of\": 2, " SWEEP
           "\"row\": {}}\n",
           "{file}:2: at /point:", "also in");
    merged("two sizes of sweep",
           "{\"point\": 0, \"of\": 2, " SWEEP "\"row\": {}}\n{\"point\": 1, \"of\": 3, " SWEEP
           "\"row\": {}}\n",
           "{file}:2: at /of:", "sweep of 3 points, the others of 2");
#undef SWEEP
    merged("a line edited by hand",
           "{\"point\": 0, \"of\": 1, \"sweep\": {\"seed\": 2, \"fingerprint\": "
           "\"fnv1a64:08f44b07b5901a25\"}, \"row\": {}}\n",
           "{file}:1: at /sweep/fingerprint:", "does not match the sweep it describes");
    merged("a line without the sweep's fingerprint", "{\"point\": 0, \"of\": 1, \"row\": {}}\n",
           "{file}:1: at /sweep:", "no sweep fingerprint");

    bad("malformed", R"({"format": "fabriclab-design", "version": 1, )",
        "{file}: at /:", "not valid JSON");
    bad("not an object", "[]", "{file}: at /:", "design object");
    bad("newer version", patched(gen, {{"version", 2}}), "{file}: at /version:", "newer FabricLab");
    bad("unknown fabric", patched(gen, {{"fabric", "ib-ndrx"}}),
        "{file}: at /fabric:", "unknown fabric");
    bad("dangling link",
        patched(explicitDesign(), {{"links", {{{"a", "srv-1"}, {"b", "leaf-7"}}}}}),
        "{file}: at /links/0/b:", "leaf-7");
    bad("zero servers", patched(gen, {{"generator", {{"servers", 0}}}}),
        "{file}: at /generator/servers:", "servers");
    bad("typo in generator", patched(gen, {{"generator", {{"oversubscribtion", 1}}}}),
        "{file}: at /generator/oversubscribtion:", "unknown field");
    bad("tp*pp*dp != GPUs",
        patched(gen, {{"workload",
                       {{"model", "llama3-8b"},
                        {"gpu", "h100-sxm"},
                        {"globalBatchTokens", 1048576},
                        {"tp", 8},
                        {"dp", 3}}}}),
        "{file}: at /workload:", "tp x pp x dp");

    // Designs that load but cannot be simulated: still one clear line and exit 2.
    bad("disconnected fabric",
        R"({"format":"fabriclab-design","version":1,"fabric":"roce-v2",
            "nodes":[{"id":"l1","kind":"leaf"},{"id":"l2","kind":"leaf"},
                     {"id":"s1","kind":"server","nics":1},{"id":"s2","kind":"server","nics":1}],
            "links":[{"a":"s1","b":"l1"},{"a":"s2","b":"l2"}]})",
        "{file}:", "cannot reach");
    bad("collective over one GPU",
        R"({"format":"fabriclab-design","version":1,"fabric":"roce-v2",
            "nodes":[{"id":"l1","kind":"leaf"},{"id":"s1","kind":"server","gpus":1,"nics":1}],
            "links":[{"a":"s1","b":"l1"}]})",
        "{file}:", "at least two GPUs");
    bad("sharp on a fabric without it",
        patched(gen,
                {{"fabric", "roce-v2"},
                 {"collective", {{"op", "allreduce"}, {"bytes", 1024}, {"algorithm", "sharp"}}}}),
        "{file}:", "in-network reduction");
    bad("tree for all-to-all",
        patched(gen,
                {{"collective", {{"op", "alltoall"}, {"bytes", 1024}, {"algorithm", "tree"}}}}),
        "{file}:", "does not apply");
    usage("--seed abc", {"run", "{good}", "--seed", "abc"}, "--seed", "whole number");
    usage("--train-tokens 0", {"run", "{good}", "--train-tokens", "0"}, "--train-tokens",
          "token count");

    usage("no command", {}, "no command", "--help");
    usage("unknown command", {"simulate", "{good}"}, "\"simulate\"", "unknown command");
    usage("missing DESIGN", {"run", "--json"}, "run", "DESIGN");
    usage("missing file", {"run", "{dir}/missing.fabric.json"},
          "{dir}/missing.fabric.json: at /:", "cannot read");
    usage("a folder as DESIGN", {"run", "{dir}"}, "{dir}: at /:", "folder");
    usage("unknown option", {"run", "{good}", "--jsn"}, "run does not take --jsn",
          "it takes --json, --csv, --fabric");
    usage("--fabric nope", {"run", "{good}", "--fabric", "nope"}, "\"nope\"", "unknown fabric");
    usage("compare without --fabrics", {"compare", "{good}", "--json"}, "--fabrics", "compare");
    usage("compare with an unknown fabric", {"compare", "{good}", "--fabrics", "ib-ndr,nope"},
          "\"nope\"", "unknown fabric");
    usage("--servers 0", {"sweep", "{good}", "--servers", "0"}, "--servers", "positive");
    usage("--servers abc", {"sweep", "{good}", "--servers", "8,abc"}, "--servers", "\"abc\"");
    usage("--servers empty item", {"sweep", "{good}", "--servers", "8,,16"}, "--servers", "empty");
    usage("sweep without generator", {"sweep", "{explicit}", "--servers", "8"}, "sweep",
          "generator");
    usage("two designs", {"run", "{good}", "{explicit}"}, "{explicit}", "one design");
    usage("nccl-tests unknown op", {"nccl-tests", "{good}", "--op", "all_sum"}, "--op",
          "all_reduce");
    usage("nccl-tests unknown binary", {"nccl-tests", "{good}", "reduce_perf"}, "the test",
          "all_reduce");
    usage("nccl-tests -g not a count", {"nccl-tests", "{good}", "-g", "all_gather"}, "-g",
          "whole number");
    usage("nccl-tests unknown type", {"nccl-tests", "{good}", "-d", "float128"}, "-d", "bfloat16");
    usage("nccl-tests -J to a text file", {"nccl-tests", "{good}", "-J", "out.txt"}, "-J out.txt",
          "ending in .json");
    usage("nccl-tests unknown reduction", {"nccl-tests", "{good}", "-o", "xor"}, "-o", "mulsum");
    usage("nccl-tests size 0", {"nccl-tests", "{good}", "-b", "0"}, "-b", "size in bytes");
    usage("nccl-tests size suffix", {"nccl-tests", "{good}", "-e", "8T"}, "-e", "\"8T\"");
    usage("nccl-tests -b above -e", {"nccl-tests", "{good}", "-b", "1G", "-e", "1M"}, "-b",
          "larger");
    usage("nccl-tests factor 1", {"nccl-tests", "{good}", "-f", "1"}, "-f", "factor");
    usage("nccl-tests too many servers", {"nccl-tests", "{good}", "--servers", "9"}, "--servers 9",
          "4 servers");
    usage("nccl-tests unknown algorithm", {"nccl-tests", "{good}", "--algo", "spiral"}, "--algo",
          "spiral");
    usage("validate unknown set", {"validate", "--set", "tuned"}, "--set", "all, fit or check");
    usage("validate figures from a folder", {"validate", "--figures", "{dir}"}, "{dir}",
          "folder, not a figures file");
    const QStringList ownFigures{"validate", "--figures", "{file}"};
    const auto figures = [&](const char* name, const std::string& text, const char* where,
                             const char* words) {
        QTest::addRow("figures: %s", name) << QByteArray::fromStdString(text) << ownFigures
                                           << QString::fromUtf8(where) << QString::fromUtf8(words);
    };
    const json ownFigure = {{"id", "ours"},        {"set", "check"},
                            {"source", "our run"}, {"why", "our goal"},
                            {"servers", 2},        {"gpusPerServer", 8},
                            {"nicsPerServer", 8},  {"nicGbps", 400},
                            {"fabric", "ib-ndr"},  {"gpu", "h100-sxm"},
                            {"op", "allreduce"},   {"algorithm", "auto"},
                            {"bytes", 1073741824}, {"published", {400, 400}},
                            {"tolerance", 0.1}};
    const auto withMember = [&](const char* key, const json& value) {
        json figure = ownFigure;
        figure[key] = value;
        return json{{"cases", {figure}}}.dump();
    };
    figures("not JSON", "{\"cases\": [", "{file}", "not valid JSON");
    figures("unknown fabric", withMember("fabric", "ib-fdr"), "{file}: figure ours: at /fabric",
            "unknown fabric");
    figures("cluster past the limit", withMember("servers", 4096), "{file}: at /cases/0/servers",
            "16384 GPUs");
    figures("no source", withMember("source", ""), "{file}: at /cases/0/source",
            "where it comes from");
    usage("nccl-tests nvls-tree on one server",
          {"nccl-tests", "{good}", "--servers", "1", "--algo", "nvls-tree"}, "{good}",
          "would not run");
}

void tst_Cli::badInput() {
    QFETCH(QByteArray, file);
    QFETCH(QStringList, arguments);
    QFETCH(QString, where);
    QFETCH(QString, words);

    const QString filePath = m_dir.filePath(
        QString::fromUtf8(QTest::currentDataTag())
            .replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("-")) +
        QStringLiteral(".fabric.json"));
    if (!file.isNull())
        QVERIFY(writeFile(filePath, file));
    const auto expand = [&](QString text) {
        return text.replace(QStringLiteral("{file}"), filePath)
            .replace(QStringLiteral("{good}"), m_good)
            .replace(QStringLiteral("{explicit}"), m_explicit)
            .replace(QStringLiteral("{dir}"), m_dir.path());
    };
    for (QString& argument : arguments)
        argument = expand(argument);

    const Outcome o = runCli(arguments);
    QVERIFY2(o.status == QProcess::NormalExit, qPrintable(diagnostics(o)));
    QVERIFY2(o.exitCode == 2, qPrintable(diagnostics(o)));
    QVERIFY2(o.out.isEmpty(), qPrintable(diagnostics(o)));
    QVERIFY2(o.err.endsWith('\n'), qPrintable(diagnostics(o)));
    QVERIFY2(o.err.count('\n') == 1, qPrintable(diagnostics(o)));
    const QString line = QString::fromUtf8(o.err).trimmed();
    QVERIFY2(!line.isEmpty(), qPrintable(diagnostics(o)));
    QVERIFY2(line.contains(expand(where)),
             qPrintable(expand(where) + QStringLiteral(" not in: ") + line));
    QVERIFY2(line.contains(words), qPrintable(words + QStringLiteral(" not in: ") + line));
}

void tst_Cli::samples_data() {
    QTest::addColumn<QString>("path");
    const QDir samples(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples"));
    const QStringList files =
        samples.entryList({QStringLiteral("*.fabric.json")}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        QSKIP("no samples/*.fabric.json yet");
    for (const QString& name : files)
        QTest::newRow(qPrintable(name)) << samples.filePath(name);
}

void tst_Cli::samples() {
    QFETCH(QString, path);
    json report;
    runForJson({QStringLiteral("run"), path, QStringLiteral("--json")}, report);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(isNumber(report, "gpus"));
    QVERIFY(report.at("gpus").get<long long>() > 0);
    QVERIFY(report.contains("cost") && isNumber(report.at("cost"), "fabricCapexUsd"));
    QVERIFY(report.at("cost").at("fabricCapexUsd").get<double>() > 0);

    // The bill of materials adds up to the capex and power `run` reports, in JSON and in
    // CSV (to the cent and the tenth of a watt the CSV is written in).
    const double capex = report.at("cost").at("fabricCapexUsd").get<double>();
    const double watts = report.at("cost").at("powerWatts").get<double>();
    json bom;
    runForJson({QStringLiteral("bom"), path, QStringLiteral("--json")}, bom);
    if (QTest::currentTestFailed())
        return;
    double sumUsd = 0;
    double sumWatts = 0;
    for (const json& line : bom.at("bom")) {
        QCOMPARE(line.at("totalUsd").get<double>(),
                 line.at("unitUsd").get<double>() * line.at("quantity").get<double>());
        sumUsd += line.at("totalUsd").get<double>();
        sumWatts += line.at("totalWatts").get<double>();
        QVERIFY2(!line.at("priceSource").get<std::string>().empty(),
                 line.at("partId").get<std::string>().c_str());
    }
    // Sums of a few dozen doubles: a relative 1e-9 covers their rounding, no more.
    QVERIFY(qAbs(sumUsd - capex) <= 1e-9 * capex);
    QVERIFY(qAbs(bom.at("fabricCapexUsd").get<double>() - capex) <= 1e-9 * capex);
    QVERIFY(qAbs(sumWatts - watts) <= 1e-9 * std::max(1.0, watts));
    const Outcome csv = runCli({QStringLiteral("bom"), path, QStringLiteral("--csv")});
    QVERIFY2(csv.exitCode == 0, qPrintable(diagnostics(csv)));
    const QList<QStringList> records = parseCsv(QString::fromUtf8(csv.out));
    QCOMPARE(records.size(), static_cast<qsizetype>(bom.at("bom").size()) + 2);
    QCOMPARE(records.front().value(7), QStringLiteral("extended USD"));
    for (const QStringList& record : records)
        QCOMPARE(record.size(), records.front().size());
    QCOMPARE(records.back().front(), QStringLiteral("total"));
    QCOMPARE(records.back().value(7).toDouble(), std::round(capex * 100) / 100);

    // The cabling plan: one CSV record per cable of the JSON plan, each end named.
    json cabling;
    runForJson({QStringLiteral("cabling"), path, QStringLiteral("--json")}, cabling);
    if (QTest::currentTestFailed())
        return;
    const Outcome plan = runCli({QStringLiteral("cabling"), path, QStringLiteral("--csv")});
    QVERIFY2(plan.exitCode == 0, qPrintable(diagnostics(plan)));
    const QList<QStringList> cables = parseCsv(QString::fromUtf8(plan.out));
    QCOMPARE(cables.size(), static_cast<qsizetype>(cabling.at("cables").size()) + 1);
    QCOMPARE(cables.front().value(3), QStringLiteral("end A port"));
    for (qsizetype i = 1; i < cables.size(); ++i)
        QVERIFY(!cables[i].value(3).isEmpty() && !cables[i].value(5).isEmpty());
}

void tst_Cli::exportWritesAllOrNothing() {
    // --out writes what the command prints, and a folder that cannot be written leaves no
    // file (not even the temporary one) and says which file, on one line, with exit 2.
    const QString out = m_dir.filePath(QStringLiteral("topology.conf"));
    const Outcome printed = runCli({"export", m_good, "--format", "slurm"});
    QVERIFY2(printed.exitCode == 0, qPrintable(diagnostics(printed)));
    const Outcome written = runCli({"export", m_good, "--format", "slurm", "--out", out});
    QVERIFY2(written.exitCode == 0 && written.out.isEmpty(), qPrintable(diagnostics(written)));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), printed.out);

    const QString missing = m_dir.filePath(QStringLiteral("no-such-folder/fabric.dot"));
    const Outcome refused = runCli({"export", m_good, "--format", "dot", "--out", missing});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.out.isEmpty(), qPrintable(diagnostics(refused)));
    QCOMPARE(refused.err.count('\n'), 1);
    QVERIFY2(refused.err.contains(missing.toUtf8()), qPrintable(diagnostics(refused)));
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("no-such-folder"))));
}

void tst_Cli::reportWritesAPdfOrSaysWhy() {
    // The report is the app's, drawn offscreen: a PDF when it can be written; otherwise one
    // line naming the file, exit 2, nothing left behind. Usage errors are the CLI's own.
    const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
    const Outcome written = runCli({"report", m_good, "--out", pdf, "--fabrics", "ib-ndr,roce-v2"});
    QVERIFY2(written.exitCode == 0 && written.out.isEmpty(), qPrintable(diagnostics(written)));
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.read(5), QByteArray("%PDF-"));

    const QString missing = m_dir.filePath(QStringLiteral("no-such-folder/report.pdf"));
    const Outcome refused = runCli({"report", m_good, "--out", missing});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.out.isEmpty(), qPrintable(diagnostics(refused)));
    QCOMPARE(refused.err.count('\n'), 1);
    QVERIFY2(refused.err.contains(missing.toUtf8()), qPrintable(diagnostics(refused)));
    QVERIFY(!QFileInfo::exists(missing));

    for (const QStringList& bad :
         {QStringList{"report", m_good}, QStringList{"report", m_good, "--out", pdf, "--json"},
          QStringList{"report", m_good, "--out", pdf, "--fabrics", "no-such-fabric"}}) {
        const Outcome o = runCli(bad);
        QVERIFY2(o.exitCode == 2 && o.out.isEmpty() && o.err.count('\n') == 1,
                 qPrintable(bad.join(' ') + ": " + diagnostics(o)));
    }
}

void tst_Cli::importMakesADesignOrNamesTheLine() {
    // Export, import, run: the imported design is one the engine runs, with the same GPUs.
    const QString conf = m_dir.filePath(QStringLiteral("imported.conf"));
    const QString design = m_dir.filePath(QStringLiteral("imported.fabric.json"));
    QVERIFY(runCli({"export", m_good, "--format", "slurm", "--out", conf}).exitCode == 0);
    const Outcome imported = runCli({"import", "--format", "slurm", conf, "--out", design,
                                     "--gpus-per-server", "8", "--name", "from Slurm"});
    QVERIFY2(imported.exitCode == 0 && imported.out.isEmpty(), qPrintable(diagnostics(imported)));
    const Outcome original = runCli({"run", m_good, "--json"});
    const Outcome again = runCli({"run", design, "--json"});
    QVERIFY2(again.exitCode == 0, qPrintable(diagnostics(again)));
    json before;
    json after;
    QString error;
    QVERIFY2(parseJson(original.out, before, error), qPrintable(error));
    QVERIFY2(parseJson(again.out, after, error), qPrintable(error));
    QCOMPARE(after["gpus"].get<int>(), before["gpus"].get<int>());

    // A file cut short: one line naming the file and its line, exit 2, no design written.
    const QString cut = m_dir.filePath(QStringLiteral("cut.topo"));
    QVERIFY(
        writeFile(cut, "vendid=0x2c9\nSwitch\t36 \"S-0000000000000001\"\t# \"leaf\"\n[1]\t\"H-00"));
    const QString refusedPath = m_dir.filePath(QStringLiteral("refused.fabric.json"));
    const Outcome refused =
        runCli({"import", "--format", "ibnetdiscover", cut, "--out", refusedPath});
    QCOMPARE(refused.exitCode, 2);
    QCOMPARE(refused.err.count('\n'), 1);
    QVERIFY2(refused.err.contains((cut + QStringLiteral(":3:")).toUtf8()),
             qPrintable(diagnostics(refused)));
    QVERIFY(!QFileInfo::exists(refusedPath));

    // An id the catalog lacks is answered with the ids it has, and nothing is written.
    const Outcome unknownGpu =
        runCli({"import", "--format", "slurm", conf, "--out", refusedPath, "--gpu", "gpu-x"});
    QCOMPARE(unknownGpu.exitCode, 2);
    QVERIFY2(unknownGpu.err.contains((conf + ": unknown GPU \"gpu-x\" (known: ").toUtf8()) &&
                 unknownGpu.err.contains("h100-sxm"),
             qPrintable(diagnostics(unknownGpu)));
    const Outcome unknownFabric =
        runCli({"import", "--format", "slurm", conf, "--out", refusedPath, "--fabric", "ndr"});
    QCOMPARE(unknownFabric.exitCode, 2);
    QVERIFY2(unknownFabric.err.contains("unknown fabric \"ndr\" (known: efa, "),
             qPrintable(diagnostics(unknownFabric)));
    QVERIFY(!QFileInfo::exists(refusedPath));
}

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_Cli.moc"
