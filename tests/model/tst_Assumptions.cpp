// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The report's assumptions page and cabling summary: every catalog value a design's figures
// used is listed with the source the catalog gives it (read here from the catalog's own
// JSON, not through the code under test), every part the bill buys has its prices listed,
// and the cables counted by kind add up to the plan.
#include "model/catalog/Catalog.hpp"
#include "model/catalog/EmbeddedCatalogs.hpp"
#include "model/cost/CostModel.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/Assumptions.hpp"
#include "model/report/CablingPlan.hpp"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace fabriclab::model;

namespace {

Design loadSample(const QString& name) {
    return loadDesign((QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/") + name).toStdString(),
                      Catalog::builtin());
}

const AssumptionGroup* groupStarting(const std::vector<AssumptionGroup>& groups,
                                     const std::string& title) {
    for (const auto& group : groups)
        if (group.title.starts_with(title))
            return &group;
    return nullptr;
}

const CatalogValue* valueOf(const AssumptionGroup& group, const std::string& field) {
    for (const auto& value : group.values)
        if (value.field == field)
            return &value;
    return nullptr;
}

} // namespace

class tst_Assumptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fabricValuesCarryTheCatalogsSources_data();
    void fabricValuesCarryTheCatalogsSources();
    void everyBoughtPartIsListed();
    void comparedFabricsAreListedOnce();
    void labelsReadAsWords_data();
    void labelsReadAsWords();
    void cableCountsAddUpToThePlan_data();
    void cableCountsAddUpToThePlan();
};

void tst_Assumptions::fabricValuesCarryTheCatalogsSources_data() {
    QTest::addColumn<QString>("sample");
    QTest::newRow("InfiniBand NDR") << "article000-64gpu-ib-ndr.fabric.json";
    QTest::newRow("RoCEv2") << "article000-64gpu-roce-v2.fabric.json";
    QTest::newRow("Spectrum-X") << "spectrum-x-1024gpu-rail.fabric.json";
}

void tst_Assumptions::fabricValuesCarryTheCatalogsSources() {
    QFETCH(QString, sample);
    const Design design = loadSample(sample);
    const Catalog& catalog = Catalog::builtin();
    const CostReport cost = estimateCost(design.topology, design.fabric.spec, catalog.prices());
    const auto groups = assumptionsFor(design, catalog, {}, cost);
    const AssumptionGroup* fabric = groupStarting(groups, "Fabric: " + design.fabric.spec.name);
    QVERIFY(fabric);
    // Every sourced number of the fabric's catalog entry, as the JSON has it.
    const auto fabrics = nlohmann::json::parse(embedded::fabricsJson());
    int checked = 0;
    for (const auto& entry : fabrics["fabrics"]) {
        if (entry["id"] != design.fabric.spec.id)
            continue;
        for (const auto& [key, value] : entry.items()) {
            if (!value.is_object() || !value.contains("source"))
                continue;
            const CatalogValue* listed = valueOf(*fabric, key);
            QVERIFY2(listed, key.c_str());
            QCOMPARE(listed->value, value["value"].get<double>());
            QCOMPARE(listed->source, value["source"].get<std::string>());
            ++checked;
        }
    }
    QVERIFY(checked >= 8); // line and incast efficiency, latencies, port speed, radix, ...
    // The GPU's MFU and the model the step time used.
    QVERIFY(design.workload);
    const AssumptionGroup* gpu = groupStarting(groups, "GPU: ");
    QVERIFY(gpu);
    QVERIFY(valueOf(*gpu, "defaultMfu.bf16"));
    QVERIFY(!valueOf(*gpu, "defaultMfu.bf16")->source.empty());
    QVERIFY(groupStarting(groups, "Model: "));
    // The price list's period, used for the cost per GPU-hour.
    const AssumptionGroup* prices = groupStarting(groups, "Prices: ");
    QVERIFY(prices);
    QCOMPARE(valueOf(*prices, "amortizationMonths")->value, cost.amortizationMonths);
}

void tst_Assumptions::everyBoughtPartIsListed() {
    const Design design = loadSample(QStringLiteral("fat-tree-16k-ib-ndr.fabric.json"));
    const Catalog& catalog = Catalog::builtin();
    const CostReport cost = estimateCost(design.topology, design.fabric.spec, catalog.prices());
    const auto groups = assumptionsFor(design, catalog, {}, cost);
    for (const BomLine& line : cost.bom) {
        const AssumptionGroup* part = groupStarting(groups, "Part: " + line.partName);
        QVERIFY2(part, line.partName.c_str());
        const CatalogValue* price = valueOf(*part, "priceUsd");
        QVERIFY2(price, line.partName.c_str());
        // The price the bill multiplies, with the source the bill prints beside it.
        QCOMPARE(price->value, line.unitPrice.value);
        QCOMPARE(price->source, line.priceSource);
    }
}

void tst_Assumptions::comparedFabricsAreListedOnce() {
    const Design design = loadSample(QStringLiteral("workshop-16gpu-leaf-spine.fabric.json"));
    const Catalog& catalog = Catalog::builtin();
    const CostReport cost = estimateCost(design.topology, design.fabric.spec, catalog.prices());
    const auto groups =
        assumptionsFor(design, catalog, {design.fabric.spec.id, "ib-xdr", "roce-v2"}, cost);
    int fabrics = 0;
    for (const auto& group : groups)
        fabrics += group.title.starts_with("Fabric: ");
    QCOMPARE(fabrics, 3);
    // The design's own fabric comes first.
    QVERIFY(groups.front().title == "Fabric: " + design.fabric.spec.name);
}

void tst_Assumptions::labelsReadAsWords_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("label");
    QTest::newRow("plain") << "lineEfficiency"
                           << "line efficiency";
    QTest::newRow("unit") << "switchLatencyNs"
                          << "switch latency (ns)";
    QTest::newRow("rate") << "portGbps"
                          << "port (Gb/s)";
    QTest::newRow("bytes rate") << "scaleUpGBps"
                                << "scale up (GB/s)";
    QTest::newRow("nested") << "defaultMfu.bf16"
                            << "default MFU, bf16";
    QTest::newRow("money") << "ownership.electricityUsdPerKwh"
                           << "ownership, electricity (USD/kWh)";
}

void tst_Assumptions::labelsReadAsWords() {
    QFETCH(QString, field);
    QFETCH(QString, label);
    QCOMPARE(QString::fromStdString(assumptionLabel(field.toStdString())), label);
}

void tst_Assumptions::cableCountsAddUpToThePlan_data() {
    QTest::addColumn<QString>("sample");
    QTest::newRow("one leaf") << "article000-64gpu-ib-ndr.fabric.json";
    QTest::newRow("rail groups") << "spectrum-x-1024gpu-rail.fabric.json";
    QTest::newRow("three tiers") << "fat-tree-16k-ib-ndr.fabric.json";
}

void tst_Assumptions::cableCountsAddUpToThePlan() {
    QFETCH(QString, sample);
    const Design design = loadSample(sample);
    const CablingPlan plan =
        cablingPlan(design.topology, design.fabric.spec, Catalog::builtin().prices());
    const auto counts = cablingSummary(plan);
    long long total = 0;
    for (const CableCount& count : counts) {
        QVERIFY(count.count > 0);
        total += count.count;
    }
    QCOMPARE(total, static_cast<long long>(plan.cables.size()));
    // Each kind once.
    for (std::size_t i = 0; i < counts.size(); ++i)
        for (std::size_t j = i + 1; j < counts.size(); ++j)
            QVERIFY(!(counts[i].tier == counts[j].tier && counts[i].gbps == counts[j].gbps &&
                      counts[i].medium == counts[j].medium &&
                      counts[i].lengthClass == counts[j].lengthClass &&
                      counts[i].partId == counts[j].partId));
}

QTEST_GUILESS_MAIN(tst_Assumptions)
#include "tst_Assumptions.moc"
