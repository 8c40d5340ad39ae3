// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Published nccl-tests figures (resources/validation/nccl-tests.json, sources written beside
// each) run through model::checkPublishedFigure, which times them with model::runNcclTests,
// the function behind `fabriclab-cli nccl-tests` and the app's bus-bandwidth chart; the same
// function serves `fabriclab-cli validate` and the app's accuracy view. Each case names its
// set: "fit" figures calibrated a catalog constant (named in the case), "check" figures were
// never tuned to. Every case prints a README row (published, FabricLab, error) so the table
// there can be refreshed from the log; every check case asserts the published value, or
// range, within the tolerance written beside it. Fit cases are not asserted: their constant
// was set to meet them.
#include <QTest>

#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/NcclTests.hpp"
#include "model/report/RunReport.hpp"
#include "model/validation/PublishedArchitectures.hpp"
#include "model/validation/PublishedBuildOuts.hpp"
#include "model/validation/PublishedFigures.hpp"
#include "model/validation/PublishedStepTimes.hpp"

#include <nlohmann/json.hpp>
#endif

using namespace fabriclab;

namespace {

/// A figures file of one case: `member` set to `value` (or left out when value is null).
std::string oneFigure(const std::string& member, const nlohmann::json& value) {
    nlohmann::json c = {{"id", "c1"},          {"set", "check"},      {"source", "a run"},
                        {"why", "a goal"},     {"servers", 2},        {"gpusPerServer", 8},
                        {"nicsPerServer", 8},  {"nicGbps", 400},      {"fabric", "ib-ndr"},
                        {"gpu", "h100-sxm"},   {"op", "allreduce"},   {"algorithm", "auto"},
                        {"bytes", 1073741824}, {"published", {1, 2}}, {"tolerance", 0.1}};
    if (value.is_null())
        c.erase(member);
    else
        c[member] = value;
    return nlohmann::json{{"cases", {c}}}.dump();
}

} // namespace

class tst_Validation : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void figuresAreSourced();
    void malformedFiguresAreRefused_data();
    void malformedFiguresAreRefused();
    void ncclTests_data();
    void ncclTests();
    void referenceArchitectures_data();
    void referenceArchitectures();
    void stepTimes_data();
    void stepTimes();
    void buildOuts_data();
    void buildOuts();
    void malformedBuildOutsAreRefused_data();
    void malformedBuildOutsAreRefused();
};

void tst_Validation::figuresAreSourced() {
    // Every figure says where it comes from and which set it belongs to; a fit figure names
    // the constant it calibrated, so the two sets cannot blur (readPublishedFigures refuses a
    // file that breaks either rule, below).
    int fit = 0;
    int check = 0;
    for (const model::PublishedFigure& f : model::builtinPublishedFigures()) {
        QVERIFY2(!f.source.empty() && !f.why.empty(), f.id.c_str());
        (f.isCheck() ? check : fit) += 1;
    }
    QVERIFY(fit > 0);
    QVERIFY(check > 0);
}

void tst_Validation::malformedFiguresAreRefused_data() {
    QTest::addColumn<QString>("member");
    QTest::addColumn<QByteArray>("value"); // JSON; "null" leaves the member out
    QTest::addColumn<QString>("expected"); // in the message, with the case's path
    QTest::newRow("no source") << "source" << QByteArray("null") << "/cases/0";
    QTest::newRow("empty source") << "source" << QByteArray("\"\"") << "/cases/0/source";
    QTest::newRow("unknown set") << "set" << QByteArray("\"tuned\"") << "/cases/0/set";
    QTest::newRow("fit without its constant") << "set" << QByteArray("\"fit\"") << "calibrates";
    QTest::newRow("zero servers") << "servers" << QByteArray("0") << "/cases/0/servers";
    QTest::newRow("unknown op") << "op" << QByteArray("\"allsum\"") << "/cases/0/op";
    QTest::newRow("range upside down")
        << "published" << QByteArray("[5, 1]") << "/cases/0/published/1";
    QTest::newRow("negative tolerance")
        << "tolerance" << QByteArray("-0.1") << "/cases/0/tolerance";
    QTest::newRow("typo'd member") << "tolerence" << QByteArray("0.1") << "tolerence";
}

void tst_Validation::malformedFiguresAreRefused() {
    QFETCH(QString, member);
    QFETCH(QByteArray, value);
    QFETCH(QString, expected);
    const std::string text =
        oneFigure(member.toStdString(), nlohmann::json::parse(value.toStdString()));
    try {
        model::readPublishedFigures(text);
        QFAIL("a malformed figure was read");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
    }
    // The same case, well formed, is read.
    QCOMPARE(model::readPublishedFigures(oneFigure("set", "check")).size(), std::size_t{1});
}

void tst_Validation::ncclTests_data() {
    QTest::addColumn<int>("index");
    const auto& figures = model::builtinPublishedFigures();
    for (std::size_t i = 0; i < figures.size(); ++i)
        QTest::addRow("%s %s", figures[i].set.c_str(), figures[i].id.c_str())
            << static_cast<int>(i);
}

void tst_Validation::ncclTests() {
    QFETCH(int, index);
    const model::PublishedFigure& f =
        model::builtinPublishedFigures()[static_cast<std::size_t>(index)];
    const model::FigureCheck check = model::checkPublishedFigure(f, model::Catalog::builtin());
    qInfo("| %s | %s | %s %g-%g | %.1f (%s %s) | %+.1f%% | %.0f%% |", f.set.c_str(), f.id.c_str(),
          f.timeUs ? "time us" : "busbw GB/s", f.low, f.high, check.measured,
          model::toString(check.algorithm).data(), model::toString(check.protocol).data(),
          100 * check.errorVsMiddle, 100 * f.tolerance);
    // A fit figure had a constant calibrated to it, so it is no evidence for the model; it is
    // held to its tolerance all the same, as a guard: a later change that moves it away from
    // the figure its constant was fitted on fails here, not only in a golden diff.
    // A known miss is kept in view: expected to fail with its finding, so the day the model
    // meets it the suite says so (an unexpected pass) and the marker comes off.
    if (f.knownMiss())
        QEXPECT_FAIL("", f.finding.c_str(), Continue);
    QVERIFY2(check.withinTolerance,
             qPrintable(QStringLiteral("%1 %2, published %3-%4 within %5")
                            .arg(QLatin1String(f.timeUs ? "time (us)" : "busbw (GB/s)"))
                            .arg(check.measured)
                            .arg(f.low)
                            .arg(f.high)
                            .arg(f.tolerance)));
}

void tst_Validation::referenceArchitectures_data() {
    QTest::addColumn<int>("index");
    const auto& figures = model::builtinArchitectureFigures();
    for (std::size_t i = 0; i < figures.size(); ++i)
        QTest::addRow("%s", figures[i].id.c_str()) << static_cast<int>(i);
}

void tst_Validation::referenceArchitectures() {
    // Sizing is counting, so it must be exact: the generator, fed what the vendor's table
    // states (servers, NICs, port speed, switch radix, 1:1), builds the same switches and
    // cables at every tier.
    QFETCH(int, index);
    const model::ArchitectureFigure& f =
        model::builtinArchitectureFigures()[static_cast<std::size_t>(index)];
    const model::ArchitectureCheck c = model::checkArchitectureFigure(f, model::Catalog::builtin());
    qInfo("| check | %s | %d / %d / %d switches, %lld / %lld / %lld cables | %d / %d / %d, "
          "%lld / %lld / %lld |",
          f.id.c_str(), f.switches.leaf, f.switches.spine, f.switches.core, f.cables.server,
          f.cables.leafSpine, f.cables.spineCore, c.switches.leaf, c.switches.spine,
          c.switches.core, c.cables.server, c.cables.leafSpine, c.cables.spineCore);
    QCOMPARE(c.switches.leaf, f.switches.leaf);
    QCOMPARE(c.switches.spine, f.switches.spine);
    QCOMPARE(c.switches.core, f.switches.core);
    QCOMPARE(c.cables.server, f.cables.server);
    QCOMPARE(c.cables.leafSpine, f.cables.leafSpine);
    QCOMPARE(c.cables.spineCore, f.cables.spineCore);
    QCOMPARE(c.cables.other, 0LL);
    QVERIFY(c.exact);
}

void tst_Validation::stepTimes_data() {
    QTest::addColumn<int>("index");
    const auto& figures = model::builtinStepFigures();
    for (std::size_t i = 0; i < figures.size(); ++i)
        QTest::addRow("%s", figures[i].id.c_str()) << static_cast<int>(i);
}

void tst_Validation::stepTimes() {
    // The table's job on a fabric like the one it ran on: its servers (8 H100 or B200, or a
    // GB200 rack's 64) on a rail-optimized NDR leaf-spine (a fat-tree past what two tiers of
    // radix 64 hold), with the table's configuration and MFU.
    QFETCH(int, index);
    const model::StepFigure& f = model::builtinStepFigures()[static_cast<std::size_t>(index)];
    const model::StepCheck c = model::checkStepFigure(f, model::Catalog::builtin());
    qInfo("| check | %s | %.2f s | %.2f s (compute %.2f, exposed %.2f) | %+.1f%% | %.0f%% |",
          f.id.c_str(), f.publishedSeconds, c.stepSeconds, c.computeSeconds, c.exposedSeconds,
          100 * c.error, 100 * f.tolerance);
    // A known miss says why; a model change that meets it shows up as an unexpected pass.
    if (f.knownMiss())
        QEXPECT_FAIL("", f.finding.c_str(), Continue);
    QVERIFY2(c.withinTolerance, qPrintable(QStringLiteral("step %1 s, published %2 s")
                                               .arg(c.stepSeconds)
                                               .arg(f.publishedSeconds)));
}

void tst_Validation::buildOuts_data() {
    QTest::addColumn<int>("index");
    const auto& figures = model::builtinBuildOutFigures();
    for (std::size_t i = 0; i < figures.size(); ++i)
        QTest::addRow("%s %s", figures[i].set.c_str(), figures[i].id.c_str())
            << static_cast<int>(i);
}

void tst_Validation::buildOuts() {
    // The build's fabric generated from what its source states, priced with the built-in
    // catalog, counting the parts the source counts. Tolerance 15%: the accuracy goal for
    // cost per endpoint. Where the source counts its switches, the count must be exact.
    QFETCH(int, index);
    const model::BuildOutFigure& f =
        model::builtinBuildOutFigures()[static_cast<std::size_t>(index)];
    const model::BuildOutCheck c = model::checkBuildOutFigure(f, model::Catalog::builtin());
    qInfo("| %s | %s | $%.0f, %d switches | $%.0f, %d switches | %+.1f%% | %.0f%% |", f.set.c_str(),
          f.id.c_str(), f.publishedUsdPerGpu, f.publishedSwitches, c.usdPerGpu, c.switches,
          100 * c.error, 100 * f.tolerance);
    // Counting is exact whatever the prices: a switch-count mismatch is never a known miss.
    QVERIFY2(
        c.switchesMatch,
        qPrintable(
            QStringLiteral("%1 switches, published %2").arg(c.switches).arg(f.publishedSwitches)));
    // A fit build-out lent the price catalog its prices: held to its tolerance as a guard.
    if (f.knownMiss())
        QEXPECT_FAIL("", f.finding.c_str(), Continue);
    QVERIFY2(c.withinTolerance, qPrintable(QStringLiteral("$%1 per GPU, published $%2")
                                               .arg(c.usdPerGpu)
                                               .arg(f.publishedUsdPerGpu)));
}

void tst_Validation::malformedBuildOutsAreRefused_data() {
    QTest::addColumn<QString>("member");
    QTest::addColumn<QString>("value"); ///< JSON; empty: the member left out
    QTest::addColumn<QString>("expected");
    QTest::newRow("no source") << "source"
                               << ""
                               << "source";
    QTest::newRow("unknown set") << "set"
                                 << R"("tuned")"
                                 << "fit";
    QTest::newRow("unknown part") << "parts"
                                  << R"(["switches", "optics"])"
                                  << "cables";
    QTest::newRow("no parts") << "parts"
                              << "[]"
                              << "at least one";
    QTest::newRow("zero cost") << "published"
                               << R"({"usdPerGpu": 0})"
                               << "usdPerGpu";
    QTest::newRow("negative switches") << "published"
                                       << R"({"usdPerGpu": 9, "switches": -1})"
                                       << "switches";
    QTest::newRow("generator not an object") << "generator"
                                             << "8"
                                             << "generator";
}

void tst_Validation::malformedBuildOutsAreRefused() {
    QFETCH(QString, member);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    nlohmann::json c = {{"id", "b1"},
                        {"set", "check"},
                        {"source", "a sheet"},
                        {"fabric", "ib-ndr"},
                        {"generator", {{"kind", "leaf-spine"}, {"servers", 8}}},
                        {"parts", {"switches", "cables"}},
                        {"published", {{"usdPerGpu", 4000}}},
                        {"tolerance", 0.15}};
    const auto file = [](const nlohmann::json& one) {
        return nlohmann::json{{"cases", {one}}}.dump();
    };
    QCOMPARE(model::readBuildOutFigures(file(c)).size(), std::size_t{1});
    if (value.isEmpty())
        c.erase(member.toStdString());
    else
        c[member.toStdString()] = nlohmann::json::parse(value.toStdString());
    try {
        model::readBuildOutFigures(file(c));
        QFAIL("a malformed build-out was read");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
    }
}

QTEST_APPLESS_MAIN(tst_Validation)
#include "tst_Validation.moc"
