// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The chart registry is the one place a kind of chart is listed: these checks hold the
// charts, the story steps the design file keeps, and its JSON Schema to it.
#include "model/design/Story.hpp"
#include "views/charts/ChartPanel.hpp"
#include "views/charts/ChartRegistry.hpp"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <memory>
#include <set>

using namespace fabriclab;
using namespace fabriclab::views;

class TestChartRegistry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyKindMakesItsChart();
    void storyStepsPickTheDashboardsCharts();
    void presentationDefaultsAreDashboardCharts();
};

void TestChartRegistry::everyKindMakesItsChart() {
    std::set<QString> ids;
    for (const ChartKind& kind : chartKinds()) {
        const QString id = QString::fromLatin1(kind.id);
        QVERIFY2(ids.insert(id).second, kind.id); // ids are export stems: unique
        QVERIFY2(!kind.title().isEmpty() && !kind.label().isEmpty(), kind.id);
        const std::unique_ptr<ChartPanel> chart(kind.create(nullptr));
        QCOMPARE(chart->name(), id);
        QCOMPARE(chart->objectName(), id);
        QCOMPARE(chart->title(), kind.title());
        QVERIFY(!chart->hasData()); // a new chart shows nothing until fed
        QCOMPARE(findChartKind(id), &kind);
    }
    QCOMPARE(findChartKind(u"pie"), nullptr);
}

void TestChartRegistry::storyStepsPickTheDashboardsCharts() {
    // A story step names the dashboard's charts, in the dashboard's order; the design file
    // and its schema keep the same list.
    QStringList story;
    for (const std::string_view name : model::kStoryChartNames)
        story << QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    QCOMPARE(chartIds(ChartPlace::Dashboard), story);

    std::ifstream file(std::string(FABRICLAB_SOURCE_DIR) + "/schemas/design.schema.json");
    QVERIFY(file);
    const auto schema = nlohmann::json::parse(file);
    QStringList inSchema;
    const nlohmann::json* charts = nullptr;
    // The story step's "charts" enum, wherever the schema defines the step.
    for (const auto& [name, definition] : schema["$defs"].items())
        if (definition.contains("properties") && definition["properties"].contains("charts"))
            charts = &definition["properties"]["charts"]["items"]["enum"];
    QVERIFY(charts);
    for (const auto& name : *charts)
        inSchema << QString::fromStdString(name.get<std::string>());
    QCOMPARE(inSchema, story);
}

void TestChartRegistry::presentationDefaultsAreDashboardCharts() {
    const QStringList presented = chartIds(ChartPlace::PresentedByDefault);
    QCOMPARE(presented.size(), qsizetype(model::kStoryCharts)); // a step shows two
    for (const QString& id : presented)
        QVERIFY2(chartIds(ChartPlace::Dashboard).contains(id), qPrintable(id));
    // Whatever the dashboard shows is exported with it.
    for (const QString& id : chartIds(ChartPlace::Dashboard))
        QVERIFY2(chartIds(ChartPlace::Exported).contains(id), qPrintable(id));
}

QTEST_MAIN(TestChartRegistry)
#include "tst_ChartRegistry.moc"
