// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Golden tests: every sample, run headless through fabriclab-cli, must reproduce the
// reviewed report in tests/golden/expected/. After an intended change, regenerate with
//   tst_Golden --update-golden
// and review the diff like any other change.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

bool g_update = false;

const QString kSamples = QStringLiteral(FABRICLAB_SOURCE_DIR "/samples");
const QString kExpected = QStringLiteral(FABRICLAB_SOURCE_DIR "/tests/golden/expected");

/// Numbers agree to 1e-9 relative: reports are rounded on output, so any real change in
/// the engine shows, while the last bit of a double does not.
QString firstDifference(const nlohmann::json& want, const nlohmann::json& got,
                        const QString& path) {
    if (want.is_number() && got.is_number()) {
        const double a = want.get<double>();
        const double b = got.get<double>();
        if (std::fabs(a - b) <= 1e-9 * std::max(1.0, std::max(std::fabs(a), std::fabs(b))))
            return {};
        return path + QStringLiteral(": expected %1, got %2").arg(a, 0, 'g', 12).arg(b, 0, 'g', 12);
    }
    if (want.type() != got.type())
        return path +
               QStringLiteral(": expected %1, got %2")
                   .arg(QString::fromStdString(want.dump()), QString::fromStdString(got.dump()));
    if (want.is_object()) {
        for (const auto& [key, value] : want.items()) {
            const QString child = path + "/" + QString::fromStdString(key);
            if (!got.contains(key))
                return child + QStringLiteral(": missing");
            if (auto diff = firstDifference(value, got[key], child); !diff.isEmpty())
                return diff;
        }
        for (const auto& [key, value] : got.items())
            if (!want.contains(key))
                return path + "/" + QString::fromStdString(key) + QStringLiteral(": unexpected");
        return {};
    }
    if (want.is_array()) {
        if (want.size() != got.size())
            return path + QStringLiteral(": expected %1 elements, got %2")
                              .arg(want.size())
                              .arg(got.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            if (auto diff = firstDifference(want[i], got[i], path + "/" + QString::number(i));
                !diff.isEmpty())
                return diff;
        return {};
    }
    return want == got ? QString() : path + QStringLiteral(": differs");
}

} // namespace

class tst_Golden : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void samplesMatchExpected_data() {
        QTest::addColumn<QString>("sample");
        const auto files = QDir(kSamples).entryList({QStringLiteral("*.fabric.json")}, QDir::Files);
        QVERIFY2(files.size() >= 8, "the samples folder lost designs");
        for (const auto& file : files)
            QTest::newRow(qPrintable(file)) << file;
    }

    void samplesMatchExpected() {
        QFETCH(QString, sample);
        QProcess cli;
        cli.start(QStringLiteral(FABRICLAB_CLI),
                  {QStringLiteral("run"), kSamples + "/" + sample, QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        const QByteArray output = cli.readAllStandardOutput();
        const QString expectedPath =
            kExpected + "/" + QString(sample).replace(".fabric.json", ".json");
        if (g_update) {
            QFile out(expectedPath);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(output);
            return;
        }
        QFile in(expectedPath);
        QVERIFY2(in.open(QIODevice::ReadOnly),
                 qPrintable("no golden file " + expectedPath + "; run tst_Golden --update-golden"));
        auto want = nlohmann::json::parse(in.readAll().toStdString());
        auto got = nlohmann::json::parse(output.toStdString());
        // The head names the release that wrote the report; a release changes no figure.
        QVERIFY(got.contains("fabriclabVersion"));
        want.erase("fabriclabVersion");
        got.erase("fabriclabVersion");
        const QString difference = firstDifference(want, got, QString());
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    }
};

int main(int argc, char** argv) {
    // --update-golden is ours; every other argument goes to QTest.
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (QByteArray(argv[i]) == "--update-golden")
            g_update = true;
        else
            args.push_back(argv[i]);
    }
    QCoreApplication app(argc, argv);
    tst_Golden test;
    return QTest::qExec(&test, static_cast<int>(args.size()), args.data());
}

#include "tst_Golden.moc"
