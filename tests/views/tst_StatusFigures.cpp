// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The status bar's figures: "Analysing…" until the first figures arrive (never zeros
// that look like results), "—" where there is nothing to measure, a bisection tooltip
// that says what its percentage is of, and labels that never overlap each other or
// crowd out the status bar's messages. Set FABRICLAB_SCREENSHOTS=DIR to keep a PNG of
// each layout row for review.
#include "views/panels/StatusFigures.hpp"
#include "views/sim/DesignFigures.hpp"

#include <QDir>
#include <QLabel>
#include <QMainWindow>
#include <QRegularExpression>
#include <QStatusBar>
#include <QtTest>

using fabriclab::views::DesignFigures;
using fabriclab::views::StatusFigures;

namespace {

DesignFigures emptyDesign() {
    return DesignFigures{}; // what DesignAnalyzer reports for a new, empty design
}

/// The teaching sample: 4 servers x 8 GPUs, 2 leaves, 1 spine, 2:1.
DesignFigures teaching() {
    DesignFigures f;
    f.counts.gpus = 32;
    f.counts.servers = 4;
    f.counts.switches = {2, 1, 0};
    f.oversubscription = 2;
    f.oversubscriptionMeasured = true;
    f.bisectionGbps = 800;
    f.bisectionRatio = 0.5;
    f.bisectionSplit = QStringLiteral("halves by whole leaf groups");
    f.capexUsd = 171234;
    f.perGpuHourUsd = 0.218;
    return f;
}

/// The widest figures: a 16K-GPU fat-tree with a core tier and problems.
DesignFigures huge() {
    DesignFigures f;
    f.counts.gpus = 16384;
    f.counts.servers = 2048;
    f.counts.switches = {512, 512, 256};
    f.oversubscription = 1.5;
    f.oversubscriptionMeasured = true;
    f.bisectionGbps = 3276800;
    f.bisectionRatio = 0.6667;
    f.bisectionSplit = QStringLiteral("halves by pod");
    f.capexUsd = 123456789;
    f.perGpuHourUsd = 1.234;
    f.problems = 12;
    f.firstProblem = QStringLiteral("spine spine-3: uses 66 ports, radix is 64");
    return f;
}

QLabel* label(const StatusFigures& figures, const char* name) {
    return figures.findChild<QLabel*>(QLatin1String(name));
}

} // namespace

class tst_StatusFigures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void analysingUntilTheFirstFigures();
    void texts_data();
    void texts();
    void labelsNeverOverlap_data();
    void labelsNeverOverlap();
};

void tst_StatusFigures::analysingUntilTheFirstFigures() {
    StatusFigures figures;
    figures.setVisible(true);
    auto* analysing = label(figures, "analysing");
    auto* gpus = label(figures, "gpus");
    QVERIFY(analysing && gpus);
    // Before: one word, and no "0 GPUs" or "Bisection 0" that read like a result.
    QVERIFY(analysing->isVisible());
    QCOMPARE(analysing->text(), QStringLiteral("Analysing…"));
    QVERIFY(!gpus->isVisible());

    figures.show(teaching());
    QVERIFY(!analysing->isVisible());
    QVERIFY(gpus->isVisible());
    QCOMPARE(gpus->text(), QStringLiteral("32 GPUs"));
}

void tst_StatusFigures::texts_data() {
    QTest::addColumn<DesignFigures>("figures");
    QTest::addColumn<QString>("name"); ///< the label's object name
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("tip"); ///< words its tooltip must hold

    QTest::newRow("empty: no ratio, not 1:1") << emptyDesign() << "oversubscription"
                                              << "— oversub."
                                              << "no leaf with uplinks to measure";
    QTest::newRow("empty: no halving") << emptyDesign() << "bisection"
                                       << "Bisection —"
                                       << "fewer than two servers";
    QTest::newRow("teaching: 2:1") << teaching() << "oversubscription"
                                   << "2:1 oversub."
                                   << "worst leaf";
    QTest::newRow("teaching: bisection says of what")
        << teaching() << "bisection"
        << "Bisection 800 Gb/s (50%)"
        << "50% is its percentage of half the servers' injection bandwidth, for the worst "
           "halving: halves by whole leaf groups";
    QTest::newRow("huge: by pod") << huge() << "bisection"
                                  << "Bisection 3,276.8 Tb/s (67%)"
                                  << "for the worst halving: halves by pod";
    DesignFigures planes = teaching();
    planes.counts.switches = {24, 16, 0};
    planes.counts.switchPlanes = 2;
    QTest::newRow("rail planes: counted, and what they mean")
        << planes << "switches"
        << "24 leaf · 16 spine · 2 planes"
        << "traffic between rails of different planes crosses NVLink first";
    QTest::newRow("huge: problems") << huge() << "problems"
                                    << "12 problems"
                                    << "First: spine spine-3: uses 66 ports";
}

void tst_StatusFigures::texts() {
    QFETCH(DesignFigures, figures);
    QFETCH(QString, name);
    QFETCH(QString, text);
    QFETCH(QString, tip);
    StatusFigures status;
    status.show(figures);
    QLabel* shown = label(status, name.toLatin1().constData());
    QVERIFY2(shown, qPrintable(name));
    QCOMPARE(shown->text(), text);
    QVERIFY2(shown->toolTip().contains(tip), qPrintable(shown->toolTip()));
}

void tst_StatusFigures::labelsNeverOverlap_data() {
    QTest::addColumn<DesignFigures>("figures");
    QTest::addColumn<int>("width"); ///< of the window
    QTest::newRow("empty, 1400 px") << emptyDesign() << 1400;
    QTest::newRow("teaching, 1400 px") << teaching() << 1400;
    QTest::newRow("huge with problems, 1400 px") << huge() << 1400;
    QTest::newRow("huge with problems, 700 px") << huge() << 700;
    QTest::newRow("huge with problems, 450 px") << huge() << 450;
}

void tst_StatusFigures::labelsNeverOverlap() {
    QFETCH(DesignFigures, figures);
    QFETCH(int, width);
    // As MainWindow adds it: a permanent widget with stretch 1, beside a message.
    QMainWindow window;
    auto* status = new StatusFigures(&window);
    window.statusBar()->addPermanentWidget(status, 1);
    window.setCentralWidget(new QWidget(&window));
    window.resize(width, 200);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    status->show(figures);
    window.statusBar()->showMessage(QStringLiteral("srv-3 placed: 8 GPUs, 8 × 400 Gb/s NICs"));
    QTRY_VERIFY(status->isVisible());
    QTest::qWait(200); // let the layouts settle on the new texts
    const QPixmap picture = window.statusBar()->grab();
    if (const QByteArray dir = qgetenv("FABRICLAB_SCREENSHOTS"); !dir.isEmpty())
        picture.save(
            QDir(QString::fromLocal8Bit(dir))
                .filePath(QStringLiteral("status-%1.png")
                              .arg(QString::fromLatin1(QTest::currentDataTag())
                                       .replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")),
                                                QStringLiteral("-")))));

    QList<QLabel*> labels;
    for (QLabel* l : status->findChildren<QLabel*>())
        if (l->isVisible())
            labels << l;
    // Whatever gives way in a narrow bar, the GPUs and the bisection stay.
    QVERIFY(label(*status, "gpus")->isVisible());
    QVERIFY(label(*status, "bisection")->isVisible());
    if (width >= 1400)
        QCOMPARE(labels.size(), figures.problems > 0 ? 7 : 5); // room for every figure
    for (QLabel* l : labels) {
        // Never squeezed below its text: a squeezed label paints into its neighbour.
        QVERIFY2(l->width() >= l->sizeHint().width(), qPrintable(l->text()));
        const QRect a(l->mapTo(status, QPoint(0, 0)), l->size());
        for (QLabel* other : labels) {
            if (other == l)
                continue;
            const QRect b(other->mapTo(status, QPoint(0, 0)), other->size());
            QVERIFY2(!a.intersects(b),
                     qPrintable(l->text() + QStringLiteral(" / ") + other->text()));
        }
    }
    // Nothing is cut off at the window's edge.
    QVERIFY(window.statusBar()->rect().contains(
        QRect(status->mapTo(window.statusBar(), QPoint(0, 0)), status->size())));
    // The figures keep their natural width on the right and leave the rest of the bar to
    // messages, instead of stretching over it.
    QVERIFY2(
        status->width() <= status->sizeHint().width(),
        qPrintable(QStringLiteral("%1 > %2").arg(status->width()).arg(status->sizeHint().width())));
    if (width >= 1400)
        QVERIFY2(status->x() > width / 3, qPrintable(QString::number(status->x())));
}

QTEST_MAIN(tst_StatusFigures)
#include "tst_StatusFigures.moc"
