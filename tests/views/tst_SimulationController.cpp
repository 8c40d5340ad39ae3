// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The simulator in the app: results reach the GUI thread with the revision they came
// from and equal what the engine computes for that design; an edit during a run stops
// it and the newer result wins; a stop returns within a bound on a 16K-GPU design.
#include "model/catalog/Catalog.hpp"
#include "model/core/Cancellation.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/panels/DesignRegeneration.hpp"
#include "views/sim/EnginePool.hpp"
#include "views/sim/ScalingRunner.hpp"
#include "views/sim/SharedBisection.hpp"
#include "views/sim/SimulationController.hpp"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include <atomic>

using fabriclab::model::Catalog;
using fabriclab::views::DesignRegeneration;
using fabriclab::views::RunResultPtr;
using fabriclab::views::SimulationController;
using fabriclab::views::TopologyDocument;
using State = SimulationController::State;

namespace {

QString sample(const char* name) {
    return QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/%1.fabric.json").arg(QLatin1String(name));
}

void open(TopologyDocument& document, const char* name) {
    document.adopt(fabriclab::model::loadDesign(sample(name).toStdString(), Catalog::builtin()),
                   sample(name));
}

/// What the engine itself says about the document's design, as the CLI would print it.
nlohmann::ordered_json engineReport(const TopologyDocument& document) {
    fabriclab::model::RunOptions options;
    options.detail = true;
    return fabriclab::model::reportToJson(
        fabriclab::model::runDesign(document.design(), document.catalog(), options));
}

} // namespace

class tst_SimulationController : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resultCarriesItsRevision_data();
    void resultCarriesItsRevision();
    void editMakesTheResultStale();
    void editDuringARunCancelsItAndTheNewerWins();
    void stopReturnsWithinTheBound();
    void manualModeWaitsForRun();
    void refusalIsAResultNotACrash();
    void scalingStudyFollowsTheCurrentResult();
    void snapshotAndBisectionAreSharedUntilAnEdit();
    void stoppedRunDoesNotWaitForTheSharedBisection();
    void rebuiltFabricRunsOnTheWorkersCopy();
    void aResultLetGoOnTheGuiThreadIsFreedOnAnEngineThread();
};

void tst_SimulationController::resultCarriesItsRevision_data() {
    QTest::addColumn<QString>("design");
    QTest::addRow("4 servers, hand-drawn") << QStringLiteral("teaching-4-servers");
    QTest::addRow("512 GPUs, RoCE 2:1, MoE") << QStringLiteral("roce-v2-moe-2to1");
    QTest::addRow("1,024 GPUs, Spectrum-X") << QStringLiteral("spectrum-x-1024gpu-rail");
}

void tst_SimulationController::resultCarriesItsRevision() {
    QFETCH(QString, design);
    TopologyDocument document(Catalog::builtin());
    open(document, design.toUtf8().constData());
    SimulationController controller(document);
    QSignalSpy results(&controller, &SimulationController::resultReady);
    QTRY_COMPARE_WITH_TIMEOUT(results.size(), 1, 60000);
    const auto result = results.front().front().value<RunResultPtr>();
    QCOMPARE(result->revision, controller.revision());
    QCOMPARE(controller.state(), State::Current);
    QVERIFY2(result->ok(), qPrintable(result->error));
    // The worker ran the very pipeline the CLI runs: same numbers, digit for digit.
    QCOMPARE(QString::fromStdString(fabriclab::model::reportToJson(result->report).dump()),
             QString::fromStdString(engineReport(document).dump()));
    QVERIFY(!result->report.busBwCurve.empty());
    QVERIFY(result->report.playback.has_value());
}

void tst_SimulationController::editMakesTheResultStale() {
    TopologyDocument document(Catalog::builtin());
    open(document, "teaching-4-servers");
    SimulationController controller(document);
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Current, 30000);
    const auto before = controller.revision();
    document.replaceDesign(*DesignRegeneration::withFabric(
                                document.design(), *document.catalog().findFabric("roce-v2"))
                                .design,
                           QStringLiteral("fabric"));
    // At once, before any run: what is shown is no longer the design's.
    QCOMPARE(controller.state(), State::Stale);
    QVERIFY(controller.revision() > before);
    QVERIFY(controller.result()->revision < controller.revision());
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Current, 30000);
    QCOMPARE(controller.result()->report.fabric.id, std::string("roce-v2"));
}

void tst_SimulationController::editDuringARunCancelsItAndTheNewerWins() {
    // 16,384 GPUs run long enough (hundreds of ms) for the edit to land mid-run.
    TopologyDocument document(Catalog::builtin());
    open(document, "fat-tree-16k-ib-ndr");
    SimulationController controller(document);
    QSignalSpy results(&controller, &SimulationController::resultReady);
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Running, 5000);
    const auto stale = controller.revision();
    document.replaceDesign(*DesignRegeneration::withFabric(
                                document.design(), *document.catalog().findFabric("roce-v2"))
                                .design,
                           QStringLiteral("fabric"));
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Current, 120000);
    // Only the newer revision's result was shown; the older run's never was.
    for (const auto& arguments : results)
        QVERIFY(arguments.front().value<RunResultPtr>()->revision > stale);
    QCOMPARE(controller.result()->report.fabric.id, std::string("roce-v2"));
}

void tst_SimulationController::stopReturnsWithinTheBound() {
    // A bound, not a benchmark: the product target is 100 ms from Esc to an idle worker
    // on a 16K-GPU design; 400 ms leaves room for a loaded 2-core CI machine. Unoptimised
    // sanitizer builds run the engine about ten times slower, and the shared bisection
    // the status bar still wants keeps computing beside the stopping threads: 1.5 s
    // there, as tst_Cancellation allows.
#ifdef NDEBUG
    constexpr qint64 kBoundMs = 400;
#else
    constexpr qint64 kBoundMs = 1500;
#endif
    TopologyDocument document(Catalog::builtin());
    open(document, "fat-tree-16k-ib-ndr");
    SimulationController controller(document);
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Running, 5000);
    // Into routing and solving: the app's run of this design (with playback, the
    // message-size curve and the other routing) takes a few hundred milliseconds.
    QTest::qWait(50);
    QVERIFY(controller.isRunning());
    QElapsedTimer clock;
    clock.start();
    controller.cancel();
    QCOMPARE(controller.state(), State::Cancelled);
    QTRY_VERIFY_WITH_TIMEOUT(!controller.isRunning(), 5000);
    qInfo("Esc to an idle worker: %lld ms (bound %lld ms)", static_cast<long long>(clock.elapsed()),
          static_cast<long long>(kBoundMs));
    QVERIFY2(clock.elapsed() <= kBoundMs, qPrintable(QString::number(clock.elapsed()) + " ms"));
    QVERIFY(!controller.result()); // nothing stale was passed off as a result
}

void tst_SimulationController::manualModeWaitsForRun() {
    TopologyDocument document(Catalog::builtin());
    open(document, "teaching-4-servers");
    SimulationController controller(document);
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Current, 30000);
    controller.setLive(false);
    document.replaceDesign(
        *DesignRegeneration::withFabric(document.design(), *document.catalog().findFabric("efa"))
             .design,
        QStringLiteral("fabric"));
    QTest::qWait(SimulationController::kDebounceMs * 3);
    QCOMPARE(controller.state(), State::Stale); // nothing ran by itself
    controller.run();
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Current, 30000);
    QCOMPARE(controller.result()->report.fabric.id, std::string("efa"));
}

void tst_SimulationController::refusalIsAResultNotACrash() {
    // An empty design has no servers: the engine refuses with a sentence, shown as such.
    TopologyDocument document(Catalog::builtin());
    SimulationController controller(document);
    QTRY_COMPARE_WITH_TIMEOUT(controller.state(), State::Failed, 30000);
    QVERIFY(!controller.result()->ok());
    QVERIFY(controller.result()->error.contains(QStringLiteral("no servers")));
}

void tst_SimulationController::scalingStudyFollowsTheCurrentResult() {
    TopologyDocument document(Catalog::builtin());
    open(document, "spectrum-x-1024gpu-rail");
    SimulationController controller(document);
    fabriclab::views::ScalingRunner scaling(document, controller);
    QSignalSpy studies(&scaling, &fabriclab::views::ScalingRunner::studyReady);
    QTRY_COMPARE_WITH_TIMEOUT(studies.size(), 1, 60000);
    const auto study = studies.front().front().value<fabriclab::views::ScalingStudyPtr>();
    // The same study the engine makes for this design, started only once it was current.
    const auto expected = fabriclab::model::scalingStudy(document.design(), document.catalog());
    QCOMPARE(study->points.size(), expected.points.size());
    QCOMPARE(study->fabricIds, expected.fabricIds);
    QCOMPARE(study->points.back().stepSeconds, expected.points.back().stepSeconds);
    // An edit stops the study in flight; the next one is for the new design.
    document.replaceDesign(
        *DesignRegeneration::withFabric(document.design(), *document.catalog().findFabric("efa"))
             .design,
        QStringLiteral("fabric"));
    QTRY_COMPARE_WITH_TIMEOUT(studies.size(), 2, 60000);
    QCOMPARE(studies.back().front().value<fabriclab::views::ScalingStudyPtr>()->fabricIds.front(),
             std::string("efa"));
}

void tst_SimulationController::snapshotAndBisectionAreSharedUntilAnEdit() {
    // The simulation and the status bar read one copy of the design and one theoretical
    // bisection per edit: asked twice, the document and the share hand out the same; an
    // edit makes new ones and leaves the old snapshot as it was.
    TopologyDocument document(Catalog::builtin());
    open(document, "teaching-4-servers");
    const auto before = document.snapshot();
    QCOMPARE(document.snapshot().get(), before.get());
    auto& share = fabriclab::views::SharedBisection::of(document);
    QCOMPARE(&fabriclab::views::SharedBisection::of(document), &share);
    const auto first = share.current();
    share.current();
    QCOMPARE(share.started(), 1);
    const auto expected = fabriclab::model::theoreticalBisection(document.topology());
    QCOMPARE(fabriclab::views::SharedBisection::await(first).minCut.value, expected.minCut.value);

    const std::size_t nodes = before->topology.nodes().size();
    document.addNode(fabriclab::model::NodeKind::Leaf, QPointF(0, 0));
    const auto after = document.snapshot();
    QVERIFY(after.get() != before.get());
    QCOMPARE(before->topology.nodes().size(), nodes);
    QCOMPARE(after->topology.nodes().size(), nodes + 1);
    share.current();
    QCOMPARE(share.started(), 2);
}

void tst_SimulationController::stoppedRunDoesNotWaitForTheSharedBisection() {
    // The status bar still wants the bisection a stopped run was waiting for, so it goes
    // on; the run must not wait for it. On the 16K sample it is a max-flow of ~0.1 s
    // in Release (ten times that under the sanitizers): a stopped waiter returns at once.
    TopologyDocument document(Catalog::builtin());
    open(document, "fat-tree-16k-ib-ndr");
    auto& share = fabriclab::views::SharedBisection::of(document);
    const auto future = share.current();
    std::stop_source stop;
    stop.request_stop();
    QElapsedTimer clock;
    clock.start();
    QVERIFY_THROWS_EXCEPTION(fabriclab::model::Cancelled,
                             fabriclab::views::SharedBisection::await(future, stop.get_token()));
    QVERIFY2(clock.elapsed() < 50, qPrintable(QString::number(clock.elapsed()) + " ms"));
    // Unstopped, the same future gives the design's bisection.
    QVERIFY(fabriclab::views::SharedBisection::await(future).minCut.value > 0);
}

void tst_SimulationController::rebuiltFabricRunsOnTheWorkersCopy() {
    // A slider release on the 16K sample, applied as the document's builds are: the fabric
    // is regenerated on a worker, which also copies it for the engine, and the GUI thread
    // only swaps it in. The run and its shared bisection read that copy: the GUI thread
    // neither generates the fabric nor copies it.
    TopologyDocument document(Catalog::builtin());
    open(document, "fat-tree-16k-ib-ndr");
    SimulationController controller(document);
    QSignalSpy results(&controller, &SimulationController::resultReady);
    QTRY_COMPARE_WITH_TIMEOUT(results.size(), 1, 120000);
    controller.setLive(true); // a slow first run (sanitizers) turns it off
    const int copies = document.snapshotsMade();
    std::atomic<QThread*> builtOn{nullptr};
    document.replaceDesignLater(
        [&builtOn](const fabriclab::model::Design& current) {
            builtOn = QThread::currentThread();
            return *DesignRegeneration::withOversubscription(current, 2.0).design;
        },
        QStringLiteral("Oversubscription 2:1"));
    QCOMPARE(document.pendingBuilds(), 1); // returned at once: nothing generated here
    QTRY_COMPARE_WITH_TIMEOUT(results.size(), 2, 120000);
    const auto result = results.back().front().value<RunResultPtr>();
    QVERIFY(result->ok());
    QCOMPARE(result->revision, controller.revision());
    QCOMPARE(document.design().generator->oversubscription, 2.0);
    QVERIFY(builtOn.load() != nullptr);
    QVERIFY(builtOn.load() != QThread::currentThread());
    QCOMPARE(result->design.get(), document.snapshot().get());
    QCOMPARE(document.snapshotsMade(), copies);
}

void tst_SimulationController::aResultLetGoOnTheGuiThreadIsFreedOnAnEngineThread() {
    // Freeing a 16K-GPU result cost the GUI thread milliseconds at every new result.
    struct Witness {
        std::atomic<QThread*>* freedOn;
        ~Witness() { freedOn->store(QThread::currentThread()); }
    };
    std::atomic<QThread*> freedOn{nullptr};
    {
        auto shared = fabriclab::views::shareFreedOffGuiThread(
            std::unique_ptr<Witness>(new Witness{&freedOn}));
        QVERIFY(shared);
    }
    QVERIFY(fabriclab::views::enginePool().waitForDone(5000));
    QVERIFY(freedOn.load() != nullptr);
    QVERIFY(freedOn.load() != QThread::currentThread());

    // Off the GUI thread there is nothing to spare: freed where the last owner lets go.
    std::atomic<QThread*> workerFreedOn{nullptr};
    QThread* worker = nullptr;
    fabriclab::views::enginePool().start([&] {
        worker = QThread::currentThread();
        auto shared = fabriclab::views::shareFreedOffGuiThread(
            std::unique_ptr<Witness>(new Witness{&workerFreedOn}));
    });
    QVERIFY(fabriclab::views::enginePool().waitForDone(5000));
    QCOMPARE(workerFreedOn.load(), worker);
}

QTEST_MAIN(tst_SimulationController)
#include "tst_SimulationController.moc"
