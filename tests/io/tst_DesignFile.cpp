// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Design files (docs/reference/design-format.md "Design file"): what is saved loads back byte for
// byte, saves are atomic, and every malformed or hostile document is refused with its origin, the
// JSON path and what was expected - never a crash, never a silently fixed design.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/catalog/CatalogJson.hpp"
#include "model/core/JsonCursor.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "support/DesignText.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#endif

using namespace fabriclab::model;
using namespace fabriclab::testing;
using nlohmann::json;

namespace {

const std::string kOrigin = "bad.fabric.json";

const Catalog& catalog() {
    return Catalog::builtin();
}

/// A valid workload for generatorDesign()'s 32 GPUs: tp 8 x pp 1 x dp 4.
json workloadFor32Gpus() {
    return {{"model", "llama3-70b"},
            {"gpu", "h100-sxm"},
            {"globalBatchTokens", 4194304},
            {"tp", 8},
            {"pp", 1},
            {"dp", 4},
            {"ep", 1},
            {"zero", 1},
            {"mfu", 0.4},
            {"overlap", 0.5}};
}

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

class tst_DesignFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roundTripGenerator_data();
    void roundTripGenerator();
    void saveAndLoad();
    void inlineFabricStaysInline();
    void workloadAndCollectiveRoundTrip();
    void sitesRoundTrip();
    void storyRoundTrips();
    void collectiveNamesIgnoreCase_data();
    void collectiveNamesIgnoreCase();
    void collectiveOpSpellings_data();
    void collectiveOpSpellings();
    void unstatedRadixFollowsTheLinkSpeed_data();
    void unstatedRadixFollowsTheLinkSpeed();
    void saveIntoMissingFolderThrows();
    void refusesBadDocument_data();
    void refusesBadDocument();
    void lenientReadKeepsAWorkloadThatNoLongerFits();
    void descriptionRoundTrips();
    void loadRefusesUnreadablePath_data();
    void loadRefusesUnreadablePath();
};

void tst_DesignFile::roundTripGenerator_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("expectedGpus");

    QTest::addRow("leaf-spine 4 servers, one leaf") << fromStd(generatorDesign().dump()) << 32;
    QTest::addRow("leaf-spine 16 servers rail-optimized, spines")
        << fromStd(patched(generatorDesign(), {{"generator", {{"servers", 16}}}})) << 128;
    QTest::addRow("leaf-spine 12 servers top-of-rack 2:1")
        << fromStd(
               patched(generatorDesign(),
                       {{"generator",
                         {{"servers", 12}, {"railOptimized", false}, {"oversubscription", 2}}}}))
        << 96;
    QTest::addRow("fat-tree 64 servers radix 16")
        << fromStd(patched(generatorDesign(), {{"generator",
                                                {{"kind", "fat-tree"},
                                                 {"servers", 64},
                                                 {"nicsPerServer", 1},
                                                 {"railOptimized", false},
                                                 {"leafRadix", 16},
                                                 {"spineRadix", 16},
                                                 {"coreRadix", 16}}}}))
        << 512;
}

void tst_DesignFile::roundTripGenerator() {
    QFETCH(QString, text);
    QFETCH(int, expectedGpus);

    const Design first = parseDesign(text.toStdString(), "generated.fabric.json", catalog());
    QVERIFY(first.generator.has_value());
    const std::string once = serializeDesign(first);
    const Design second = parseDesign(once, "once.fabric.json", catalog());
    const std::string twice = serializeDesign(second);
    QCOMPARE(fromStd(twice), fromStd(once));

    // The expanded topology is exactly what the generator builds, in both generations.
    const Topology generated = generate(*first.generator);
    QVERIFY(generated.nodes().size() > 1);
    QCOMPARE(first.topology.nodes().size(), generated.nodes().size());
    QCOMPARE(first.topology.links().size(), generated.links().size());
    QCOMPARE(second.topology.nodes().size(), generated.nodes().size());
    QCOMPARE(second.topology.links().size(), generated.links().size());
    QCOMPARE(first.topology.gpuCount(), expectedGpus);
    QCOMPARE(second.topology.gpuCount(), expectedGpus);

    // The canonical form spells the topology out and keeps the generator beside it.
    const json saved = json::parse(once);
    QCOMPARE(saved.at("nodes").size(), generated.nodes().size());
    QCOMPARE(saved.at("links").size(), generated.links().size());
    QVERIFY(saved.contains("generator"));
    QVERIFY(second.generator.has_value());
    QVERIFY(*second.generator == *first.generator);
}

void tst_DesignFile::saveAndLoad() {
    QTemporaryDir dir;
    QVERIFY2(dir.isValid(), qPrintable(dir.errorString()));
    const std::filesystem::path path = dir.filePath("cluster.fabric.json").toStdString();

    const Design design = parseDesign(generatorDesign().dump(), "memory", catalog());
    const std::string expected = serializeDesign(design);
    saveDesign(design, path);
    QCOMPARE(fromStd(readFile(path)), fromStd(expected));
    QCOMPARE(fromStd(serializeDesign(loadDesign(path, catalog()))), fromStd(expected));

    // Saving over an existing file replaces it and still leaves no temporary behind.
    Design renamed = design;
    renamed.name = "renamed";
    saveDesign(renamed, path);
    QCOMPARE(fromStd(loadDesign(path, catalog()).name), QStringLiteral("renamed"));

    const QDir folder(dir.path());
    const auto filters = QDir::Files | QDir::Hidden | QDir::System;
    QCOMPARE(folder.entryList({QStringLiteral("*.tmp-*")}, filters), QStringList());
    QCOMPARE(folder.entryList(filters), QStringList{QStringLiteral("cluster.fabric.json")});
}

void tst_DesignFile::inlineFabricStaysInline() {
    const Fabric* ndr = catalog().findFabric("ib-ndr");
    QVERIFY(ndr != nullptr);
    json fabric = catalog_json::toJson(*ndr);
    fabric["name"] = "NDR as our vendor quoted it";
    fabric["switchLatencyNs"] = 321;
    const std::string text = patched(generatorDesign(), {{"fabric", fabric}});

    const Design first = parseDesign(text, "inline.fabric.json", catalog());
    QVERIFY(first.fabric.isInline);
    QCOMPARE(fromStd(first.fabric.spec.name), QStringLiteral("NDR as our vendor quoted it"));
    QCOMPARE(first.fabric.spec.switchLatencyNs, 321.0);

    const std::string once = serializeDesign(first);
    const json saved = json::parse(once);
    QVERIFY2(saved.at("fabric").is_object(), saved.at("fabric").dump().c_str());
    QCOMPARE(fromStd(saved.at("fabric").at("name").get<std::string>()),
             QStringLiteral("NDR as our vendor quoted it"));

    const Design second = parseDesign(once, "once.fabric.json", catalog());
    QVERIFY(second.fabric.isInline);
    QVERIFY(second.fabric.spec == first.fabric.spec);
    QCOMPARE(fromStd(serializeDesign(second)), fromStd(once));

    // The catalog id form stays an id.
    const json byId =
        json::parse(serializeDesign(parseDesign(generatorDesign().dump(), "id", catalog())));
    QVERIFY(byId.at("fabric").is_string());
    QCOMPARE(fromStd(byId.at("fabric").get<std::string>()), QStringLiteral("ib-ndr"));
}

void tst_DesignFile::storyRoundTrips() {
    // Two steps a presenter saved: the design as built, then on RoCE at 2:1 with a leaf
    // down, beside the cost and bus-bandwidth charts.
    const json story = json::array({{{"title", "As built"}, {"fabric", "ib-ndr"}},
                                    {{"title", "RoCE at 2:1, leaf down"},
                                     {"fabric", "roce-v2-cx7"},
                                     {"oversubscription", 2},
                                     {"failures", {{{"element", "leaf-1"}, {"kind", "down"}}}},
                                     {"charts", {"cost", "busbw-vs-size"}}}});
    const Design first =
        parseDesign(patched(generatorDesign(), {{"story", story}}), "story.json", catalog());
    QCOMPARE(first.story.size(), std::size_t{2});
    QCOMPARE(first.story[0].title, std::string("As built"));
    QVERIFY(!first.story[0].oversubscription);
    QVERIFY(first.story[0].charts.empty());
    const StoryStep& second = first.story[1];
    QCOMPARE(second.fabric, std::string("roce-v2-cx7"));
    QCOMPARE(*second.oversubscription, 2.0);
    QCOMPARE(second.failures.size(), std::size_t{1});
    QCOMPARE(second.failures[0].element, std::string("leaf-1"));
    QVERIFY(second.charts == (std::vector<std::string>{"cost", "busbw-vs-size"}));

    const std::string saved = serializeDesign(first);
    QVERIFY(json::parse(saved)["story"] == story);
    const Design again = parseDesign(saved, "again.json", catalog());
    QCOMPARE(again.story.size(), std::size_t{2});
    QCOMPARE(again.story[1].title, second.title);
    // A design without a story writes none.
    QVERIFY(
        !json::parse(serializeDesign(parseDesign(generatorDesign().dump(), "x.json", catalog())))
             .contains("story"));
}

void tst_DesignFile::collectiveNamesIgnoreCase_data() {
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<QString>("algorithm");
    QTest::addColumn<int>("expectedProtocol");
    QTest::addColumn<int>("expectedAlgorithm");
    // NCCL reads NCCL_PROTO=simple and NCCL_ALGO=Ring alike; users copy those spellings.
    QTest::newRow("as written") << "Simple"
                                << "nvls-tree" << int(CollectiveProtocol::Simple)
                                << int(CollectiveAlgorithm::NvlsTree);
    QTest::newRow("lower case") << "simple"
                                << "ring" << int(CollectiveProtocol::Simple)
                                << int(CollectiveAlgorithm::Ring);
    QTest::newRow("upper case") << "ll128"
                                << "RING" << int(CollectiveProtocol::LL128)
                                << int(CollectiveAlgorithm::Ring);
    QTest::newRow("mixed") << "Ll"
                           << "NVLS-Tree" << int(CollectiveProtocol::LL)
                           << int(CollectiveAlgorithm::NvlsTree);
}

void tst_DesignFile::collectiveNamesIgnoreCase() {
    QFETCH(QString, protocol);
    QFETCH(QString, algorithm);
    QFETCH(int, expectedProtocol);
    QFETCH(int, expectedAlgorithm);
    const auto p = collectiveProtocolFromString(protocol.toStdString());
    const auto a = collectiveAlgorithmFromString(algorithm.toStdString());
    QVERIFY(p.has_value());
    QVERIFY(a.has_value());
    QCOMPARE(int(*p), expectedProtocol);
    QCOMPARE(int(*a), expectedAlgorithm);
    QVERIFY(!collectiveProtocolFromString("simple128").has_value());
    QVERIFY(!collectiveProtocolFromString("").has_value());
}

void tst_DesignFile::collectiveOpSpellings_data() {
    QTest::addColumn<QString>("written");
    QTest::addColumn<QString>("saved"); // empty: refused
    // Designs written by hand or by scripts spell operations as nccl-tests and papers do;
    // FabricLab reads them all and saves its own name.
    QTest::newRow("own") << "allreduce"
                         << "allreduce";
    QTest::newRow("nccl-tests") << "all_reduce"
                                << "allreduce";
    QTest::newRow("hyphenated") << "all-to-all"
                                << "alltoall";
    QTest::newRow("camel case") << "ReduceScatter"
                                << "reducescatter";
    QTest::newRow("send/recv") << "send_recv"
                               << "sendrecv";
    QTest::newRow("unknown") << "all_sum"
                             << "";
    QTest::newRow("empty") << ""
                           << "";
}

void tst_DesignFile::collectiveOpSpellings() {
    QFETCH(QString, written);
    QFETCH(QString, saved);
    const std::string text = patched(
        generatorDesign(), {{"collective", {{"op", written.toStdString()}, {"bytes", 1048576}}}});
    if (saved.isEmpty()) {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseDesign(text, "x.json", catalog()));
        return;
    }
    const json round = json::parse(serializeDesign(parseDesign(text, "x.json", catalog())));
    QCOMPARE(fromStd(round.at("collective").at("op").get<std::string>()), saved);
}

void tst_DesignFile::unstatedRadixFollowsTheLinkSpeed_data() {
    QTest::addColumn<QString>("fabric");
    QTest::addColumn<double>("nicGbps");
    QTest::addColumn<int>("statedLeafRadix"); // 0: unstated
    QTest::addColumn<int>("leafRadix");
    QTest::addColumn<int>("spineRadix");
    QTest::addColumn<int>("leaves");
    QTest::addColumn<int>("spines");

    // 64 servers x 8 NICs, rail-optimized, 1:1. A switch's ports at the design's speed come
    // from its datasheet modes (prices.json): SN5600 64 x 800G or 128 x 400G, QM9700 64 x
    // 400G or 128 x 200G. Counts by hand: 512 NIC ports over radix/2 down-ports per leaf,
    // and as many uplinks over the spine's radix.
    QTest::addRow("spectrum-x 400G") << "spectrum-x" << 400.0 << 0 << 128 << 128 << 8 << 4;
    QTest::addRow("spectrum-x 800G") << "spectrum-x" << 800.0 << 0 << 64 << 64 << 16 << 8;
    QTest::addRow("ib-ndr 400G") << "ib-ndr" << 400.0 << 0 << 64 << 64 << 16 << 8;
    QTest::addRow("ib-ndr 200G (NDR200)") << "ib-ndr" << 200.0 << 0 << 128 << 128 << 8 << 4;
    // Tomahawk-4 has no 800G port: the 800G RoCE fabric is built from Tomahawk-5s.
    QTest::addRow("roce-v2 800G") << "roce-v2" << 800.0 << 0 << 64 << 64 << 16 << 8;
    // A stated radix stands; the unstated tiers still follow the speed.
    QTest::addRow("spectrum-x 800G, leaves stated")
        << "spectrum-x" << 800.0 << 32 << 32 << 64 << 32 << 8;
}

void tst_DesignFile::unstatedRadixFollowsTheLinkSpeed() {
    QFETCH(QString, fabric);
    QFETCH(double, nicGbps);
    QFETCH(int, statedLeafRadix);
    QFETCH(int, leafRadix);
    QFETCH(int, spineRadix);
    QFETCH(int, leaves);
    QFETCH(int, spines);
    json generator = {{"kind", "leaf-spine"},   {"servers", 64},      {"gpusPerServer", 8},
                      {"nicsPerServer", 8},     {"nicGbps", nicGbps}, {"railOptimized", true},
                      {"oversubscription", 1.0}};
    if (statedLeafRadix > 0)
        generator["leafRadix"] = statedLeafRadix;
    const json file = {{"format", "fabriclab-design"},
                       {"version", 1},
                       {"name", "radix"},
                       {"fabric", fabric.toStdString()},
                       {"generator", generator}};
    const Design design = parseDesign(file.dump(), "radix.json", catalog());
    QVERIFY(design.generator.has_value());
    QCOMPARE(design.generator->leafRadix, leafRadix);
    QCOMPARE(design.generator->spineRadix, spineRadix);
    const auto counts = design.topology.switchCounts();
    QCOMPARE(counts.leaf, leaves);
    QCOMPARE(counts.spine, spines);
}

void tst_DesignFile::workloadAndCollectiveRoundTrip() {
    json workload = workloadFor32Gpus();
    workload["precision"] = "fp8";
    workload["tp"] = 4;
    workload["cp"] = 2; // 4 x 2 x 1 x 4 = 32 GPUs
    workload["vpp"] = 3;
    workload["recompute"] = "selective";
    workload["seqLen"] = 4096;
    workload["attentionFlops"] = "causal";
    const json collective = {
        {"op", "alltoall"}, {"bytes", 1048576}, {"algorithm", "ring"}, {"protocol", "LL128"}};
    const std::string text = patched(
        generatorDesign(), {{"workload", workload}, {"collective", collective}, {"sharp", true}});

    const Design first = parseDesign(text, "workload.fabric.json", catalog());
    QVERIFY(first.workload.has_value());
    QVERIFY(first.collective.has_value());
    QCOMPARE(first.workload->tp, 4);
    QCOMPARE(first.workload->cp, 2);
    QCOMPARE(first.workload->vpp, 3);
    QCOMPARE(first.workload->seqLen.value_or(0), 4096);
    QCOMPARE(first.workload->sequenceLength(), 4096);
    QVERIFY(first.workload->attentionFlops == AttentionFlops::Causal);
    QVERIFY(first.workload->recompute == Recompute::Selective);
    QVERIFY(first.collective->protocol == CollectiveProtocol::LL128);
    QVERIFY(first.sharp);
    QCOMPARE(first.workload->dp, 4);
    QCOMPARE(first.workload->zero, 1);
    QVERIFY(first.workload->precision == Precision::Fp8);
    QVERIFY(first.workload->mfu.has_value());
    QCOMPARE(*first.workload->mfu, 0.4);
    QCOMPARE(first.workload->overlap, 0.5);
    QVERIFY(!first.workload->model.isInline);
    QCOMPARE(fromStd(first.workload->model.spec.id), QStringLiteral("llama3-70b"));
    QCOMPARE(fromStd(first.workload->gpu.spec.id), QStringLiteral("h100-sxm"));
    QVERIFY(first.collective->op == CollectiveOp::AllToAll);
    QCOMPARE(first.collective->bytes, 1048576LL);
    QVERIFY(first.collective->algorithm == CollectiveAlgorithm::Ring);

    const std::string once = serializeDesign(first);
    const Design second = parseDesign(once, "once.fabric.json", catalog());
    QVERIFY(second.workload.has_value());
    QVERIFY(second.collective.has_value());
    QVERIFY(*second.workload == *first.workload);
    QVERIFY(*second.collective == *first.collective);
    QVERIFY(second.sharp);
    QCOMPARE(fromStd(serializeDesign(second)), fromStd(once));

    const json saved = json::parse(once);
    QCOMPARE(fromStd(saved.at("workload").at("model").get<std::string>()),
             QStringLiteral("llama3-70b"));
    QCOMPARE(fromStd(saved.at("collective").at("op").get<std::string>()),
             QStringLiteral("alltoall"));
}

void tst_DesignFile::saveIntoMissingFolderThrows() {
    QTemporaryDir dir;
    QVERIFY2(dir.isValid(), qPrintable(dir.errorString()));
    const std::filesystem::path path =
        std::filesystem::path(dir.path().toStdString()) / "no-such-folder" / "x.fabric.json";
    const Design design = parseDesign(generatorDesign().dump(), "memory", catalog());

    QVERIFY_THROWS_EXCEPTION(std::runtime_error, saveDesign(design, path));
    try {
        saveDesign(design, path);
    } catch (const std::runtime_error& e) {
        QVERIFY2(fromStd(e.what()).contains(fromStd(path.string())), e.what());
    }
    QVERIFY(!std::filesystem::exists(path.parent_path()));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList());
}

void tst_DesignFile::sitesRoundTrip() {
    const json sites = {
        {"count", 3},
        {"wan", {{"gbps", 400}, {"latencyMs", 35}, {"links", 2}, {"usdPerLinkMonth", 25000}}},
        {"outer", {{"innerSteps", 100}, {"payloadBits", 8}, {"overlapSteps", 5}}}};
    const std::string text =
        patched(generatorDesign(), {{"workload", workloadFor32Gpus()}, {"sites", sites}});
    const Design first = parseDesign(text, "sites.fabric.json", catalog());
    QVERIFY(first.sites.has_value());
    QCOMPARE(first.sites->count, 3);
    QCOMPARE(first.sites->wan.gbps, 400.0);
    QCOMPARE(first.sites->wan.latencyMs, 35.0);
    QCOMPARE(first.sites->wan.links, 2);
    QCOMPARE(first.sites->wan.usdPerLinkMonth.value_or(0), 25000.0);
    QCOMPARE(first.sites->outer.innerSteps, 100);
    QCOMPARE(first.sites->outer.payloadBits, 8);
    QCOMPARE(first.sites->outer.overlapSteps, 5);
    QCOMPARE(first.sites->spans(), 3);
    QCOMPARE(first.sites->circuits(), 6);

    const std::string once = serializeDesign(first);
    const Design second = parseDesign(once, "once.fabric.json", catalog());
    QVERIFY(second.sites == first.sites);
    QCOMPARE(fromStd(serializeDesign(second)), fromStd(once));

    // Only the WAN's bandwidth is required: two sites share one span, DiLoCo's defaults.
    const Design least = parseDesign(
        patched(generatorDesign(), {{"workload", workloadFor32Gpus()},
                                    {"sites", {{"count", 2}, {"wan", {{"gbps", 10}}}}}}),
        "least.fabric.json", catalog());
    QVERIFY(least.sites.has_value());
    QCOMPARE(least.sites->spans(), 1);
    QCOMPARE(least.sites->outer.innerSteps, 500);
    QVERIFY(!least.sites->wan.usdPerLinkMonth.has_value());
}

void tst_DesignFile::refusesBadDocument_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("words");

    const json gen = generatorDesign();
    const json exp = explicitDesign();
    const json workload = workloadFor32Gpus();
    const json collective = {{"op", "allreduce"}, {"bytes", 1024}};
    const auto row = [](const char* name, const std::string& text, const char* path,
                        const char* words) {
        QTest::addRow("%s", name) << fromStd(text) << QString::fromUtf8(path)
                                  << QString::fromUtf8(words);
    };

    // The document as a whole.
    row("malformed (truncated)", R"({"format": "fabriclab-design", "version": 1, "fabric": )", "/",
        "not valid JSON");
    row("not an object (an array)", "[1, 2, 3]", "/", "expected a design object");
    row("wrong format", patched(gen, {{"format", "fabriclab-layout"}}), "/format",
        "fabriclab-design");
    row("missing version", patched(gen, {{"version", nullptr}}), "/", "\"version\"");
    row("version 2", patched(gen, {{"version", 2}}), "/version", "newer FabricLab");
    row("version 0", patched(gen, {{"version", 0}}), "/version", "whole number from 1");
    row("version as string", patched(gen, {{"version", "1"}}), "/version",
        "expected a whole number");
    row("neither nodes nor generator", patched(gen, {{"generator", nullptr}}), "/", "generator");
    row("unknown top-level field", patched(gen, {{"fabrik", "ib-ndr"}}), "/fabrik",
        "unknown field");

    // Catalog references.
    row("unknown fabric id", patched(gen, {{"fabric", "ib-ndr-typo"}}), "/fabric",
        "unknown fabric");
    json unknownGpu = workload;
    unknownGpu["gpu"] = "h900";
    row("unknown gpu id", patched(gen, {{"workload", unknownGpu}}), "/workload/gpu", "unknown gpu");
    json unknownModel = workload;
    unknownModel["model"] = "llama9-1t";
    row("unknown model id", patched(gen, {{"workload", unknownModel}}), "/workload/model",
        "unknown model");

    // The generator.
    row("servers as string", patched(gen, {{"generator", {{"servers", "8"}}}}),
        "/generator/servers", "expected a whole number");
    row("zero servers", patched(gen, {{"generator", {{"servers", 0}}}}), "/generator/servers",
        "servers must be between 1");
    row("negative nicGbps", patched(gen, {{"generator", {{"nicGbps", -400}}}}),
        "/generator/nicGbps", "nicGbps must be between 1");
    row("huge servers", patched(gen, {{"generator", {{"servers", 10'000'000}}}}),
        "/generator/servers", "10000000");
    row("oversubscription 0", patched(gen, {{"generator", {{"oversubscription", 0}}}}),
        "/generator/oversubscription", "oversubscription must be between");
    row("typo oversubscribtion", patched(gen, {{"generator", {{"oversubscribtion", 2}}}}),
        "/generator/oversubscribtion", "unknown field");
    row("unknown generator kind", patched(gen, {{"generator", {{"kind", "slim-fly"}}}}),
        "/generator/kind", "unknown generator kind");
    row("rail-only without rails",
        patched(gen, {{"generator", {{"kind", "rail-only"}, {"railOptimized", false}}}}),
        "/generator/railOptimized", "rail-only fabric is rail-optimized");
    row("links without nodes", patched(gen, {{"links", json::array()}}), "/links", "without nodes");

    // Explicit nodes and links.
    row("dangling link endpoint",
        patched(exp, {{"links",
                       {{{"a", "srv-1"}, {"b", "leaf-1"}, {"count", 4}},
                        {{"a", "srv-1"}, {"b", "leaf-9"}, {"count", 4}}}}}),
        "/links/1/b", "no node with id \"leaf-9\"");
    row("duplicate node id",
        patched(exp, {{"nodes",
                       {{{"id", "srv-1"}, {"kind", "server"}},
                        {{"id", "leaf-1"}, {"kind", "leaf"}},
                        {{"id", "srv-1"}, {"kind", "server"}}}}}),
        "/nodes/2/id", "duplicate node id");
    row("unknown node kind", patched(exp, {{"nodes", {{{"id", "srv-1"}, {"kind", "router"}}}}}),
        "/nodes/0/kind", "unknown node kind");
    row("server with 0 ports per NIC",
        patched(exp, {{"nodes", {{{"id", "srv-1"}, {"kind", "server"}, {"portsPerNic", 0}}}}}),
        "/nodes/0/portsPerNic", "whole number from 1 to 64");
    row("server with 65 ports per NIC",
        patched(exp, {{"nodes", {{{"id", "srv-1"}, {"kind", "server"}, {"portsPerNic", 65}}}}}),
        "/nodes/0/portsPerNic", "whole number from 1 to 64");
    row("switch with ports per NIC",
        patched(exp, {{"nodes", {{{"id", "leaf-1"}, {"kind", "leaf"}, {"portsPerNic", 2}}}}}),
        "/nodes/0/portsPerNic", "belongs to servers");
    row("generator with 0 ports per NIC",
        patched(gen, {{"generator", {{"servers", 16}, {"portsPerNic", 0}}}}),
        "/generator/portsPerNic", "between 1 and 64");
    row("generator ports per NIC and planes",
        patched(gen, {{"generator", {{"servers", 16}, {"portsPerNic", 2}, {"planes", 2}}}}),
        "/generator/planes", "already a plane");
    row("link count 0",
        patched(exp, {{"links", {{{"a", "srv-1"}, {"b", "leaf-1"}, {"count", 0}}}}}),
        "/links/0/count", "whole number from 1");
    row("link to itself",
        patched(exp, {{"links", {{{"a", "leaf-1"}, {"b", "leaf-1"}, {"count", 1}}}}}), "/links/0",
        "itself");
    row("unknown medium",
        patched(exp, {{"links", {{{"a", "srv-1"}, {"b", "leaf-1"}, {"medium", "copper"}}}}}),
        "/links/0/medium", "unknown medium");
    row("switch over radix",
        patched(exp, {{"nodes",
                       {{{"id", "srv-1"}, {"kind", "server"}, {"nics", 1}},
                        {{"id", "srv-2"}, {"kind", "server"}, {"nics", 1}},
                        {{"id", "srv-3"}, {"kind", "server"}, {"nics", 1}},
                        {{"id", "leaf-1"}, {"kind", "leaf"}, {"radix", 2}}}},
                      {"links",
                       {{{"a", "srv-1"}, {"b", "leaf-1"}},
                        {{"a", "srv-2"}, {"b", "leaf-1"}},
                        {{"a", "srv-3"}, {"b", "leaf-1"}}}}}),
        "/links/2", "radix is 2");

    // Workload and collective.
    json badSplit = workload;
    badSplit["dp"] = 2;
    row("tp*pp*dp != GPUs", patched(gen, {{"workload", badSplit}}), "/workload", "tp x pp x dp");
    json badRecompute = workload;
    badRecompute["recompute"] = "sometimes";
    row("unknown recomputation", patched(gen, {{"workload", badRecompute}}), "/workload/recompute",
        "selective");
    json badCp = workload;
    badCp["cp"] = 2; // 8 x 2 x 1 x 4 = 64, not 32
    row("tp*cp*pp*dp != GPUs", patched(gen, {{"workload", badCp}}), "/workload",
        "tp x cp x pp x dp = 8 x 2 x 1 x 4 = 64");
    row("sharp not a boolean", patched(gen, {{"sharp", "yes"}}), "/sharp", "true or false");
    row("unknown protocol",
        patched(gen,
                {{"collective", {{"op", "allreduce"}, {"bytes", 1024}, {"protocol", "LL64"}}}}),
        "/collective/protocol", "LL128");
    // Story steps.
    const auto story = [](json step) { return json{{"story", json::array({std::move(step)})}}; };
    row("story step without title", patched(gen, story({{"fabric", "ib-ndr"}})), "/story/0",
        "\"title\"");
    row("story step with empty title", patched(gen, story({{"title", ""}, {"fabric", "ib-ndr"}})),
        "/story/0/title", "needs a title");
    row("story on an unknown fabric", patched(gen, story({{"title", "a"}, {"fabric", "ib-ndx"}})),
        "/story/0/fabric", "unknown fabric \"ib-ndx\"");
    row("story with three charts",
        patched(gen, story({{"title", "a"},
                            {"fabric", "ib-ndr"},
                            {"charts", {"cost", "scaling", "bisection"}}})),
        "/story/0/charts", "at most 2");
    row("story with an unknown chart",
        patched(gen, story({{"title", "a"}, {"fabric", "ib-ndr"}, {"charts", {"pie"}}})),
        "/story/0/charts/0", "unknown chart \"pie\"");
    row("story oversubscription of a drawn design",
        patched(exp, story({{"title", "a"}, {"fabric", "ib-ndr"}, {"oversubscription", 2}})),
        "/story/0/oversubscription", "generator");
    row("story oversubscription below 1",
        patched(gen, story({{"title", "a"}, {"fabric", "ib-ndr"}, {"oversubscription", 0.5}})),
        "/story/0/oversubscription", "from 1 to 1000");
    row("story failure of nothing",
        patched(gen, story({{"title", "a"},
                            {"fabric", "ib-ndr"},
                            {"failures", {{{"element", "spine-9"}}}}})),
        "/story/0/failures/0/element", "no node");
    row("story not a list", patched(gen, {{"story", "first spine down"}}), "/story", "array");
    json noSequence = workload;
    noSequence["seqLen"] = 0;
    row("sequence length 0", patched(gen, {{"workload", noSequence}}), "/workload/seqLen",
        "whole number from 1");
    json textSequence = workload;
    textSequence["seqLen"] = "8K";
    row("sequence length as text", patched(gen, {{"workload", textSequence}}), "/workload/seqLen",
        "expected a whole number");
    json causalTypo = workload;
    causalTypo["attentionFlops"] = "masked";
    row("unknown attention count", patched(gen, {{"workload", causalTypo}}),
        "/workload/attentionFlops", "expected \"full\" or \"causal\"");
    json inlineModel = workload;
    inlineModel["model"] = {{"id", "tiny"},        {"name", "Tiny"}, {"paramsB", 1},
                            {"activeParamsB", 1},  {"layers", 2},    {"hiddenSize", 4096},
                            {"seqLen", 2048},      {"experts", 1},   {"expertsPerToken", 1},
                            {"vocabSize", 1000000}};
    row("embedding larger than the model", patched(gen, {{"workload", inlineModel}}),
        "/workload/model/vocabSize", "more than the active parameters");
    json zero4 = workload;
    zero4["zero"] = 4;
    row("zero stage 4", patched(gen, {{"workload", zero4}}), "/workload/zero", "from 0 to 3");
    json badOp = collective;
    badOp["op"] = "allgatherv";
    row("unknown collective op", patched(gen, {{"collective", badOp}}), "/collective/op",
        "unknown collective");
    json negativeBytes = collective;
    negativeBytes["bytes"] = -1024;
    row("bytes negative", patched(gen, {{"collective", negativeBytes}}), "/collective/bytes",
        "whole number from 1");

    // Found in review: generator fields reach explicit nodes as defaults, so they are
    // checked even when nodes are given; overflowing numbers and inline fabrics built
    // from unknown parts are refused with their paths.
    json generatorWithNodes = exp;
    generatorWithNodes["generator"] = gen["generator"];
    generatorWithNodes["generator"]["gpusPerServer"] = -8;
    row("generator field with explicit nodes", generatorWithNodes.dump(),
        "/generator/gpusPerServer", "between 1 and");
    std::string overflow = patched(gen, {{"name", "placeholder"}});
    overflow.replace(overflow.find("\"placeholder\""), 13, "1e400");
    row("number too large for a double", overflow, "/", "not valid JSON");
    json unknownPart =
        fabriclab::model::catalog_json::toJson(*Catalog::builtin().findFabric("roce-v2"));
    unknownPart["hardware"]["switch"] = "no-such-switch";
    row("inline fabric with an unknown part", patched(gen, {{"fabric", unknownPart}}),
        "/fabric/hardware/switch", "price catalog");

    // Training across sites: the WAN and DiLoCo's outer loop.
    const json wan = {{"gbps", 100}};
    const auto withSites = [&](json sites) {
        return patched(gen, {{"workload", workload}, {"sites", std::move(sites)}});
    };
    row("sites without a workload", patched(gen, {{"sites", {{"count", 2}, {"wan", wan}}}}),
        "/sites", "has none");
    row("one site", withSites({{"count", 1}, {"wan", wan}}), "/sites/count", "from 2 to 64");
    row("65 sites", withSites({{"count", 65}, {"wan", wan}}), "/sites/count", "from 2 to 64");
    row("sites without a WAN", withSites({{"count", 2}}), "/sites", "\"wan\"");
    row("WAN of 0 Gb/s", withSites({{"count", 2}, {"wan", {{"gbps", 0}}}}), "/sites/wan/gbps",
        "number from");
    row("negative WAN latency",
        withSites({{"count", 2}, {"wan", {{"gbps", 10}, {"latencyMs", -1}}}}),
        "/sites/wan/latencyMs", "number from");
    row("WAN of 0 links", withSites({{"count", 2}, {"wan", {{"gbps", 10}, {"links", 0}}}}),
        "/sites/wan/links", "number from");
    row("12-bit outer gradients",
        withSites({{"count", 2}, {"wan", wan}, {"outer", {{"payloadBits", 12}}}}),
        "/sites/outer/payloadBits", "4, 8, 16 or 32");
    row("overlap as long as H",
        withSites(
            {{"count", 2}, {"wan", wan}, {"outer", {{"innerSteps", 10}, {"overlapSteps", 10}}}}),
        "/sites/outer/overlapSteps", "at most innerSteps - 1 = 9");
    row("0 inner steps", withSites({{"count", 2}, {"wan", wan}, {"outer", {{"innerSteps", 0}}}}),
        "/sites/outer/innerSteps", "number from");
    row("unknown sites field", withSites({{"count", 2}, {"wan", wan}, {"region", "eu"}}),
        "/sites/region", "unknown field");

    // Hostile: nesting deep enough to overflow a recursive parser or destructor.
    const std::string deep = std::string(3000, '[') + std::string(3000, ']');
    row("3000-deep nested arrays as the document", deep, "/", "expected a design object");
    std::string deepName = patched(gen, {{"name", nullptr}});
    deepName.insert(deepName.rfind('}'), ",\"name\":" + deep);
    row("3000-deep nested arrays as the name", deepName, "/name", "expected a string");
}

void tst_DesignFile::refusesBadDocument() {
    QFETCH(QString, text);
    QFETCH(QString, path);
    QFETCH(QString, words);

    const std::string document = text.toStdString();
    QVERIFY_THROWS_EXCEPTION(JsonError, parseDesign(document, kOrigin, catalog()));

    std::optional<JsonError> caught;
    try {
        parseDesign(document, kOrigin, catalog());
    } catch (const JsonError& e) {
        caught = e;
    }
    QVERIFY(caught.has_value());
    QCOMPARE(fromStd(caught->origin()), fromStd(kOrigin));
    QCOMPARE(fromStd(caught->path()), path);
    QVERIFY2(fromStd(caught->problem()).contains(words), caught->what());
    QVERIFY2(fromStd(caught->what()).startsWith(fromStd(kOrigin + ": at " + caught->path() + ": ")),
             caught->what());
}

void tst_DesignFile::lenientReadKeepsAWorkloadThatNoLongerFits() {
    // The app reads leniently so that a design whose GPU count was edited reopens; the
    // strict default (CLI) still refuses it.
    json design = generatorDesign();
    json workload = workloadFor32Gpus();
    workload["dp"] = 2;
    design["workload"] = workload;
    const auto text = design.dump();
    QVERIFY_THROWS_EXCEPTION(
        fabriclab::model::JsonError,
        fabriclab::model::parseDesign(text, "strict.fabric.json", Catalog::builtin()));
    const auto lenient = fabriclab::model::parseDesign(text, "app.fabric.json", Catalog::builtin(),
                                                       fabriclab::model::ReadOptions{false});
    QVERIFY(lenient.workload.has_value());
    QCOMPARE(lenient.workload->dp, 2);
}

void tst_DesignFile::descriptionRoundTrips() {
    json design = generatorDesign();
    design["description"] = "for the Tuesday workshop";
    const auto once =
        fabriclab::model::parseDesign(design.dump(), "d.fabric.json", Catalog::builtin());
    QCOMPARE(once.description, std::string("for the Tuesday workshop"));
    const auto text = fabriclab::model::serializeDesign(once);
    const auto twice = fabriclab::model::parseDesign(text, "d.fabric.json", Catalog::builtin());
    QCOMPARE(fabriclab::model::serializeDesign(twice), text);
}

void tst_DesignFile::loadRefusesUnreadablePath_data() {
    QTest::addColumn<QString>("relative");
    QTest::addColumn<QString>("words");
    QTest::addRow("missing file") << "missing.fabric.json"
                                  << "cannot read";
    QTest::addRow("a folder") << "folder.fabric.json"
                              << "folder";
}

void tst_DesignFile::loadRefusesUnreadablePath() {
    QFETCH(QString, relative);
    QFETCH(QString, words);

    QTemporaryDir dir;
    QVERIFY2(dir.isValid(), qPrintable(dir.errorString()));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.fabric.json")));
    const std::filesystem::path path = dir.filePath(relative).toStdString();

    QVERIFY_THROWS_EXCEPTION(JsonError, loadDesign(path, catalog()));
    std::optional<JsonError> caught;
    try {
        loadDesign(path, catalog());
    } catch (const JsonError& e) {
        caught = e;
    }
    QVERIFY(caught.has_value());
    QCOMPARE(fromStd(caught->origin()), fromStd(path.string()));
    QVERIFY2(fromStd(caught->what()).startsWith(fromStd(path.string())), caught->what());
    QVERIFY2(fromStd(caught->problem()).contains(words), caught->what());
}

QTEST_APPLESS_MAIN(tst_DesignFile)
#include "tst_DesignFile.moc"
