// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Smoke test of the window users get: every sample opens, the window is grabbed to a PNG
// (kept under the build folder for people to look at) and must show a drawing, not a
// blank canvas. Runs offscreen.
#include "app/gui/FileActions.hpp"
#include "app/gui/MainWindow.hpp"
#include "model/catalog/Catalog.hpp"
#include "views/canvas/CanvasTool.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/dialogs/AccuracyDialog.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QSet>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::views::TopologyDocument;

namespace {

/// Distinct colours in the image, sampled on a grid: a blank canvas has one or two.
int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

} // namespace

class tst_MainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { Q_INIT_RESOURCE(fabriclab); }
    void everySampleOpensAndDraws_data();
    void everySampleOpensAndDraws();
    void titleCarriesFileAndModifiedMarker();
    void helpOpensOneModelAccuracyWindow();
    void viewStaysPutOnceTheUserWorks();
};

void tst_MainWindow::viewStaysPutOnceTheUserWorks() {
    // A dock growing (the inspector filling up after a click) resizes the canvas; the
    // view must keep its scale and centre then, or the next click lands somewhere else.
    TopologyDocument document(Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* canvas = window.canvas();
    canvas->setTool(fabriclab::views::CanvasTool::Leaf);
    QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, QPoint(200, 200));
    QCOMPARE(document.topology().nodes().size(), std::size_t{1});
    const QTransform before = canvas->transform();
    const QPointF centre = canvas->mapToScene(canvas->viewport()->rect().center());
    canvas->resize(canvas->width() - 150, canvas->height());
    QCOMPARE(canvas->transform(), before);
    QVERIFY((canvas->mapToScene(canvas->viewport()->rect().center()) - centre).manhattanLength() <
            200);
}

void tst_MainWindow::everySampleOpensAndDraws_data() {
    QTest::addColumn<QString>("path");
    const QDir samples(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples"));
    const auto files =
        samples.entryList({QStringLiteral("*.fabric.json")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 8);
    for (const QString& file : files)
        QTest::newRow(qPrintable(file)) << samples.filePath(file);
}

void tst_MainWindow::everySampleOpensAndDraws() {
    QFETCH(QString, path);
    TopologyDocument document(Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QElapsedTimer clock;
    clock.start();
    document.load(path);
    window.canvas()->fitAll();
    const QImage canvas = window.canvas()->grab().toImage();
    const qint64 openMs = clock.elapsed();
    qInfo("%s: opened and drawn in %lld ms", qPrintable(QFileInfo(path).fileName()), openMs);

    const QString shots = QDir::current().filePath(QStringLiteral("screenshots"));
    QDir().mkpath(shots);
    window.grab().save(shots + QLatin1Char('/') + QFileInfo(path).completeBaseName() +
                       QStringLiteral(".png"));
    QVERIFY2(distinctColours(canvas) > 8, "the canvas is blank");
    QVERIFY(!document.isModified());
}

void tst_MainWindow::titleCarriesFileAndModifiedMarker() {
    TopologyDocument document(Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json"));
    QVERIFY(window.windowTitle().contains(QStringLiteral("teaching-4-servers.fabric.json")));
    QVERIFY(!window.isWindowModified());
    document.addNode(fabriclab::model::NodeKind::Spine, QPointF(0, -200));
    QVERIFY(window.isWindowModified());
    document.undoStack()->undo();
    QVERIFY(!window.isWindowModified());
}

void tst_MainWindow::helpOpensOneModelAccuracyWindow() {
    // Help > Model accuracy opens the figures beside the design; asked again, it brings the
    // same window forward rather than running every figure a second time.
    TopologyDocument document(Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    auto* action = window.findChild<QAction*>(QStringLiteral("modelAccuracy"));
    QVERIFY(action);
    action->trigger();
    auto* dialog = window.findChild<fabriclab::views::AccuracyDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QVERIFY(!dialog->isModal());
    action->trigger();
    QCOMPARE(window.findChildren<fabriclab::views::AccuracyDialog*>().size(), 1);
}

QTEST_MAIN(tst_MainWindow)
#include "tst_MainWindow.moc"
