// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The built-in catalog: every id docs/reference/design-format.md promises, figures that match
// docs/reference/published-figures.md, a source beside every number in resources/catalog/*.json,
// and edited price lists that are refused with their origin named.
#include <QStringList>
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/catalog/CatalogJson.hpp"
#include "model/catalog/EmbeddedCatalogs.hpp"
#include "model/core/JsonCursor.hpp"
#include "support/DesignText.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>
#endif

using namespace fabriclab::model;
using fabriclab::testing::readFile;
using nlohmann::json;

namespace {

const std::filesystem::path kCatalogDir =
    std::filesystem::path(FABRICLAB_SOURCE_DIR) / "resources" / "catalog";
const std::string kOrigin = "my-prices.json";

json catalogFile(const char* name) {
    return json::parse(readFile(kCatalogDir / name));
}

/// Numbers a catalog may state without a source: document structure and the nominal
/// port counts and speeds that name a part rather than measure it.
bool plainNumberAllowed(const std::string& key, const json& value) {
    // Counts, speeds a part is named by, and a comparison's row order: not measurements.
    static const std::set<std::string> keys{"version", "ports", "portGbps", "gbps", "compareOrder"};
    return keys.count(key) != 0 && value.is_number_integer();
}

/// Collects every number that is neither the "value" of an object with a non-empty
/// "source" nor one of the plain integers allowed above.
void findUnsourced(const json& value, const std::string& path, const std::string& key,
                   const json* parent, QStringList& problems) {
    if (value.is_object()) {
        for (const auto& [k, member] : value.items())
            findUnsourced(member, path + "/" + k, k, &value, problems);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            findUnsourced(value[i], path + "/" + std::to_string(i), std::to_string(i), &value,
                          problems);
    } else if (value.is_number()) {
        if (plainNumberAllowed(key, value))
            return;
        const bool sourced = key == "value" && parent && parent->is_object() &&
                             parent->contains("source") && (*parent)["source"].is_string() &&
                             !(*parent)["source"].get<std::string>().empty();
        if (!sourced)
            problems << QString::fromStdString(path + " = " + value.dump());
    }
}

} // namespace

class tst_Catalog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void embeddedTextIsTheResourceFile_data();
    void embeddedTextIsTheResourceFile();
    void builtinIds_data();
    void builtinIds();
    void gpuFigures_data();
    void gpuFigures();
    void everyNumberHasSource_data();
    void everyNumberHasSource();
    void loadPricesRefusals_data();
    void loadPricesRefusals();
    void loadPricesReplaces();
    void fabricRadixIsItsSwitchAtItsSpeed();
    void portSplitting_data();
    void portSplitting();
    void tunerPluginIsNamedOrRefused();
    void p2pExecutionIsReadOrRefused();
};

void tst_Catalog::embeddedTextIsTheResourceFile_data() {
    // Compiled in as pieces cut between lines (compilers need not accept one literal of the
    // figures' size): put back together, every document is its file byte for byte.
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("document");
    const char* paths[] = {"catalog/fabrics.json",       "catalog/gpus.json",
                           "catalog/models.json",        "catalog/prices.json",
                           "validation/nccl-tests.json", "validation/step-time.json",
                           "validation/serving.json",    "validation/reference-architectures.json",
                           "validation/build-outs.json"};
    for (int i = 0; i < 9; ++i)
        QTest::newRow(paths[i]) << QString::fromLatin1(paths[i]) << i;
}

void tst_Catalog::embeddedTextIsTheResourceFile() {
    QFETCH(QString, path);
    QFETCH(int, document);
    using namespace fabriclab::model::embedded;
    const std::string_view texts[] = {fabricsJson(),
                                      gpusJson(),
                                      modelsJson(),
                                      pricesJson(),
                                      publishedNcclTestsJson(),
                                      publishedStepTimesJson(),
                                      publishedServingJson(),
                                      publishedArchitecturesJson(),
                                      publishedBuildOutsJson()};
    const std::string file =
        readFile(std::filesystem::path(FABRICLAB_SOURCE_DIR) / "resources" / path.toStdString());
    const std::string_view text = texts[document];
    QCOMPARE(text.size(), file.size());
    QVERIFY(text == file);
}

void tst_Catalog::builtinIds_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("id");
    // docs/reference/design-format.md "Catalog ids, at least".
    for (const char* id : {"ib-hdr", "ib-ndr", "ib-xdr", "roce-v2", "roce-v2-untuned", "spectrum-x",
                           "ethernet-tcp", "efa"})
        QTest::addRow("fabric %s", id) << QStringLiteral("fabric") << QString::fromLatin1(id);
    for (const char* id : {"a100", "h100-sxm", "h200", "b200", "gb200", "mi300x"})
        QTest::addRow("gpu %s", id) << QStringLiteral("gpu") << QString::fromLatin1(id);
    for (const char* id :
         {"llama3-8b", "llama3-70b", "llama3-405b", "gpt3-175b", "mixtral-8x7b", "deepseek-v3"})
        QTest::addRow("model %s", id) << QStringLiteral("model") << QString::fromLatin1(id);
}

void tst_Catalog::builtinIds() {
    QFETCH(QString, kind);
    QFETCH(QString, id);
    const Catalog& catalog = Catalog::builtin();
    const std::string key = id.toStdString();
    std::string foundId;
    if (kind == QLatin1String("fabric")) {
        const Fabric* f = catalog.findFabric(key);
        QVERIFY(f);
        foundId = f->id;
        // Costing needs every part the fabric is built from (Catalog::loadPrices checks it).
        const PriceCatalog& prices = catalog.prices();
        QVERIFY(prices.switches.count(f->hardware.switchId));
        QVERIFY(prices.nics.count(f->hardware.nicId));
        QVERIFY(prices.cables.count(f->hardware.serverCableId));
        QVERIFY(prices.cables.count(f->hardware.switchCableId));
        QVERIFY(prices.transceivers.count(f->hardware.transceiverId));
    } else if (kind == QLatin1String("gpu")) {
        const GpuSpec* g = catalog.findGpu(key);
        QVERIFY(g);
        foundId = g->id;
        QVERIFY(g->bf16Tflops > 0);
    } else {
        const ModelSpec* m = catalog.findModel(key);
        QVERIFY(m);
        foundId = m->id;
        QVERIFY(m->paramsB > 0);
    }
    QCOMPARE(QString::fromStdString(foundId), id);
}

void tst_Catalog::gpuFigures_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("bf16Tflops");
    QTest::addColumn<double>("fp8Tflops");
    // docs/reference/published-figures.md "Compute": dense peaks from the vendor datasheets.
    QTest::addRow("H100 SXM: 989 / 1,979") << QStringLiteral("h100-sxm") << 989.0 << 1979.0;
    QTest::addRow("H200: 989 BF16") << QStringLiteral("h200") << 989.0 << 1979.0;
    QTest::addRow("B200: 2,250 / 4,500") << QStringLiteral("b200") << 2250.0 << 4500.0;
    // A100 has no FP8 tensor cores: the catalog runs FP8 at the BF16 rate.
    QTest::addRow("A100: 312 BF16") << QStringLiteral("a100") << 312.0 << 312.0;
    // AMD's launch figure, 20.1 PFLOPS FP4 with sparsity, halved for dense and per step up
    // in precision (docs/sources.md).
    QTest::addRow("MI355X: 2,516 / 5,033") << QStringLiteral("mi355x") << 2516.0 << 5033.0;
    QTest::addRow("MI325X: 1,307 / 2,615") << QStringLiteral("mi325x") << 1307.0 << 2615.0;
}

void tst_Catalog::gpuFigures() {
    QFETCH(QString, id);
    QFETCH(double, bf16Tflops);
    QFETCH(double, fp8Tflops);
    const GpuSpec* gpu = Catalog::builtin().findGpu(id.toStdString());
    QVERIFY(gpu);
    // Whole numbers read from JSON are exact doubles; the relative 1e-9 only guards the
    // comparison itself.
    QVERIFY2(std::abs(gpu->bf16Tflops - bf16Tflops) <= 1e-9 * bf16Tflops,
             qPrintable(QString::number(gpu->bf16Tflops)));
    QVERIFY2(std::abs(gpu->fp8Tflops - fp8Tflops) <= 1e-9 * fp8Tflops,
             qPrintable(QString::number(gpu->fp8Tflops)));
}

void tst_Catalog::everyNumberHasSource_data() {
    QTest::addColumn<QString>("file");
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(kCatalogDir, error))
        if (entry.path().extension() == ".json")
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    // The four catalogs at least, so an empty or moved directory cannot pass silently.
    for (const char* expected : {"fabrics.json", "gpus.json", "models.json", "prices.json"})
        if (std::find(names.begin(), names.end(), expected) == names.end())
            QFAIL(qPrintable(
                QStringLiteral("missing %1 in %2")
                    .arg(QLatin1String(expected), QString::fromStdString(kCatalogDir.string()))));
    for (const auto& name : names)
        QTest::addRow("%s", name.c_str()) << QString::fromStdString(name);
}

void tst_Catalog::everyNumberHasSource() {
    QFETCH(QString, file);
    const std::string text = readFile(kCatalogDir / file.toStdString());
    QVERIFY(!text.empty());
    const json document = json::parse(text);
    QStringList problems;
    findUnsourced(document, "", "", nullptr, problems);
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("numbers without a source: ") +
                                            problems.join(QStringLiteral(", "))));
}

void tst_Catalog::loadPricesRefusals_data() {
    QTest::addColumn<QByteArray>("document");
    QTest::addColumn<QString>("mentions"); // besides the origin

    QTest::addRow("malformed JSON")
        << QByteArray(R"({ "kind": "prices", "version": )") << QStringLiteral("not valid JSON");
    QTest::addRow("empty document") << QByteArray() << QStringLiteral("not valid JSON");
    QTest::addRow("a GPU catalog, not prices")
        << QByteArray(R"({"format": "fabriclab-catalog", "kind": "gpus", "version": 1})")
        << QStringLiteral("/kind");
    json futureVersion = catalogFile("prices.json");
    futureVersion["version"] = 2;
    QTest::addRow("version 2") << QByteArray::fromStdString(futureVersion.dump())
                               << QStringLiteral("version 1");
    // ib-ndr is built from qm9700; a price list without it would fail far from the cause.
    json noQuantum = catalogFile("prices.json");
    auto& switches = noQuantum["switches"];
    switches.erase(std::remove_if(switches.begin(), switches.end(),
                                  [](const json& s) { return s["id"] == "qm9700"; }),
                   switches.end());
    QTest::addRow("no price for a fabric's switch")
        << QByteArray::fromStdString(noQuantum.dump())
        << QStringLiteral("no price for part \"qm9700\"");
    json negative = catalogFile("prices.json");
    negative["nics"][0]["priceUsd"]["value"] = -1;
    QTest::addRow("negative NIC price")
        << QByteArray::fromStdString(negative.dump()) << QStringLiteral("/nics/0/priceUsd");
}

void tst_Catalog::loadPricesRefusals() {
    QFETCH(QByteArray, document);
    QFETCH(QString, mentions);

    Catalog catalog = Catalog::builtin();
    const std::string text = document.toStdString();
    QVERIFY_THROWS_EXCEPTION(JsonError, catalog.loadPrices(text, kOrigin));
    try {
        catalog.loadPrices(text, kOrigin);
    } catch (const JsonError& e) {
        QCOMPARE(QString::fromStdString(e.origin()), QString::fromStdString(kOrigin));
        const QString message = QString::fromStdString(e.what());
        QVERIFY2(message.startsWith(QString::fromStdString(kOrigin + ": at ")),
                 qPrintable(message));
        QVERIFY2(message.contains(mentions), qPrintable(message));
    }
    // A refused list leaves the one in use untouched.
    QCOMPARE(catalog.prices().switches.size(), Catalog::builtin().prices().switches.size());
    QVERIFY(catalog.prices().switches.count("qm9700"));
    QCOMPARE(catalog.prices().amortizationMonths, Catalog::builtin().prices().amortizationMonths);
}

void tst_Catalog::loadPricesReplaces() {
    // The shipped prices.json with a longer amortization and a cheaper Quantum-2.
    json edited = catalogFile("prices.json");
    edited["amortizationMonths"]["value"] = 48;
    for (auto& s : edited["switches"])
        if (s["id"] == "qm9700")
            s["priceUsd"]["value"] = 50000;
    Catalog catalog = Catalog::builtin();
    catalog.loadPrices(edited.dump(), kOrigin);
    QCOMPARE(catalog.prices().amortizationMonths, 48.0);
    QCOMPARE(catalog.prices().switches.at("qm9700").price.value, 50000.0);
    // The built-in catalog is shared and stays as shipped.
    QCOMPARE(Catalog::builtin().prices().amortizationMonths, 36.0);
    QCOMPARE(Catalog::builtin().prices().switches.at("qm9700").price.value, 65000.0);
}

void tst_Catalog::fabricRadixIsItsSwitchAtItsSpeed() {
    // A fabric's radix is not a number of its own: it is what its switch part offers at
    // the fabric's port speed, with port splitting (a Spectrum-4 SN5600 at 400G has 128
    // ports, not 64). The two catalogs must agree for every built-in fabric.
    const Catalog& catalog = Catalog::builtin();
    for (const auto& [id, fabric] : catalog.fabrics()) {
        const auto part = catalog.prices().switches.find(fabric.hardware.switchId);
        QVERIFY2(part != catalog.prices().switches.end(), id.c_str());
        QVERIFY2(portsAt(part->second, fabric.portSpeed.value) == fabric.switchRadix,
                 qPrintable(QStringLiteral("%1: radix %2, its switch gives %3 at %4G")
                                .arg(QString::fromStdString(id))
                                .arg(fabric.switchRadix)
                                .arg(portsAt(part->second, fabric.portSpeed.value))
                                .arg(fabric.portSpeed.value)));
    }
}

void tst_Catalog::portSplitting_data() {
    QTest::addColumn<QString>("part");
    QTest::addColumn<double>("gbps");
    QTest::addColumn<int>("ports");

    // Datasheet figures (sources in prices.json): a faster port runs a slower link, so a
    // speed between modes takes the slower mode above it.
    QTest::addRow("SN5600 at 800G") << QStringLiteral("sn5600") << 800.0 << 64;
    QTest::addRow("SN5600 at 400G") << QStringLiteral("sn5600") << 400.0 << 128;
    QTest::addRow("SN5600 at 200G") << QStringLiteral("sn5600") << 200.0 << 256;
    QTest::addRow("SN5600 at 100G (a 200G port)") << QStringLiteral("sn5600") << 100.0 << 256;
    QTest::addRow("QM9700 at 400G") << QStringLiteral("qm9700") << 400.0 << 64;
    QTest::addRow("QM9700 at 200G") << QStringLiteral("qm9700") << 200.0 << 128;
    QTest::addRow("QM9700 at 800G: too slow") << QStringLiteral("qm9700") << 800.0 << 0;
    QTest::addRow("Quantum-X800 at 800G") << QStringLiteral("q3400") << 800.0 << 144;
    QTest::addRow("Tomahawk-5 at 800G") << QStringLiteral("th5-800g") << 800.0 << 64;
    QTest::addRow("Tomahawk-5 at 400G") << QStringLiteral("th5-800g") << 400.0 << 128;
}

void tst_Catalog::portSplitting() {
    QFETCH(QString, part);
    QFETCH(double, gbps);
    QFETCH(int, ports);
    const auto& switches = Catalog::builtin().prices().switches;
    const auto found = switches.find(part.toStdString());
    QVERIFY(found != switches.end());
    QCOMPARE(portsAt(found->second, gbps), ports);
}

void tst_Catalog::tunerPluginIsNamedOrRefused() {
    // EFA jobs load aws-ofi-nccl's tuner; every other fabric leaves the choice to NCCL.
    const Catalog& catalog = Catalog::builtin();
    QVERIFY(catalog.findFabric("efa")->ncclTuner == NcclTuner::AwsOfiNccl);
    QVERIFY(catalog.findFabric("ib-ndr")->ncclTuner == NcclTuner::Nccl);

    // A tuner FabricLab does not know is refused with where it was found.
    nlohmann::json fabrics = nlohmann::json::parse(embedded::fabricsJson());
    fabrics["fabrics"][0]["ncclTuner"] = "gib";
    try {
        (void)Catalog::fromJson(fabrics.dump(), embedded::gpusJson(), embedded::modelsJson(),
                                embedded::pricesJson());
        QFAIL("an unknown tuner was accepted");
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        QVERIFY2(message.find("ncclTuner") != std::string::npos, e.what());
        QVERIFY2(message.find("aws-ofi-nccl") != std::string::npos, e.what());
    }
}

void tst_Catalog::p2pExecutionIsReadOrRefused() {
    // EFA jobs send p2p chunks of the size aws-ofi-nccl sets (src/platform-aws.cpp: 512 KiB);
    // fabrics that say nothing keep NCCL's 128 KiB and no software time.
    const Catalog& catalog = Catalog::builtin();
    QCOMPARE(catalog.findFabric("efa")->p2p.chunkBytes, 524288.0);
    QVERIFY(catalog.findFabric("efa")->p2p.chunkUs > 0);
    QVERIFY(catalog.findFabric("ib-ndr")->p2p == P2pExecution{});
    QCOMPARE(catalog.findFabric("ib-ndr")->p2p.chunkBytes, 131072.0);

    // Written back and read again, the EFA entry keeps its p2p costs.
    const Fabric efa = *catalog.findFabric("efa");
    nlohmann::json fabrics = nlohmann::json::parse(embedded::fabricsJson());
    for (auto& fabric : fabrics["fabrics"])
        if (fabric["id"] == "efa")
            fabric = catalog_json::toJson(efa);
    const Catalog again = Catalog::fromJson(fabrics.dump(), embedded::gpusJson(),
                                            embedded::modelsJson(), embedded::pricesJson());
    QVERIFY(again.findFabric("efa")->p2p == efa.p2p);

    // A chunk of zero bytes, or a field FabricLab does not know, is refused with its place.
    const auto refused = [&](const nlohmann::json& p2p, const char* words) {
        nlohmann::json bad = nlohmann::json::parse(embedded::fabricsJson());
        bad["fabrics"][0]["p2p"] = p2p;
        try {
            (void)Catalog::fromJson(bad.dump(), embedded::gpusJson(), embedded::modelsJson(),
                                    embedded::pricesJson());
        } catch (const std::invalid_argument& e) {
            const std::string message = e.what();
            return message.find("p2p") != std::string::npos &&
                   message.find(words) != std::string::npos;
        }
        return false;
    };
    QVERIFY(refused({{"chunkBytes", 0}}, "chunkBytes"));
    QVERIFY(refused({{"chunkSize", 524288}}, "unknown field"));
    QVERIFY(refused({{"chunkUs", -1}}, "chunkUs"));
}

QTEST_APPLESS_MAIN(tst_Catalog)
#include "tst_Catalog.moc"
