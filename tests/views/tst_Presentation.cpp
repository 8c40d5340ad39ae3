// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Presentation mode as a sales engineer uses it: build a story step from the screen in two
// clicks, press F11 on a sample with a saved story, walk it with the keyboard and leave
// with Esc to find the window as it was. Runs offscreen.
#include "app/gui/MainWindow.hpp"
#include "app/gui/SimulationActions.hpp"
#include "model/analysis/Oversubscription.hpp"
#include "model/catalog/Catalog.hpp"
#include "support/LayoutChecks.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/canvas/LinkNoteItem.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/panels/DesignRegeneration.hpp"
#include "views/present/PresentationMode.hpp"
#include "views/present/StoryPanel.hpp"
#include "views/sim/ResultsDashboard.hpp"
#include "views/sim/SimulationController.hpp"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFontMetricsF>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QUndoStack>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::TopologyDocument;

namespace {

const QString kStorySample =
    QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-spine-down.fabric.json");
const QString kWorkshop =
    QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json");
const QString kRail =
    QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json");

QAction* menuAction(QMenuBar* bar, const QString& menu, const QString& text) {
    for (QAction* top : bar->actions())
        if (top->menu() && top->text().remove(QLatin1Char('&')) == menu)
            for (QAction* action : top->menu()->actions())
                if (action->text().remove(QLatin1Char('&')) == text)
                    return action;
    return nullptr;
}

} // namespace

class tst_Presentation : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { Q_INIT_RESOURCE(fabriclab); }
    void storyStepInTwoClicks();
    void presentingWalksTheStoryAndLeavesTheWindowAsItWas();
    void withoutAStoryTheChosenChartsShow();
    void bannerDescribesTheDesignAsItIsNow();
    void titleLabelsAndCaptionsFitTheScreen_data();
    void titleLabelsAndCaptionsFitTheScreen();
};

void tst_Presentation::storyStepInTwoClicks() {
    TopologyDocument document(Catalog::builtin());
    document.load(kWorkshop);
    fabriclab::app::MainWindow window(document);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // Click one: the View menu; click two: its item.
    QAction* add = menuAction(window.menuBar(), QStringLiteral("View"),
                              QStringLiteral("Add current state to story"));
    QVERIFY(add);
    add->trigger();
    const auto& story = document.design().story;
    QCOMPARE(story.size(), std::size_t{1});
    QCOMPARE(story[0].fabric, std::string("ib-ndr"));
    QCOMPARE(*story[0].oversubscription, 1.0);
    QVERIFY(story[0].failures.empty());
    QVERIFY((story[0].charts == std::vector<std::string>{"busbw-vs-size", "step-time"}));
    document.undoStack()->undo();
    QVERIFY(document.design().story.empty());
}

void tst_Presentation::presentingWalksTheStoryAndLeavesTheWindowAsItWas() {
    TopologyDocument document(Catalog::builtin());
    document.load(kStorySample);
    QCOMPARE(document.design().story.size(), std::size_t{4});
    fabriclab::app::MainWindow window(document);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* mode = window.presentation();
    auto* dashboard = window.dashboard();
    const int docksBefore = [&] {
        int shown = 0;
        for (auto* dock : window.findChildren<QDockWidget*>())
            shown += dock->isVisible();
        return shown;
    }();

    // Shown from the Story dock while editing: the step applies, every chart stays.
    mode->showStep(1);
    QCOMPARE(document.design().failures.size(), std::size_t{1});
    QVERIFY(dashboard->focusedCharts().isEmpty());
    QVERIFY(!mode->isActive());

    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(mode->isActive());
    QCOMPARE(mode->currentStep(), 0);
    QVERIFY(!window.menuBar()->isVisible());
    QVERIFY(!window.statusBar()->isVisible());
    for (auto* dock : window.findChildren<QDockWidget*>())
        QCOMPARE(dock->isVisible(), dock->isAncestorOf(dashboard));
    QVERIFY(mode->banner().contains(QStringLiteral("1 / 4")));
    QCOMPARE(dashboard->focusedCharts(),
             (QStringList{QStringLiteral("busbw-vs-size"), QStringLiteral("step-time")}));
    QVERIFY(document.design().failures.empty()); // step 1: as built

    // Right, Space, Left, End: the steps apply their fabric, failures and ratio.
    QTest::keyClick(&window, Qt::Key_Right);
    QCOMPARE(mode->currentStep(), 1);
    QCOMPARE(document.design().failures.size(), std::size_t{1});
    QCOMPARE(document.design().failures[0].element, std::string("spine-1"));
    QVERIFY(mode->banner().contains(QStringLiteral("One spine fails")));
    QCOMPARE(dashboard->focusedCharts(),
             (QStringList{QStringLiteral("bisection"), QStringLiteral("step-time")}));
    QTest::keyClick(&window, Qt::Key_Space);
    QCOMPARE(mode->currentStep(), 2);
    QCOMPARE(document.design().fabric.spec.id, std::string("roce-v2-cx7"));
    QTest::keyClick(&window, Qt::Key_Left);
    QCOMPARE(mode->currentStep(), 1);
    QCOMPARE(document.design().fabric.spec.id, std::string("spectrum-x"));
    QTest::keyClick(&window, Qt::Key_End);
    QCOMPARE(mode->currentStep(), 3);
    QCOMPARE(document.design().generator->oversubscription, 2.0);
    QVERIFY(document.design().failures.empty());
    QTest::keyClick(&window, Qt::Key_Right); // past the end: stays
    QCOMPARE(mode->currentStep(), 3);
    // Each step is one undo step; the story itself is kept through them.
    QCOMPARE(document.design().story.size(), std::size_t{4});

    QTest::keyClick(&window, Qt::Key_Escape);
    QTRY_VERIFY(!mode->isActive());
    QVERIFY(window.menuBar()->isVisible());
    QVERIFY(window.statusBar()->isVisible());
    QVERIFY(dashboard->focusedCharts().isEmpty());
    int docksAfter = 0;
    for (auto* dock : window.findChildren<QDockWidget*>())
        docksAfter += dock->isVisible();
    QCOMPARE(docksAfter, docksBefore);
}

void tst_Presentation::withoutAStoryTheChosenChartsShow() {
    TopologyDocument document(Catalog::builtin());
    document.load(kWorkshop);
    fabriclab::app::MainWindow window(document);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QList<QComboBox*> boxes = window.story()->findChildren<QComboBox*>();
    QCOMPARE(boxes.size(), 2);
    boxes[0]->setCurrentIndex(boxes[0]->findData(QStringLiteral("cost")));
    boxes[1]->setCurrentIndex(boxes[1]->findData(QStringLiteral("bisection")));
    QTest::keyClick(&window, Qt::Key_F11);
    QVERIFY(window.presentation()->isActive());
    QCOMPARE(window.presentation()->currentStep(), -1);
    QCOMPARE(window.dashboard()->focusedCharts(),
             (QStringList{QStringLiteral("cost"), QStringLiteral("bisection")}));
    // Unchanged since it was opened: its name still says what it is, above the facts.
    QVERIFY(
        window.presentation()->banner().contains(QString::fromStdString(document.design().name)));
    QVERIFY(window.presentation()->banner().contains(QStringLiteral("16 GPUs")));
    QTest::keyClick(&window, Qt::Key_Escape);
    QTRY_VERIFY(!window.presentation()->isActive());
}

void tst_Presentation::bannerDescribesTheDesignAsItIsNow() {
    // Opened as Spectrum-X, rail-optimized and non-blocking, then moved to RoCE at 3:1
    // with two spines failed: the banner says RoCE, 3:1 and two failures, whatever the
    // design's stored name still says.
    TopologyDocument document(Catalog::builtin());
    document.load(kRail);
    const auto* roce = document.catalog().findFabric("roce-v2");
    QVERIFY(roce);
    auto onRoce = fabriclab::views::DesignRegeneration::withFabric(document.design(), *roce);
    QVERIFY(onRoce.accepted());
    document.replaceDesign(std::move(*onRoce.design), QStringLiteral("RoCE"));
    auto oversubscribed =
        fabriclab::views::DesignRegeneration::withOversubscription(document.design(), 3.0);
    QVERIFY2(oversubscribed.accepted(), qPrintable(oversubscribed.refusal));
    document.replaceDesign(std::move(*oversubscribed.design), QStringLiteral("3:1"));
    document.setFailures({{"spine-1", fabriclab::model::FailureKind::Down, 0, 1},
                          {"spine-2", fabriclab::model::FailureKind::Down, 0, 1}},
                         QStringLiteral("Fail two spines"));
    QVERIFY(QString::fromStdString(document.design().name).contains(QStringLiteral("Spectrum-X")));

    fabriclab::app::MainWindow window(document);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTest::keyClick(&window, Qt::Key_F11);
    const QString banner = window.presentation()->banner();
    QVERIFY2(banner.contains(QStringLiteral("RoCEv2")), qPrintable(banner));
    // The ratio as the status bar measures it on the regenerated fabric (the generator's
    // whole uplinks make 3:1 asked about 2.7:1 built), not the name's non-blocking.
    const auto ratio = fabriclab::model::leafOversubscription(document.topology());
    QVERIFY(ratio && *ratio > 2.5);
    QVERIFY2(banner.contains(fabriclab::views::ratioText(*ratio) + QStringLiteral(" leaf oversub")),
             qPrintable(banner));
    QVERIFY2(!banner.contains(QStringLiteral("1:1")), qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("2 failures")), qPrintable(banner));
    QVERIFY2(banner.contains(QStringLiteral("1,024 GPUs")), qPrintable(banner));
    QVERIFY2(!banner.contains(QStringLiteral("Spectrum-X")), qPrintable(banner));

    // An edit while presenting (a spine restored) shows at once.
    document.setFailures({{"spine-1", fabriclab::model::FailureKind::Down, 0, 1}},
                         QStringLiteral("Restore spine-2"));
    QVERIFY2(window.presentation()->banner().contains(QStringLiteral("1 failure")),
             qPrintable(window.presentation()->banner()));
    QTest::keyClick(&window, Qt::Key_Escape);
    QTRY_VERIFY(!window.presentation()->isActive());
}

void tst_Presentation::titleLabelsAndCaptionsFitTheScreen_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("projector 1280x720") << QSize(1280, 720);
    QTest::newRow("laptop 1366x768") << QSize(1366, 768);
    QTest::newRow("full HD 1920x1080") << QSize(1920, 1080);
}

void tst_Presentation::titleLabelsAndCaptionsFitTheScreen() {
    // On a projector's screen: the title strip lies above the fitted design, not over its
    // server row; bundle labels are measured in the enlarged type they are drawn in (not
    // cut at both ends); and the charts' captions and the rest of the window fit.
    QFETCH(QSize, size);
    TopologyDocument document(Catalog::builtin());
    document.load(kRail); // no story: entering changes the type, not the design
    fabriclab::app::MainWindow window(document);
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto& controller = window.simulation()->controller();
    auto* mode = window.presentation();
    mode->setFullScreen(false); // the window as a screen of this size shows it
    mode->enter();
    QTRY_VERIFY_WITH_TIMEOUT(
        controller.result() && controller.result()->revision == controller.revision(), 120000);
    window.dashboard()->finishChartUpdates();
    QTest::qWait(50); // the fits and layouts queued by the step
    QCOMPARE(window.size(), size);

    auto* canvas = window.canvas();
    auto* banner = canvas->findChild<QLabel*>(QStringLiteral("presentationBanner"));
    QVERIFY(banner && banner->isVisible());
    QVERIFY2(banner->text().contains(QStringLiteral("1,024 GPUs")), qPrintable(banner->text()));
    const QRect view = canvas->viewport()->geometry();
    QVERIFY2(banner->geometry().bottom() < view.top(), "the title lies over the drawing");
    QVERIFY(banner->height() >= banner->heightForWidth(banner->width()));
    const QRect drawn = canvas->mapFromScene(canvas->topologyScene().contentRect()).boundingRect();
    QVERIFY2(canvas->viewport()->rect().adjusted(-2, -2, 2, 2).contains(drawn),
             "the fitted design runs out of the view");

    QFont note = canvas->topologyScene().font(); // LinkNoteItem's: the scene's, smaller, bold
    note.setPointSizeF(note.pointSizeF() * 0.9);
    note.setBold(true);
    const QFontMetricsF metrics(note);
    int labels = 0;
    for (const QGraphicsItem* item : canvas->topologyScene().items()) {
        if (item->type() != fabriclab::views::LinkNoteItem::Type || !item->isVisible())
            continue;
        const auto* label = static_cast<const fabriclab::views::LinkNoteItem*>(item);
        QVERIFY2(item->boundingRect().width() >= metrics.horizontalAdvance(label->text()) + 8,
                 qPrintable(label->text()));
        // Nor cut by the view's edges: drawn in device pixels around its point.
        const QRectF onScreen =
            item->boundingRect().translated(canvas->mapFromScene(item->scenePos()));
        QVERIFY2(QRectF(canvas->viewport()->rect()).adjusted(-1, -1, 1, 1).contains(onScreen),
                 qPrintable(label->text()));
        ++labels;
    }
    QVERIFY(labels > 0);

    QVERIFY(fabriclab::testing::fits(&window));
    mode->leave();
    QCOMPARE(window.size(), size);
}

QTEST_MAIN(tst_Presentation)
#include "tst_Presentation.moc"
