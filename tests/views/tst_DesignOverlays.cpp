// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// What the window lays over a design goes with it: after another design is opened, the
// Explain tab no longer explains the design before and the Teach lesson (with its labels on
// the canvas) is gone, even with live updates off, when no new result comes to replace them.
#include "app/gui/MainWindow.hpp"
#include "app/gui/SimulationActions.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/teach/Lesson.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/ExplainPanel.hpp"
#include "views/sim/SimulationController.hpp"
#include "views/teach/TeachingPanel.hpp"

#include <QListWidget>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::TopologyDocument;
using State = fabriclab::views::SimulationController::State;

namespace {

QString sample(const char* name) {
    return QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/%1.fabric.json").arg(QLatin1String(name));
}

/// Every line the Explain tab's reason list shows.
QStringList reasonLines(const fabriclab::views::ExplainPanel& explain) {
    QStringList lines;
    if (const auto* list = explain.findChild<QListWidget*>(QStringLiteral("reasons")))
        for (int row = 0; row < list->count(); ++row)
            lines << list->item(row)->text();
    return lines;
}

} // namespace

class tst_DesignOverlays : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { Q_INIT_RESOURCE(fabriclab); }
    void openingADesignClearsExplainAndTeach();
};

void tst_DesignOverlays::openingADesignClearsExplainAndTeach() {
    TopologyDocument document(Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    auto& controller = window.simulation()->controller();
    auto& scene = window.canvas()->topologyScene();
    auto* explain = window.explain();
    auto* teaching = window.teaching();

    document.load(sample("workshop-16gpu-leaf-spine"));
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Current, 30000);
    explain->waitForExplanations();
    const QStringList before = reasonLines(*explain);
    QVERIFY(!explain->reasons().empty());
    teaching->start(fabriclab::teach::Lesson::RingAllReduce);
    teaching->waitForLesson();
    QVERIFY(teaching->lesson());
    QVERIFY(scene.showsLesson());

    // As on a design that takes over a second to simulate: nothing new will arrive.
    controller.setLive(false);
    document.load(sample("teaching-4-servers"));
    QVERIFY(explain->reasons().empty());
    for (const QString& line : reasonLines(*explain))
        QVERIFY2(!before.contains(line), qPrintable(line));
    QVERIFY(explain->selection().links.empty());
    QVERIFY(!teaching->lesson());
    QVERIFY(!scene.showsLesson());
    QCOMPARE(scene.linkNoteCount(), std::size_t{0});
    // Work still in flight for the design before does not bring it back.
    explain->waitForExplanations();
    teaching->waitForLesson();
    QVERIFY(explain->reasons().empty());
    QVERIFY(!teaching->lesson());
    QVERIFY(!scene.showsLesson());

    // Simulated, the new design is explained on its own.
    controller.run();
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Current, 30000);
    explain->waitForExplanations();
    QVERIFY(!explain->reasons().empty());
}

QTEST_MAIN(tst_DesignOverlays)
#include "tst_DesignOverlays.moc"
