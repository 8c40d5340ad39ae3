// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The explain panel as an architect uses it: results arrive and "why is it this fast?"
// lists the engine's reasons; a link, a switch or a failed link is selected and the
// panel shows what the engine's router and solver give for it; a reason clicked points at
// the links it names.
#include "model/report/Slowdown.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/sim/LinkExplain.hpp"
#include "views/charts/LinkUtilizationChart.hpp"
#include "views/sim/ExplainPanel.hpp"

#include <QListWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

using namespace fabriclab;
using views::ExplainPanel;

namespace {

constexpr const char* kTeaching = FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json";

/// By default 4 servers, 2 leaves, 1 spine on RoCE with static ECMP, 2:1 at the leaves.
views::RunResultPtr teachingResult(std::vector<model::Failure> failures = {},
                                   const char* path = kTeaching) {
    model::Design design = model::loadDesign(path, model::Catalog::builtin());
    design.failures = std::move(failures);
    auto result = std::make_shared<views::RunResult>();
    result->revision = 7;
    result->design = std::make_shared<const model::Design>(design);
    model::RunOptions options;
    options.detail = true;
    result->report = model::runDesign(design, model::Catalog::builtin(), options);
    return result;
}

model::LinkId linkBetween(const model::Topology& topology, const char* a, const char* b) {
    for (const auto& [id, link] : topology.links()) {
        const auto& na = topology.node(link.a).name;
        const auto& nb = topology.node(link.b).name;
        if ((na == a && nb == b) || (na == b && nb == a))
            return id;
    }
    throw std::logic_error("no such link");
}

} // namespace

class tst_ExplainPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reasonsAreTheEngines();
    void aLinkShowsTheEnginesFlows();
    void aSwitchListsItsLinks();
    void aFailedLinkSaysSo();
};

void tst_ExplainPanel::reasonsAreTheEngines() {
    const auto result = teachingResult();
    ExplainPanel panel;
    QSignalSpy pointed(&panel, &ExplainPanel::elementsRequested);
    panel.showResult(result);
    panel.waitForExplanations();
    const auto expected = model::explainSlowdown(*result->design, result->report);
    QCOMPARE(panel.reasons().size(), expected.size());
    auto* list = panel.findChild<QListWidget*>(QStringLiteral("reasons"));
    QCOMPARE(list->count(), int(expected.size()));
    int withLinks = -1;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(list->item(int(i))->text(), QString::fromStdString(expected[i].text));
        if (withLinks < 0 && !expected[i].links.empty())
            withLinks = int(i);
    }
    QVERIFY(withLinks >= 0);
    // Clicking a reason asks the canvas to select what it names.
    Q_EMIT list->itemClicked(list->item(withLinks));
    QCOMPARE(pointed.count(), 1);
    const auto links = pointed.at(0).at(1).value<QList<model::LinkId>>();
    QCOMPARE(links.size(), int(expected[std::size_t(withLinks)].links.size()));
}

void tst_ExplainPanel::aLinkShowsTheEnginesFlows() {
    const auto result = teachingResult();
    ExplainPanel panel;
    panel.showResult(result);
    const model::LinkId up = linkBetween(result->design->topology, "leaf-1", "spine-1");
    panel.setSelection({}, {up});
    panel.waitForExplanations();
    QCOMPARE(int(panel.selection().links.size()), 1);
    // The same network runDesign ran (seed 1), the same phase: the same answer.
    const sim::FabricNetwork network(result->design->topology, result->report.fabric, 1);
    const auto group = sim::groupOfServers(network, result->design->workload->gpu.spec);
    const auto expected = sim::explainLink(
        network, sim::phaseTransfers(network, group, result->report.collective), up);
    const auto& shown = panel.selection().links.front();
    QCOMPARE(shown.flows.size(), expected.flows.size());
    QCOMPARE(shown.loadAtoB, expected.loadAtoB);
    QCOMPARE(shown.collisions, expected.collisions);
    auto* table = panel.findChild<QTableWidget*>(QStringLiteral("flows"));
    QCOMPARE(table->rowCount(), int(expected.flows.size()));
    QVERIFY(!expected.flows.empty()); // the ring crosses the spine
    // The link's utilization over the collective, as the playback frames give it: one row
    // per frame, each the engine's figure for this link.
    const auto* history =
        panel.findChild<views::ChartPanel*>(QString::fromLatin1(views::LinkUtilizationChart::kId));
    QVERIFY(history);
    QVERIFY(history->hasData());
    const sim::Playback& playback = *result->report.playback;
    const auto index = static_cast<std::size_t>(
        std::find(playback.links.begin(), playback.links.end(), up) - playback.links.begin());
    const views::ChartTable rows = history->table();
    QCOMPARE(rows.rows.size(), qsizetype(playback.frameCount()));
    for (std::size_t f = 0; f < playback.frameCount(); ++f)
        QCOMPARE(rows.rows[qsizetype(f)][1].toDouble(),
                 100.0 * double(playback.utilizationAt(f, index)));
}

void tst_ExplainPanel::aSwitchListsItsLinks() {
    const auto result = teachingResult();
    ExplainPanel panel;
    panel.showResult(result);
    const auto spine = *result->design->topology.findNode("spine-1");
    panel.setSelection({spine}, {});
    panel.waitForExplanations();
    QCOMPARE(panel.selection().links.size(), result->design->topology.linksOf(spine).size());
    auto* table = panel.findChild<QTableWidget*>(QStringLiteral("flows"));
    QCOMPARE(table->rowCount(), int(panel.selection().links.size()));
}

void tst_ExplainPanel::aFailedLinkSaysSo() {
    // The 16-GPU workshop fabric has two spines: one leaf's link to spine-1 can go.
    model::Failure down;
    down.element = "leaf-1/spine-1";
    const auto result = teachingResult({down}, FABRICLAB_SOURCE_DIR
                                       "/samples/workshop-16gpu-leaf-spine.fabric.json");
    ExplainPanel panel;
    panel.showResult(result);
    panel.setSelection({}, {linkBetween(result->design->topology, "leaf-1", "spine-1")});
    panel.waitForExplanations();
    QVERIFY(panel.selection().links.empty());
    QCOMPARE(panel.selection().failedLinks.size(), 1);
}

QTEST_MAIN(tst_ExplainPanel)
#include "tst_ExplainPanel.moc"
