// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The JSON Schemas FabricLab ships (schemas/, docs/output-contract.md) describe what it
// really reads and writes: every sample follows the design schema, and every command's JSON
// output, on two designs, follows its own schema, head included. A document that breaks the
// contract (no schemaVersion, a key misspelt) is refused, so the check can fail.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "cli/CliProcess.hpp"

#include <nlohmann/json.hpp>
#endif

using namespace fabriclab::testing;

namespace {

const QString kSchemas = QStringLiteral(FABRICLAB_SOURCE_DIR "/schemas/");

/// What the validator said: exit code and its lines (one per violation).
struct Verdict {
    int exitCode = -1;
    QString said;
};

Verdict validate(const QString& schema, const QStringList& files, bool lines = false) {
    QProcess process;
    QStringList arguments{QStringLiteral(FABRICLAB_SOURCE_DIR "/tests/schemas/validate_json.py")};
    if (lines)
        arguments << QStringLiteral("--lines");
    arguments << kSchemas + schema << files;
    process.start(QStringLiteral(FABRICLAB_PYTHON), arguments);
    if (!process.waitForFinished(120000))
        return {-1, QStringLiteral("the validator did not finish")};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError())};
}

QString sample(const char* name) {
    return QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/%1.fabric.json").arg(QLatin1String(name));
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

} // namespace

class tst_OutputSchemas : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everySampleFollowsTheDesignSchema();
    void aDesignTheReaderRefusesIsRefused();
    void everyCommandFollowsItsSchema_data();
    void everyCommandFollowsItsSchema();
    void sweepShardsAndTheirMerge();
    void ncclTestsFileAndMeasuredLog();
    void importWritesADesignOfTheSchema();
    void anOutputWithoutItsHeadIsRefused();

private:
    /// Runs the CLI and keeps its stdout as a file for the validator.
    QString outputOf(const QStringList& arguments, const QString& name);

    QTemporaryDir m_dir;
};

void tst_OutputSchemas::initTestCase() {
    QVERIFY(m_dir.isValid());
    // Without the validator every check below would pass by checking nothing.
    const Verdict probe =
        validate(QStringLiteral("design.schema.json"), {sample("teaching-4-servers")});
    QVERIFY2(probe.exitCode == 0,
             qPrintable(QStringLiteral("python3-jsonschema missing? ") + probe.said));
}

QString tst_OutputSchemas::outputOf(const QStringList& arguments, const QString& name) {
    const Outcome o = runCli(arguments);
    if (o.status != QProcess::NormalExit || o.exitCode != 0) {
        QTest::qFail(qPrintable(diagnostics(o)), __FILE__, __LINE__);
        return {};
    }
    const QString path = m_dir.filePath(name);
    if (!writeFile(path, o.out)) {
        QTest::qFail(qPrintable(QStringLiteral("cannot write ") + path), __FILE__, __LINE__);
        return {};
    }
    return path;
}

void tst_OutputSchemas::everySampleFollowsTheDesignSchema() {
    QStringList samples;
    for (const QString& name :
         QDir(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples"))
             .entryList({QStringLiteral("*.fabric.json")}, QDir::Files, QDir::Name))
        samples << QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/") + name;
    QVERIFY(samples.size() >= 12);
    const Verdict v = validate(QStringLiteral("design.schema.json"), samples);
    QVERIFY2(v.exitCode == 0, qPrintable(v.said));
}

void tst_OutputSchemas::aDesignTheReaderRefusesIsRefused() {
    // An unknown key and a negative GPU count: the reader refuses both, so must the schema.
    QFile in(sample("teaching-4-servers"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    nlohmann::json design = nlohmann::json::parse(in.readAll().toStdString());
    design["fabrik"] = "ib-ndr";
    const QString path = m_dir.filePath(QStringLiteral("unknown-key.fabric.json"));
    QVERIFY(writeFile(path, QByteArray::fromStdString(design.dump())));
    const Verdict v = validate(QStringLiteral("design.schema.json"), {path});
    QCOMPARE(v.exitCode, 1);
    QVERIFY2(v.said.contains(QStringLiteral("fabrik")), qPrintable(v.said));
}

void tst_OutputSchemas::everyCommandFollowsItsSchema_data() {
    QTest::addColumn<QStringList>("arguments"); // DESIGN goes after the command
    QTest::addColumn<QString>("schema");
    const struct {
        const char* name;
        QStringList arguments;
        const char* schema;
    } commands[] = {
        {"run", {"run", "--json"}, "run.schema.json"},
        {"run --fabric --seed",
         {"run", "--fabric", "roce-v2", "--seed", "7", "--json"},
         "run.schema.json"},
        {"compare",
         {"compare", "--fabrics", "ib-ndr,roce-v2,ethernet-tcp", "--json"},
         "compare.schema.json"},
        {"sweep",
         {"sweep", "--servers", "2,4", "--fabrics", "ib-ndr,spectrum-x", "--json"},
         "sweep.schema.json"},
        {"nccl-tests",
         {"nccl-tests", "alltoall_perf", "-b", "1M", "-e", "64M", "-f", "4", "--json"},
         "nccl-tests.schema.json"},
        {"bom", {"bom", "--json"}, "bom.schema.json"},
        {"cabling", {"cabling", "--json"}, "cabling.schema.json"},
        {"plan", {"plan", "--top", "3", "--json"}, "plan.schema.json"},
    };
    for (const char* design : {"teaching-4-servers", "workshop-16gpu-leaf-spine"})
        for (const auto& c : commands) {
            // A sweep regenerates its design: the drawn teaching sample has no generator.
            if (QByteArrayView(c.name) == "sweep" && QByteArrayView(design) == "teaching-4-servers")
                continue;
            QStringList arguments = c.arguments;
            arguments.insert(1, sample(design));
            QTest::addRow("%s %s", c.name, design) << arguments << QString::fromLatin1(c.schema);
        }
    QTest::addRow("catalog") << QStringList{QStringLiteral("catalog"), QStringLiteral("--json")}
                             << QStringLiteral("catalog.schema.json");
    QTest::addRow("validate") << QStringList{QStringLiteral("validate"), QStringLiteral("--set"),
                                             QStringLiteral("check"), QStringLiteral("--json")}
                              << QStringLiteral("validation.schema.json");
}

void tst_OutputSchemas::everyCommandFollowsItsSchema() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, schema);
    const QString output = outputOf(arguments, QStringLiteral("output.json"));
    if (output.isEmpty())
        return;
    const Verdict v = validate(schema, {output});
    QVERIFY2(v.exitCode == 0, qPrintable(v.said));
}

void tst_OutputSchemas::sweepShardsAndTheirMerge() {
    QStringList sweep{QStringLiteral("sweep"),     sample("workshop-16gpu-leaf-spine"),
                      QStringLiteral("--servers"), QStringLiteral("2,4,8"),
                      QStringLiteral("--fabrics"), QStringLiteral("ib-ndr,roce-v2")};
    const QString first =
        outputOf(sweep + QStringList{QStringLiteral("--shard"), QStringLiteral("1/2")},
                 QStringLiteral("shard-1.jsonl"));
    const QString second =
        outputOf(sweep + QStringList{QStringLiteral("--shard"), QStringLiteral("2/2")},
                 QStringLiteral("shard-2.jsonl"));
    if (first.isEmpty() || second.isEmpty())
        return;
    const Verdict lines =
        validate(QStringLiteral("sweep-shard-line.schema.json"), {first, second}, true);
    QVERIFY2(lines.exitCode == 0, qPrintable(lines.said));
    const QString merged = outputOf({QStringLiteral("sweep"), QStringLiteral("--merge"), first,
                                     second, QStringLiteral("--json")},
                                    QStringLiteral("merged.json"));
    if (merged.isEmpty())
        return;
    const Verdict whole = validate(QStringLiteral("sweep.schema.json"), {merged});
    QVERIFY2(whole.exitCode == 0, qPrintable(whole.said));
}

void tst_OutputSchemas::ncclTestsFileAndMeasuredLog() {
    // The -J file keeps nccl-tests' layout and adds FabricLab's head; read back as a team's
    // log, it is set against the design it came from.
    const QString file = m_dir.filePath(QStringLiteral("predicted.json"));
    const QString design = sample("workshop-16gpu-leaf-spine");
    const Outcome written =
        runCli({QStringLiteral("nccl-tests"), design, QStringLiteral("-b"), QStringLiteral("8M"),
                QStringLiteral("-e"), QStringLiteral("128M"), QStringLiteral("-f"),
                QStringLiteral("4"), QStringLiteral("-J"), file});
    QVERIFY2(written.exitCode == 0, qPrintable(diagnostics(written)));
    const Verdict asFile = validate(QStringLiteral("nccl-tests-file.schema.json"), {file});
    QVERIFY2(asFile.exitCode == 0, qPrintable(asFile.said));
    const QString measured = outputOf({QStringLiteral("validate"), design,
                                       QStringLiteral("--figures"), file, QStringLiteral("--json")},
                                      QStringLiteral("measured.json"));
    if (measured.isEmpty())
        return;
    const Verdict v = validate(QStringLiteral("measured.schema.json"), {measured});
    QVERIFY2(v.exitCode == 0, qPrintable(v.said));
}

void tst_OutputSchemas::importWritesADesignOfTheSchema() {
    const QString exported =
        outputOf({QStringLiteral("export"), sample("workshop-16gpu-leaf-spine"),
                  QStringLiteral("--format"), QStringLiteral("slurm")},
                 QStringLiteral("topology.conf"));
    if (exported.isEmpty())
        return;
    const QString imported = m_dir.filePath(QStringLiteral("imported.fabric.json"));
    const Outcome o = runCli({QStringLiteral("import"), exported, QStringLiteral("--format"),
                              QStringLiteral("slurm"), QStringLiteral("--out"), imported});
    QVERIFY2(o.exitCode == 0, qPrintable(diagnostics(o)));
    const Verdict v = validate(QStringLiteral("design.schema.json"), {imported});
    QVERIFY2(v.exitCode == 0, qPrintable(v.said));
}

void tst_OutputSchemas::anOutputWithoutItsHeadIsRefused() {
    const QString output =
        outputOf({QStringLiteral("run"), sample("teaching-4-servers"), QStringLiteral("--json")},
                 QStringLiteral("run.json"));
    if (output.isEmpty())
        return;
    QFile in(output);
    QVERIFY(in.open(QIODevice::ReadOnly));
    nlohmann::ordered_json run = nlohmann::ordered_json::parse(in.readAll().toStdString());
    in.close();
    run.erase("schemaVersion");
    run["collective"]["busbwGBps"] = run["collective"]["busBwGBps"]; // the old spelling
    QVERIFY(writeFile(output, QByteArray::fromStdString(run.dump())));
    const Verdict v = validate(QStringLiteral("run.schema.json"), {output});
    QCOMPARE(v.exitCode, 1);
    QVERIFY2(v.said.contains(QStringLiteral("schemaVersion")), qPrintable(v.said));
    QVERIFY2(v.said.contains(QStringLiteral("busbwGBps")), qPrintable(v.said));
}

QTEST_MAIN(tst_OutputSchemas)
#include "tst_OutputSchemas.moc"
