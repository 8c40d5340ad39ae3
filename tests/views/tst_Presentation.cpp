// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Presentation mode as a sales engineer uses it: build a story step from the screen in two
// clicks, press F11 on a sample with a saved story, walk it with the keyboard and leave
// with Esc to find the window as it was. Runs offscreen.
#include "app/gui/MainWindow.hpp"
#include "model/catalog/Catalog.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/present/PresentationMode.hpp"
#include "views/present/StoryPanel.hpp"
#include "views/sim/ResultsDashboard.hpp"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
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
        QCOMPARE(dock->isVisible(), dock->widget() == dashboard);
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
    QVERIFY(
        window.presentation()->banner().contains(QString::fromStdString(document.design().name)));
    QTest::keyClick(&window, Qt::Key_Escape);
    QTRY_VERIFY(!window.presentation()->isActive());
}

QTEST_MAIN(tst_Presentation)
#include "tst_Presentation.moc"
