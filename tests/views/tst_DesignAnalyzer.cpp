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
    void anEditOvertakingAnAnalysisIsDropped_data();
    void anEditOvertakingAnAnalysisIsDropped();
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

void tst_DesignAnalyzer::anEditOvertakingAnAnalysisIsDropped_data() {
    QTest::addColumn<bool>("destroyAtOnce");
    QTest::newRow("figures follow") << false;
    QTest::newRow("window closed at once") << true;
}

void tst_DesignAnalyzer::anEditOvertakingAnAnalysisIsDropped() {
    // The 16K-GPU sample's bisection takes about 100 ms of max-flow; an edit made while the
    // analysis waits on it stops it. That analysis is dropped, and the figures shown are the
    // edited design's. Its Cancelled used to leave the worker as an exception, which the
    // destructor's wait rethrew: closing the window aborted the app (tst_Presentation under
    // ASan with two busy processes beside it, 2 runs in 8). Timing decides whether an edit
    // lands mid-analysis here, so this walks many edits at several delays.
    QFETCH(bool, destroyAtOnce);
    TopologyDocument document(Catalog::builtin());
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/fat-tree-16k-ib-ndr.fabric.json"));
    auto analyzer = std::make_unique<DesignAnalyzer>(document);
    QSignalSpy figures(analyzer.get(), &DesignAnalyzer::figuresChanged);
    for (int edit = 0; edit < 12; ++edit) {
        analyzer->refresh();
        QTest::qWait(2 + 9 * (edit % 4)); // the worker is on, or waiting on, the bisection
        document.load(QString::fromUtf8(edit % 2 ? kHandDrawn
                                                 : FABRICLAB_SOURCE_DIR
                                            "/samples/fat-tree-16k-ib-ndr.fabric.json"));
    }
    document.load(QString::fromUtf8(kHandDrawn));
    analyzer->refresh();
    if (destroyAtOnce) {
        analyzer.reset(); // must not throw out of the destructor
        return;
    }
    QTRY_VERIFY_WITH_TIMEOUT(!figures.isEmpty() &&
                                 figures.last().at(0).value<DesignFigures>().counts.servers == 4,
                             20000);
}

QTEST_MAIN(tst_DesignAnalyzer)
#include "tst_DesignAnalyzer.moc"
