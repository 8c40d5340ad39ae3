// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The teaching panel as an instructor uses it: start a ring all-reduce on the workshop
// sample, step forward and back, watch the canvas label the links with the engine's own
// step, fail a spine mid-lesson, and get a reason instead of a lesson on a large design.
#include "model/catalog/Catalog.hpp"
#include "model/design/Failures.hpp"
#include "model/teach/Lesson.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/teach/TeachingPanel.hpp"

#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::teach::Lesson;
using fabriclab::views::TeachingPanel;
using fabriclab::views::TopologyDocument;
using fabriclab::views::TopologyScene;

namespace {

const QString kWorkshop =
    QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json");

/// The panel wired to a scene as the main window wires them.
void wire(TeachingPanel& panel, TopologyScene& scene) {
    QObject::connect(
        &panel, &TeachingPanel::linksShown, &scene,
        [&scene](const auto& load, const auto& notes) { scene.showLessonStep(load, notes); });
    QObject::connect(&panel, &TeachingPanel::linksCleared, &scene, &TopologyScene::clearLesson);
}

} // namespace

class tst_TeachingPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stepsThroughARing();
    void failingASpineRecomputesTheLesson();
    void refusesALargeDesignWithTheReason();
    void openingADesignEndsTheLesson();
};

void tst_TeachingPanel::stepsThroughARing() {
    TopologyDocument document(Catalog::builtin());
    document.load(kWorkshop);
    TopologyScene scene(document);
    TeachingPanel panel(document);
    wire(panel, scene);
    QSignalSpy shown(&panel, &TeachingPanel::linksShown);

    panel.start(Lesson::RingAllReduce);
    panel.waitForLesson();
    QVERIFY(panel.lesson());
    QCOMPARE(panel.stepCount(), 14); // 2 x (8 servers - 1)
    QCOMPARE(panel.currentStep(), 0);
    QCOMPARE(shown.count(), 1);
    // The canvas gets the engine's step as computed, not a view's estimate.
    const auto load = shown.at(0).at(0).value<std::unordered_map<std::uint32_t, float>>();
    QVERIFY(load == panel.lesson()->steps[0].linkLoad);
    QVERIFY(scene.showsLesson());
    QVERIFY(scene.linkNoteCount() > 0);
    // Playback colours wait while a lesson shows.
    scene.clearLinkHeat();
    QVERIFY(scene.hasLinkHeat());
    // Folding the servers into their units redraws the step on the bundles.
    const std::size_t notes = scene.linkNoteCount();
    scene.collapseAll();
    QVERIFY(scene.linkNoteCount() > 0);
    scene.expandAll();
    QCOMPARE(scene.linkNoteCount(), notes);

    panel.next();
    panel.next();
    QCOMPARE(panel.currentStep(), 2);
    panel.back();
    QCOMPARE(panel.currentStep(), 1);
    for (int i = 0; i < 20; ++i)
        panel.next();
    QCOMPARE(panel.currentStep(), 13); // stops at the last step
    const QList<QLabel*> labels = panel.findChildren<QLabel*>();
    const bool captioned = std::any_of(labels.begin(), labels.end(), [](QLabel* label) {
        return label->text().startsWith(QStringLiteral("All-gather, step 7 of 7"));
    });
    QVERIFY(captioned);

    panel.stop();
    QVERIFY(!scene.showsLesson());
    QCOMPARE(scene.linkNoteCount(), std::size_t{0});
    QVERIFY(!scene.hasLinkHeat());
}

void tst_TeachingPanel::failingASpineRecomputesTheLesson() {
    TopologyDocument document(Catalog::builtin());
    document.load(kWorkshop);
    TeachingPanel panel(document);
    panel.start(Lesson::AllToAll);
    panel.waitForLesson();
    QVERIFY(panel.lesson());
    document.setFailures(fabriclab::model::loseOneSpine(document.topology()),
                         QStringLiteral("Lose one spine"));
    panel.waitForLesson();
    QVERIFY(panel.lesson());
    const auto failed =
        fabriclab::model::failedElements(document.topology(), document.design().failures);
    QCOMPARE(int(failed.nodesDown.size()), 1);
    for (const auto link : document.topology().linksOf(*failed.nodesDown.begin()))
        for (const auto& step : panel.lesson()->steps)
            QVERIFY(!step.linkLoad.count(link.value));
}

void tst_TeachingPanel::refusesALargeDesignWithTheReason() {
    TopologyDocument document(Catalog::builtin());
    document.load(
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json"));
    TeachingPanel panel(document);
    QSignalSpy cleared(&panel, &TeachingPanel::linksCleared);
    panel.start(Lesson::RingAllReduce);
    panel.waitForLesson();
    QVERIFY(!panel.lesson());
    QCOMPARE(cleared.count(), 1);
    const QList<QLabel*> labels = panel.findChildren<QLabel*>();
    QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel* label) {
        return label->text().contains(QStringLiteral("up to 64 GPUs; this design has 1,024"));
    }));
}

void tst_TeachingPanel::openingADesignEndsTheLesson() {
    // A lesson is about the design it was started on: opening another ends it at once, and
    // nothing of it stays on the canvas or in the panel, even a lesson still being worked
    // out when the design changed.
    TopologyDocument document(Catalog::builtin());
    document.load(kWorkshop);
    TopologyScene scene(document);
    TeachingPanel panel(document);
    wire(panel, scene);
    panel.start(Lesson::RingAllReduce);
    panel.waitForLesson();
    panel.next();
    QVERIFY(panel.lesson());
    QVERIFY(scene.showsLesson());
    const auto captionOf = [&panel] {
        QStringList texts;
        for (const QLabel* label : panel.findChildren<QLabel*>())
            texts << label->text();
        return texts.join(QLatin1Char('\n'));
    };
    QVERIFY(captionOf().contains(QStringLiteral("step 2 of 14")));

    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json"));
    QVERIFY(!panel.lesson());
    QCOMPARE(panel.currentStep(), -1);
    QVERIFY(!scene.showsLesson());
    QCOMPARE(scene.linkNoteCount(), std::size_t{0});
    QVERIFY2(!captionOf().contains(QStringLiteral("step 2 of 14")), qPrintable(captionOf()));
    panel.waitForLesson(); // nothing was being worked out for the new design
    QVERIFY(!panel.lesson());
    QVERIFY(!scene.showsLesson());

    // A lesson asked for, then another design opened before it is in: it never shows.
    document.load(kWorkshop);
    panel.start(Lesson::RingAllReduce);
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json"));
    panel.waitForLesson();
    QVERIFY(!panel.lesson());
    QVERIFY(!scene.showsLesson());
}

QTEST_MAIN(tst_TeachingPanel)
#include "tst_TeachingPanel.moc"
