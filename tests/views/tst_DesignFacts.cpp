// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The facts the panels read off the GUI thread: the same figures the model's functions give,
// one pass per burst of changes, and never the facts of a design an edit replaced.
#include "model/analysis/Oversubscription.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/design/Failures.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/DesignFacts.hpp"

#include <QSignalSpy>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::DesignFacts;
using fabriclab::views::TopologyDocument;

namespace {

const char* const kHandDrawn = FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json";
const char* const kRail = FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json";

} // namespace

class tst_DesignFacts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void factsAreTheModelsFigures_data();
    void factsAreTheModelsFigures();
    void anEditDropsTheFactsItReplaced();
};

void tst_DesignFacts::factsAreTheModelsFigures_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<double>("ratio");
    QTest::addColumn<bool>("rail");
    // Teaching sample: each leaf 2 servers x 2 x 400G down, 2 x 400G up: 2:1, no rails.
    QTest::newRow("hand-drawn 2:1") << kHandDrawn << 2.0 << false;
    // Rail-optimized at 1:1: as many uplinks as downlinks on every leaf.
    QTest::newRow("rail-optimized 1:1") << kRail << 1.0 << true;
}

void tst_DesignFacts::factsAreTheModelsFigures() {
    QFETCH(QString, sample);
    QFETCH(double, ratio);
    QFETCH(bool, rail);
    TopologyDocument document(Catalog::builtin());
    document.load(sample);
    DesignFacts& facts = DesignFacts::of(document);
    QCOMPARE(&DesignFacts::of(document), &facts); // one per document
    QSignalSpy ready(&facts, &DesignFacts::ready);
    QTRY_VERIFY(facts.current());
    const auto& f = *facts.current();
    const auto& topology = document.topology();
    QVERIFY(f.worstLeaf);
    QCOMPARE(f.worstLeaf->ratio, ratio);
    QCOMPARE(f.worstLeaf->ratio, *fabriclab::model::leafOversubscription(topology));
    QCOMPARE(f.loseOneSpine.size(), fabriclab::model::loseOneSpine(topology).size());
    QCOMPARE(f.loseOneRail.empty(), !rail);
    QCOMPARE(f.tiers.spine, topology.switchCounts().spine);
    QCOMPARE(f.switchCables, topology.cableCounts().switchToSwitch());
    QCOMPARE(ready.count(), 1);
}

void tst_DesignFacts::anEditDropsTheFactsItReplaced() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kHandDrawn));
    DesignFacts& facts = DesignFacts::of(document);
    QCOMPARE(facts.awaitCurrent().worstLeaf->ratio, 2.0);
    // Two more 400G uplinks per leaf: 1,600 down : 1,600 up -> 1:1. Each cable is a change;
    // until they are worked out there are no facts, never the 2:1 of the design before.
    QSignalSpy ready(&facts, &DesignFacts::ready);
    const auto& topology = document.topology();
    const auto spine = *topology.findNode("spine-1");
    for (const char* leaf : {"leaf-1", "leaf-2"})
        for (int cable = 0; cable < 2; ++cable) {
            QVERIFY(document.connect(*topology.findNode(leaf), spine));
            QVERIFY(!facts.current());
        }
    QTRY_VERIFY(facts.current());
    QCOMPARE(facts.current()->worstLeaf->ratio, 1.0);
    // Four changes in one turn of the event loop: worked out once.
    QCOMPARE(ready.count(), 1);
    QTest::qWait(20);
    QCOMPARE(ready.count(), 1);
}

QTEST_MAIN(tst_DesignFacts)
#include "tst_DesignFacts.moc"
