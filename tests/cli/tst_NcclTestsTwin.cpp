// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// `fabriclab-cli nccl-tests` read by a parser written for real nccl-tests output: the scripts
// teams already keep for their logs must read FabricLab's prediction as they read a run.
//
// The parser is AWS's nccl-tests to CSV converter (aws-samples/awsome-distributed-training,
// micro-benchmarks/nccl-tests/nccl_to_csv.py, MIT-0; docs/sources.md "Parsers of nccl-tests
// output"). Its rule is restated here, not copied: a row is a line that, trimmed, holds the
// size and count as whole numbers, the type (float, double, int or half), the reduction (sum,
// prod, max, min or none), the root as a possibly negative whole number, then for the
// out-of-place and then the in-place half the time, algbw and busbw as plain decimals (digits,
// an optional point, digits) and #wrong as a whole number or N/A. The footer is "# Avg bus
// bandwidth", optional spaces, a colon, and a plain decimal. Anything else is passed over.
#include <QRegularExpression>
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "cli/CliProcess.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#endif

using namespace fabriclab::testing;
using nlohmann::json;

namespace {

/// One table row as the converter's rule reads it; nothing when the line is not a row.
struct ParsedRow {
    double bytes = 0;
    QString type;
    QString reduction;
    double outOfPlaceBusBw = 0;
    double inPlaceBusBw = 0;
};

std::optional<ParsedRow> readAsTheConverterDoes(const QString& line) {
    static const QString decimal = QStringLiteral("(\\d+\\.?\\d*)");
    static const QString wrong = QStringLiteral("(\\d+|N/A)");
    static const QRegularExpression row(
        QStringLiteral("^(\\d+)\\s+(\\d+)\\s+(float|double|int|half)\\s+(sum|prod|max|min|none)"
                       "\\s+(-?\\d+)") +
        QStringLiteral("\\s+%1\\s+%1\\s+%1\\s+%2").arg(decimal, wrong).repeated(2));
    const QRegularExpressionMatch m = row.match(line.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    return ParsedRow{m.captured(1).toDouble(), m.captured(3), m.captured(4),
                     m.captured(8).toDouble(), m.captured(12).toDouble()};
}

std::optional<double> averageAsTheConverterReadsIt(const QString& text) {
    static const QRegularExpression footer(
        QStringLiteral("# Avg bus bandwidth\\s*:\\s*(\\d+\\.?\\d*)"));
    const QRegularExpressionMatch m = footer.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(1).toDouble();
}

QString sample(const char* name) {
    return QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/%1.fabric.json").arg(QLatin1String(name));
}

} // namespace

class tst_NcclTestsTwin : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aPublicParserReadsEveryRow_data();
    void aPublicParserReadsEveryRow();
};

void tst_NcclTestsTwin::aPublicParserReadsEveryRow_data() {
    QTest::addColumn<QString>("design");
    QTest::addColumn<QString>("binary");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("reduction");
    // Every binary FabricLab twins, 8 B to 8 GiB by doubling as teams run it (times from
    // microseconds to tens of thousands, printed with nccl-tests' three widths), on one
    // server and across a leaf/spine fabric.
    const char* designs[] = {"teaching-4-servers", "workshop-16gpu-leaf-spine"};
    struct Binary {
        const char* name;
        const char* reduction; // what nccl-tests prints in the redop column
    };
    const Binary binaries[] = {{"all_reduce_perf", "sum"},     {"all_gather_perf", "none"},
                               {"reduce_scatter_perf", "sum"}, {"alltoall_perf", "none"},
                               {"broadcast_perf", "none"},     {"sendrecv_perf", "sum"}};
    for (const char* design : designs)
        for (const Binary& b : binaries)
            QTest::addRow("%s %s", design, b.name)
                << sample(design) << QString::fromLatin1(b.name) << QStringLiteral("float")
                << QString::fromLatin1(b.reduction);
    // The types the converter knows besides float, and a reduction given with -o.
    QTest::addRow("half all_reduce_perf -o max")
        << sample("workshop-16gpu-leaf-spine") << QStringLiteral("all_reduce_perf")
        << QStringLiteral("half") << QStringLiteral("max");
    QTest::addRow("double reduce_scatter_perf -o min")
        << sample("workshop-16gpu-leaf-spine") << QStringLiteral("reduce_scatter_perf")
        << QStringLiteral("double") << QStringLiteral("min");
}

void tst_NcclTestsTwin::aPublicParserReadsEveryRow() {
    QFETCH(QString, design);
    QFETCH(QString, binary);
    QFETCH(QString, type);
    QFETCH(QString, reduction);
    QStringList command{QStringLiteral("nccl-tests"),
                        design,
                        binary,
                        QStringLiteral("-b"),
                        QStringLiteral("8"),
                        QStringLiteral("-e"),
                        QStringLiteral("8G"),
                        QStringLiteral("-f"),
                        QStringLiteral("2"),
                        QStringLiteral("-d"),
                        type};
    if (reduction != QLatin1String("none") && reduction != QLatin1String("sum"))
        command << QStringLiteral("-o") << reduction;
    const Outcome table = runCli(command);
    QVERIFY2(table.status == QProcess::NormalExit && table.exitCode == 0,
             qPrintable(diagnostics(table)));
    const Outcome asJson = runCli(command + QStringList{QStringLiteral("--json")});
    QVERIFY2(asJson.exitCode == 0, qPrintable(diagnostics(asJson)));
    const json figures = json::parse(asJson.out.toStdString()).at("rows");
    QVERIFY(figures.is_array() && !figures.empty());

    const QString text = QString::fromUtf8(table.out);
    std::vector<ParsedRow> rows;
    for (const QString& line : text.split('\n', Qt::SkipEmptyParts)) {
        if (line.startsWith('#'))
            continue;
        const std::optional<ParsedRow> row = readAsTheConverterDoes(line);
        // A line that is neither a comment nor a row would be lost to the team's script.
        QVERIFY2(row.has_value(), qPrintable(QStringLiteral("not read: \"%1\"").arg(line)));
        rows.push_back(*row);
    }
    QCOMPARE(rows.size(), figures.size());
    double sum = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(rows[i].type, type);
        QCOMPARE(rows[i].reduction, reduction);
        QCOMPARE(rows[i].bytes, figures[i].at("bytes").get<double>());
        // The table prints two decimals, the JSON three: they differ by at most 0.0055.
        const double busBw = figures[i].at("busBwGBps").get<double>();
        QVERIFY2(std::abs(rows[i].outOfPlaceBusBw - busBw) <= 0.0055 + 1e-9,
                 qPrintable(QStringLiteral("row %1: %2 against %3")
                                .arg(i)
                                .arg(rows[i].outOfPlaceBusBw)
                                .arg(busBw)));
        QCOMPARE(rows[i].inPlaceBusBw, rows[i].outOfPlaceBusBw);
        sum += busBw;
    }
    const std::optional<double> average = averageAsTheConverterReadsIt(text);
    QVERIFY2(average.has_value(), "no \"# Avg bus bandwidth\" footer");
    // The footer is the mean of the unrounded figures, printed with two decimals; the mean
    // of the JSON's three-decimal figures is within 0.0005 of it.
    QVERIFY(std::abs(*average - sum / static_cast<double>(rows.size())) <= 0.0055 + 1e-9);
}

QTEST_MAIN(tst_NcclTestsTwin)
#include "tst_NcclTestsTwin.moc"
