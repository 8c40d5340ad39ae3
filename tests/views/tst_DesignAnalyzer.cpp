// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The live figures: the first analysis waits out the debounce, so a window opened on a
// file never shows the empty start-up design's zeros first; the figures name the worst
// halving their bisection percentage refers to, and say when there is no oversubscription
// to measure.
#include "model/catalog/Catalog.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/DesignAnalyzer.hpp"

#include <QSignalSpy>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::DesignAnalyzer;
using fabriclab::views::DesignFigures;
using fabriclab::views::TopologyDocument;

namespace {

const char* const kHandDrawn = FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json";

} // namespace

class tst_DesignAnalyzer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void openingAFileShowsOnlyItsFigures();
    void figuresSayWhatTheyMeasure();
};

void tst_DesignAnalyzer::openingAFileShowsOnlyItsFigures() {
    TopologyDocument document(Catalog::builtin());
    DesignAnalyzer analyzer(document);
    QSignalSpy figures(&analyzer, &DesignAnalyzer::figuresChanged);
    // main() opens the file once the event loop runs; an analysis of the empty design
    // finished by then would put "0 GPUs" in the status bar first. The empty design's
    // analysis takes microseconds, far less than this wait, were it started at once.
    QTest::qWait(50);
    QCOMPARE(figures.count(), 0);
    document.load(QString::fromUtf8(kHandDrawn));
    QTRY_COMPARE(figures.count(), 1);
    QCOMPARE(figures.at(0).at(0).value<DesignFigures>().counts.servers, 4);
}

void tst_DesignAnalyzer::figuresSayWhatTheyMeasure() {
    TopologyDocument document(Catalog::builtin());
    document.load(QString::fromUtf8(kHandDrawn));
    DesignAnalyzer analyzer(document);
    QSignalSpy figures(&analyzer, &DesignAnalyzer::figuresChanged);
    analyzer.refresh();
    QTRY_COMPARE(figures.count(), 1);
    // Teaching sample: each leaf 2 servers x 2 x 400G down, 2 x 400G up; the worst halving
    // puts one leaf on each side: 800 Gb/s of 1,600.
    DesignFigures f = figures.at(0).at(0).value<DesignFigures>();
    QVERIFY(f.oversubscriptionMeasured);
    QCOMPARE(f.oversubscription, 2.0);
    QCOMPARE(f.bisectionRatio, 0.5);
    QVERIFY2(!f.bisectionSplit.isEmpty(), "the percentage must say which halving it is of");

    document.newDesign();
    QTRY_COMPARE(figures.count(), 2);
    f = figures.at(1).at(0).value<DesignFigures>();
    QVERIFY(!f.oversubscriptionMeasured); // not "1:1"
    QVERIFY(f.bisectionSplit.isEmpty());
}

QTEST_MAIN(tst_DesignAnalyzer)
#include "tst_DesignAnalyzer.moc"
