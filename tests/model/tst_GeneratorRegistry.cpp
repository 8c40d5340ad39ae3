// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The generator registry is the one place a kind is described: these checks hold every
// reader of it (the design file, its JSON Schema, the writer) to what the entries say.
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <string>

using namespace fabriclab;

namespace {

std::string designText(const nlohmann::json& generator) {
    return nlohmann::json{{"format", "fabriclab-design"},
                          {"version", 1},
                          {"name", "registry check"},
                          {"fabric", "ib-ndr"},
                          {"generator", generator}}
        .dump();
}

model::Design parse(const nlohmann::json& generator) {
    return model::parseDesign(designText(generator), "registry check", model::Catalog::builtin());
}

} // namespace

class TestGeneratorRegistry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyKindDescribesItself();
    void schemaListsTheRegisteredKindsAndFields();
    void savedGeneratorHoldsItsKindsFields_data();
    void savedGeneratorHoldsItsKindsFields();
    void otherKindsFieldsAreIgnoredOnRead();
    void aKindsOwnFieldLivesInExtra();
};

void TestGeneratorRegistry::everyKindDescribesItself() {
    QVERIFY(model::generators().size() >= 3);
    for (const model::GeneratorEntry* entry : model::generators()) {
        QVERIFY(!entry->kind.empty());
        QVERIFY2(!entry->title.empty() && !entry->description.empty(), entry->kind.data());
        QVERIFY2(entry->generate != nullptr, entry->kind.data());
        QVERIFY2(entry->reads("servers"), entry->kind.data()); // every fabric has servers
        std::set<std::string_view> keys;
        for (const model::GeneratorField* field : entry->fields) {
            QVERIFY2(keys.insert(field->key).second, field->key.data());
            QVERIFY2(!field->label.empty() && !field->help.empty(), field->key.data());
        }
        QCOMPARE(model::findGenerator(entry->kind), entry);
    }
    QCOMPARE(model::findGenerator("slim-fly"), nullptr);
}

void TestGeneratorRegistry::schemaListsTheRegisteredKindsAndFields() {
    // The schema is the published contract; this keeps it in step with the registry.
    std::ifstream file(std::string(FABRICLAB_SOURCE_DIR) + "/schemas/design.schema.json");
    QVERIFY(file);
    const auto schema = nlohmann::json::parse(file);
    const auto& generator = schema["$defs"]["generator"];
    std::set<std::string> kinds;
    for (const auto& kind : generator["properties"]["kind"]["enum"])
        kinds.insert(kind.get<std::string>());
    std::set<std::string> registered;
    for (const model::GeneratorEntry* entry : model::generators())
        registered.insert(std::string(entry->kind));
    QCOMPARE(kinds, registered);

    std::set<std::string> properties;
    for (const auto& [key, unused] : generator["properties"].items())
        properties.insert(key);
    std::set<std::string> fields{"kind"};
    for (const model::GeneratorField* field : model::allGeneratorFields()) {
        fields.insert(std::string(field->key));
        const auto& property = generator["properties"][std::string(field->key)];
        const char* expected = field->type == model::GeneratorField::Type::Count  ? "integer"
                               : field->type == model::GeneratorField::Type::Flag ? "boolean"
                                                                                  : "number";
        QCOMPARE(property.value("type", std::string()), std::string(expected));
    }
    QCOMPARE(properties, fields);
}

void TestGeneratorRegistry::savedGeneratorHoldsItsKindsFields_data() {
    QTest::addColumn<QString>("kind");
    for (const model::GeneratorEntry* entry : model::generators())
        QTest::newRow(entry->kind.data()) << QString::fromUtf8(entry->kind.data());
}

void TestGeneratorRegistry::savedGeneratorHoldsItsKindsFields() {
    // Four servers fit every kind on one switch per rail; the reader fills in the rest.
    QFETCH(QString, kind);
    const model::Design design = parse({{"kind", kind.toStdString()}, {"servers", 4}});
    QVERIFY(design.generator);
    const nlohmann::json saved = model::designToJson(design)["generator"];
    const model::GeneratorEntry* entry = model::findGenerator(kind.toStdString());
    std::set<std::string> expected{"kind"};
    for (const model::GeneratorField* field : entry->fields)
        if (field->get(*design.generator))
            expected.insert(std::string(field->key));
    std::set<std::string> written;
    for (const auto& [key, unused] : saved.items())
        written.insert(key);
    QCOMPARE(written, expected);
    // And what is written reads back as the same request.
    QCOMPARE(*parse(saved).generator, *design.generator);
}

void TestGeneratorRegistry::otherKindsFieldsAreIgnoredOnRead() {
    // Earlier FabricLab saved rail-only designs with a spine radix and a ratio: they open,
    // and saving again leaves out what the kind does not read.
    const model::Design design =
        parse({{"kind", "rail-only"}, {"servers", 4}, {"spineRadix", 32}, {"oversubscription", 2}});
    const nlohmann::json saved = model::designToJson(design)["generator"];
    QVERIFY(!saved.contains("spineRadix"));
    QVERIFY(!saved.contains("oversubscription"));
    QCOMPARE(saved["kind"].get<std::string>(), std::string("rail-only"));
}

void TestGeneratorRegistry::aKindsOwnFieldLivesInExtra() {
    // A parameter outside the shared vocabulary (a dragonfly's groups, say) is kept by key.
    constexpr model::GeneratorField groups{"groups",
                                           "Groups",
                                           "Router groups.",
                                           model::GeneratorField::Type::Count,
                                           std::monostate{},
                                           2,
                                           false,
                                           {},
                                           9};
    model::GeneratorParams params;
    QCOMPARE(groups.get(params).value(), 9.0); // the fallback when unset
    groups.set(params, 33);
    QCOMPARE(params.extra.at("groups"), 33.0);
    QCOMPARE(groups.get(params).value(), 33.0);
    model::GeneratorParams other;
    QVERIFY(!(params == other)); // a request's extras are part of it
}

QTEST_GUILESS_MAIN(TestGeneratorRegistry)
#include "tst_GeneratorRegistry.moc"
