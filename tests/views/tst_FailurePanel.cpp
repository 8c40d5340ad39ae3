// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The what-if panel as a presenter uses it: lose a spine, a rail, 5% of the links, restore
// one failure and then all of them, each press one undo step.
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/panels/FailurePanel.hpp"
#include "views/sim/DesignFacts.hpp"

#include <QListWidget>
#include <QPushButton>
#include <QUndoStack>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::FailurePanel;
using fabriclab::views::TopologyDocument;

namespace {

/// 64 servers x 8 NICs, rail-optimized, radix 64: 16 rail leaves under 8 spines, each leaf
/// with 4 cables to each spine (512 switch-to-switch cables).
fabriclab::model::Design railDesign(const Catalog& catalog) {
    fabriclab::model::Design design;
    design.name = "what-if drill";
    design.fabric.spec = *catalog.findFabric("ib-ndr");
    fabriclab::model::GeneratorParams p;
    p.servers = 64;
    design.generator = p;
    design.topology = fabriclab::model::generateLeafSpine(p);
    return design;
}

QPushButton* button(FailurePanel& panel, const char* name) {
    return panel.findChild<QPushButton*>(QString::fromLatin1(name));
}

/// What each scenario would fail is worked out off the GUI thread after every change; a
/// user sees the buttons a moment later. Waits for that moment.
void settle(TopologyDocument& document) {
    fabriclab::views::DesignFacts::of(document).awaitCurrent();
}

/// Presses a scenario's button once the panel has worked out what it would fail.
void press(FailurePanel& panel, TopologyDocument& document, const char* name) {
    settle(document);
    QTest::mouseClick(button(panel, name), Qt::LeftButton);
    settle(document);
}

} // namespace

class tst_FailurePanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scenariosAddUpAndUndo();
    void offersOnlyWhatTheDesignHas_data();
    void offersOnlyWhatTheDesignHas();
};

void tst_FailurePanel::scenariosAddUpAndUndo() {
    TopologyDocument document(Catalog::builtin());
    document.adopt(railDesign(document.catalog()), QString());
    FailurePanel panel(document);
    auto* list = panel.findChild<QListWidget*>(QStringLiteral("failureList"));
    QVERIFY(list);
    QCOMPARE(list->count(), 0);
    QVERIFY(!button(panel, "restoreAll")->isEnabled());

    press(panel, document, "loseSpine");
    QCOMPARE(document.design().failures.size(), std::size_t{1});
    QCOMPARE(document.design().failures[0].element, std::string("spine-1"));
    QCOMPARE(list->item(0)->text(), QStringLiteral("spine-1 down"));
    // Pressed again, nothing new fails and no empty undo step is made.
    const int steps = document.undoStack()->count();
    press(panel, document, "loseSpine");
    QCOMPARE(document.undoStack()->count(), steps);

    press(panel, document, "loseRail");
    QCOMPARE(document.design().failures[1].element, std::string("rail-1"));

    // 5% of 512 cables: a binomial draw, 25.6 expected with a standard deviation of 4.9;
    // 3 deviations either side bounds it (the draw is fixed by the seed, so this is stable).
    press(panel, document, "loseLinks");
    int cables = 0;
    for (std::size_t i = 2; i < document.design().failures.size(); ++i) {
        const auto& f = document.design().failures[i];
        QVERIFY2(f.element.find('/') != std::string::npos, f.element.c_str());
        cables += f.cables > 0 ? f.cables : 4; // a whole link is 4 cables here
    }
    QVERIFY2(cables >= 11 && cables <= 40, qPrintable(QString::number(cables)));
    QCOMPARE(list->count(), static_cast<int>(document.design().failures.size()));

    // Restore the spine alone, then everything; undo walks back one press at a time.
    list->item(0)->setSelected(true);
    QVERIFY(button(panel, "restoreSelected")->isEnabled());
    QTest::mouseClick(button(panel, "restoreSelected"), Qt::LeftButton);
    QCOMPARE(document.design().failures.front().element, std::string("rail-1"));
    QTest::mouseClick(button(panel, "restoreAll"), Qt::LeftButton);
    QVERIFY(document.design().failures.empty());
    QCOMPARE(list->count(), 0);
    document.undoStack()->undo();
    QCOMPARE(document.design().failures.front().element, std::string("rail-1"));
    document.undoStack()->undo();
    QCOMPARE(document.design().failures.front().element, std::string("spine-1"));
}

void tst_FailurePanel::offersOnlyWhatTheDesignHas_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<bool>("spine");
    QTest::addColumn<bool>("rail");
    QTest::addColumn<bool>("links");
    // Eight rail switches and no spine: a rail can go, a spine or switch-to-switch links not.
    QTest::newRow("rail-only") << "rail-only-512gpu-ib-ndr" << false << true << false;
    // One leaf for eight servers: nothing above it, no rails, no cables between switches.
    QTest::newRow("one leaf") << "article000-64gpu-ib-ndr" << false << false << false;
    // Hand-drawn, two leaves under one spine, no rails.
    QTest::newRow("hand-drawn") << "teaching-4-servers" << true << false << true;
    QTest::newRow("rail-optimized leaf/spine") << "spectrum-x-1024gpu-rail" << true << true << true;
}

void tst_FailurePanel::offersOnlyWhatTheDesignHas() {
    QFETCH(QString, sample);
    QFETCH(bool, spine);
    QFETCH(bool, rail);
    QFETCH(bool, links); // cables between switches to draw from
    TopologyDocument document(Catalog::builtin());
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/%1.fabric.json").arg(sample));
    FailurePanel panel(document);
    settle(document);
    // A 5% draw over a handful of cables (the hand-drawn design's four) can pick none: then
    // it is not offered either. The draw is the one a press would make.
    const auto drawsSome = [&] {
        return links && !fabriclab::model::loseLinksAtRandom(document.topology(), 0.05,
                                                             document.design().failures.size() + 1)
                             .empty();
    };
    QCOMPARE(button(panel, "loseSpine")->isEnabled(), spine);
    QCOMPARE(button(panel, "loseRail")->isEnabled(), rail);
    QCOMPARE(button(panel, "loseLinks")->isEnabled(), drawsSome());
    // A button not offered says why instead of what it would fail.
    for (const char* name : {"loseSpine", "loseRail", "loseLinks"}) {
        const QPushButton* b = button(panel, name);
        QVERIFY2(!b->toolTip().isEmpty(), name);
        QCOMPARE(b->toolTip().startsWith(QStringLiteral("Take")) ||
                     b->toolTip().startsWith(QStringLiteral("Fail")),
                 b->isEnabled());
    }
    // Each offered scenario fails something when pressed (one undo step each); one not
    // offered cannot be pressed.
    int offered = 0;
    for (const char* name : {"loseSpine", "loseRail", "loseLinks"}) {
        const bool enabled = button(panel, name)->isEnabled();
        offered += enabled ? 1 : 0;
        press(panel, document, name);
        QCOMPARE(document.undoStack()->count(), offered);
    }
    // Once the spine is down, losing "one spine" again has nothing new to fail.
    if (spine)
        QVERIFY(!button(panel, "loseSpine")->isEnabled());
}

QTEST_MAIN(tst_FailurePanel)
#include "tst_FailurePanel.moc"
