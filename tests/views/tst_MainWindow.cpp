// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Smoke test of the window users get: every sample opens, the window is grabbed to a PNG
// (kept under the build folder for people to look at) and must show a drawing, not a
// blank canvas. The window fits a laptop's and a projector's screen, and a first start
// shows the welcome page. Runs offscreen.
#include "app/gui/FileActions.hpp"
#include "app/gui/MainWindow.hpp"
#include "app/gui/SimulationActions.hpp"
#include "app/gui/WelcomePage.hpp"
#include "model/catalog/Catalog.hpp"
#include "support/LayoutChecks.hpp"
#include "views/canvas/CanvasTool.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/dialogs/AccuracyDialog.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/present/PresentationMode.hpp"
#include "views/sim/CompareController.hpp"
#include "views/sim/ComparePanel.hpp"
#include "views/sim/ResultsDashboard.hpp"
#include "views/sim/SimulationController.hpp"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QMap>
#include <QPushButton>
#include <QScreen>
#include <QSet>
#include <QSplitter>
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
    void fitsSmallScreens_data();
    void fitsSmallScreens();
    void firstStartWelcomes();
    void refusalSaysItOnce();
};

namespace {

/// The docks shown, by name, with where they are.
QMap<QString, QRect> dockGeometries(const QMainWindow& window) {
    QMap<QString, QRect> shown;
    for (const QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->isVisible() && !fabriclab::testing::parkedDock(dock))
            shown.insert(dock->objectName(), dock->geometry());
    return shown;
}

QList<QList<int>> splitterSizes(const QMainWindow& window) {
    QList<QList<int>> sizes;
    for (const QSplitter* splitter : window.findChildren<QSplitter*>())
        sizes << splitter->sizes();
    return sizes;
}

} // namespace

void tst_MainWindow::fitsSmallScreens_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("laptop 1366x768") << QSize(1366, 768);
    QTest::newRow("projector 1280x720") << QSize(1280, 720);
}

void tst_MainWindow::fitsSmallScreens() {
    // A sales engineer's laptop or a projector: the window keeps the size it was given
    // while every dock fills (results, the inspector, a comparison), no dock or panel is
    // drawn over another or cut, and presentation mode then Esc gives back the window,
    // its docks and splitters and the canvas's zoom exactly.
    QFETCH(QSize, size);
    TopologyDocument document(Catalog::builtin());
    document.load(
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-spine-down.fabric.json"));
    fabriclab::app::MainWindow window(document);
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.size(), size);

    // Fill the docks: results, a selection in the inspector, the comparison of fabrics.
    auto& controller = window.simulation()->controller();
    controller.run();
    QTRY_VERIFY_WITH_TIMEOUT(
        controller.result() && controller.result()->revision == controller.revision(), 120000);
    QVERIFY2(controller.result()->ok(), qPrintable(controller.result()->error));
    window.dashboard()->finishChartUpdates();
    const auto& nodes = document.topology().nodes();
    QVERIFY(!nodes.empty());
    window.canvas()->topologyScene().selectElements({nodes.begin()->first}, {});
    QSignalSpy compared(window.comparisons(), &fabriclab::views::CompareController::finished);
    window.comparePanel()->compareAction()->trigger();
    QVERIFY(compared.wait(120000));
    QTest::qWait(50); // let the layouts the new contents asked for run
    QCOMPARE(window.size(), size);
    QVERIFY(fabriclab::testing::fits(&window));

    // The compare dock, tabbed with the results, fits as well when raised.
    auto* compareDock = window.findChild<QDockWidget*>(QStringLiteral("CompareDock"));
    QVERIFY(compareDock);
    compareDock->raise();
    QTRY_VERIFY(compareDock->isVisible());
    QCOMPARE(window.size(), size);
    QVERIFY(fabriclab::testing::fits(&window));

    // Presentation mode and back: the zoom is the user's (not a fit), and all returns.
    window.canvas()->zoomIn();
    const QRect geometry = window.geometry();
    const QTransform zoom = window.canvas()->transform();
    const QPointF centre =
        window.canvas()->mapToScene(window.canvas()->viewport()->rect().center());
    const auto docks = dockGeometries(window);
    const auto splitters = splitterSizes(window);
    QTest::keyClick(&window, Qt::Key_F11);
    auto* presentation = window.presentation();
    QVERIFY(presentation->isActive());
    // Full screen, and no larger than the screen (the offscreen one is 800 wide: what fits
    // a projector of each size is tst_Presentation's to check, in a window that size).
    QTRY_COMPARE(window.size(), window.screen()->geometry().size());
    QTest::keyClick(&window, Qt::Key_Escape);
    QTRY_VERIFY(!presentation->isActive());
    QTRY_COMPARE(window.geometry(), geometry);
    QCOMPARE(window.size(), size);
    QCOMPARE(window.canvas()->transform(), zoom);
    // The same point of the design in the middle of the view, to the pixel.
    QTRY_VERIFY2(
        (window.canvas()->mapFromScene(centre) - window.canvas()->viewport()->rect().center())
                .manhattanLength() <= 2,
        "the canvas's centre moved");
    QTRY_COMPARE(dockGeometries(window), docks);
    QCOMPARE(splitterSizes(window), splitters);
    QVERIFY(fabriclab::testing::fits(&window));
}

void tst_MainWindow::firstStartWelcomes() {
    // No design given and none to recover: the welcome page says what FabricLab does and
    // where to start, instead of charts that say an empty design has no results.
    TopologyDocument document(Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto docks = dockGeometries(window);
    QVERIFY(!docks.isEmpty());
    window.showWelcome();
    QVERIFY(window.isWelcomeShown());
    QVERIFY(window.welcome()->isVisible());
    QVERIFY(!window.canvas()->isVisible());
    QVERIFY(!window.dashboard()->isVisible());
    for (const QDockWidget* dock : window.findChildren<QDockWidget*>())
        QVERIFY2(!dock->isVisible(), qPrintable(dock->objectName()));
    for (const QString& button : {QStringLiteral("welcomeGenerate"), QStringLiteral("welcomeOpen"),
                                  QStringLiteral("welcomeEmpty")})
        QVERIFY2(window.welcome()->findChild<QPushButton*>(button), qPrintable(button));
    const QString sample = QStringLiteral("sample:workshop-16gpu-leaf-spine.fabric.json");
    QVERIFY(window.welcome()->findChild<QLabel*>(sample));
    QCOMPARE(window.size(), QSize(1280, 720));
    QVERIFY(fabriclab::testing::fits(&window));

    // An empty canvas, asked for: the docks come back as they were.
    QTest::mouseClick(window.welcome()->findChild<QPushButton*>(QStringLiteral("welcomeEmpty")),
                      Qt::LeftButton);
    QVERIFY(!window.isWelcomeShown());
    QVERIFY(window.canvas()->isVisible());
    QCOMPARE(dockGeometries(window).keys(), docks.keys());

    // A sample link asks to open it (FileActions opens it); a design opened by any way
    // ends the welcome page.
    window.showWelcome();
    QSignalSpy asked(window.welcome(), &fabriclab::app::WelcomePage::sampleRequested);
    auto* link = window.welcome()->findChild<QLabel*>(sample);
    const QString href = link->text().section(QLatin1Char('"'), 1, 1);
    Q_EMIT link->linkActivated(href);
    QCOMPARE(asked.size(), 1);
    document.load(asked.front().front().toString());
    QVERIFY(!window.isWelcomeShown());
    QVERIFY(window.dashboard()->isVisible());
}

void tst_MainWindow::refusalSaysItOnce() {
    // The engine's refusal already starts "cannot evaluate this design": shown once, as a
    // sentence, not behind a second copy of the same words.
    TopologyDocument document(Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    auto& controller = window.simulation()->controller();
    controller.run();
    QTRY_VERIFY_WITH_TIMEOUT(controller.result(), 60000);
    QVERIFY(!controller.result()->ok());
    window.dashboard()->finishChartUpdates();
    bool said = false;
    for (const QLabel* label : window.dashboard()->findChildren<QLabel*>()) {
        const QString text = label->text();
        QVERIFY2(text.count(QStringLiteral("evaluate this design"), Qt::CaseInsensitive) <= 1,
                 qPrintable(text));
        said = said || text.startsWith(QStringLiteral("Cannot evaluate this design: it has no "
                                                      "servers"));
    }
    QVERIFY(said);
}

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
