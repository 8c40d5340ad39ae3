// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// fabriclab-gui-bench DESIGN [--edits N] [--background-load N] [--edit-on-gui-thread]
//                     [--trace-slow MS] [--json]:
// opens DESIGN in the real main window (offscreen unless a platform is set), waits for its first
// results, then makes N edits as a user would, alternating the leaf oversubscription (1:1 <-> 2:1)
// and the fabric (the design's <-> a second one, --fabric or one that routes alike), each
// regenerated off the GUI thread and applied as one undo step through the document
// (TopologyDocument::replaceDesignLater; --edit-on-gui-thread regenerates on the GUI thread and
// applies with replaceDesign instead), and times each edit, from the request, until the results
// of that very revision are shown. A fine timer measures the longest time the GUI thread stayed
// away from its event loop during the edits (guiStallMsMax); --background-load N keeps N other
// processes busy on the cores meanwhile. Panning is timed afterwards, on its own and unloaded
// (pan* keys, expandAllMs). --trace-slow MS lists the events the GUI thread took longer than MS
// over during the edits, receiver and owning panel named: the profile behind a stall; with it,
// longestStalls lists the six longest stalls with those of them that ran during each.
#include "app/ProcessMemory.hpp"
#include "app/gui/MainWindow.hpp"
#include "app/gui/SimulationActions.hpp"
#include "app/gui/Theme.hpp"
#include "bench/gui/BackgroundLoad.hpp"
#include "bench/gui/EventTrace.hpp"
#include "bench/gui/PanTiming.hpp"
#include "bench/gui/StallMonitor.hpp"
#include "model/catalog/Catalog.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/panels/DesignRegeneration.hpp"
#include "views/sim/ResultsDashboard.hpp"
#include "views/sim/SimulationController.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

namespace {

using fabriclab::views::DesignRegeneration;
using fabriclab::views::SimulationController;
using fabriclab::views::TopologyDocument;

/// Pause between one edit's results and the next edit, as a user looks at them.
constexpr int kLookMs = 250;
constexpr int kTimeoutMs = 600'000;
/// Frames painted while panning: three sweeps each way.
constexpr int kPanFrames = 120;

struct Bench {
    Bench(fabriclab::views::TopologyDocument& d, SimulationController& c, int n, std::string other,
          fabriclab::bench::BackgroundLoad& l, bool onGuiThread)
        : document(d), controller(c), load(l), edits(n), editOnGuiThread(onGuiThread),
          firstFabric(d.design().fabric.spec.id), secondFabric(std::move(other)) {}

    fabriclab::views::TopologyDocument& document;
    SimulationController& controller;
    fabriclab::bench::BackgroundLoad& load;
    fabriclab::bench::StallMonitor stalls;
    int edits = 0;
    bool editOnGuiThread = false;
    int done = 0;
    std::string firstFabric;
    std::string secondFabric;
    QElapsedTimer clock;
    std::vector<double> editToResultsMs;
    QString refusal;

    /// The next edit as a user makes it: even ones the slider, odd ones the fabric picker,
    /// as the design those make (the generator's refusal thrown).
    TopologyDocument::DesignBuild nextEdit() const {
        const auto accepted = [](DesignRegeneration regenerated) {
            if (!regenerated.accepted())
                throw std::invalid_argument(regenerated.refusal.toStdString());
            return std::move(*regenerated.design);
        };
        const auto& design = document.design();
        if (done % 2 == 0 && design.generator) {
            const double ratio = design.generator->oversubscription > 1.5 ? 1.0 : 2.0;
            return [accepted, ratio](const fabriclab::model::Design& current) {
                return accepted(DesignRegeneration::withOversubscription(current, ratio));
            };
        }
        const std::string& next = design.fabric.spec.id == firstFabric ? secondFabric : firstFabric;
        const fabriclab::model::Fabric* fabric = document.catalog().findFabric(next);
        return [accepted, fabric](const fabriclab::model::Design& current) {
            return accepted(DesignRegeneration::withFabric(current, *fabric));
        };
    }

    /// The user lets go of the slider or picks the fabric: from here until the results of
    /// the new design are shown. The fabric is regenerated off the GUI thread and swapped
    /// in as one undo step (designReplaced follows), or, with --edit-on-gui-thread, on the
    /// GUI thread and applied with replaceDesign, as the fabric panel still does.
    void edit() {
        clock.start();
        if (!editOnGuiThread) {
            document.replaceDesignLater(nextEdit(), QStringLiteral("bench edit"));
            return;
        }
        try {
            document.replaceDesign(nextEdit()(document.design()), QStringLiteral("bench edit"));
        } catch (const std::exception& e) {
            refused(QString::fromStdString(e.what()));
        }
    }

    /// Every change of the document, seen after the controller has seen it.
    void designReplaced() {
        // A design that takes over a second turns live updates off; the user presses F5.
        if (clock.isValid() && !controller.isLive())
            controller.run();
    }

    void refused(const QString& why) {
        refusal = why;
        QCoreApplication::exit(2);
    }

    /// Called when the dashboard's charts all show a result: the edit is done when the
    /// charts of its revision are drawn, not when the engine hands its result over.
    void resultShown() {
        const auto& result = controller.result();
        if (!result || result->revision != controller.revision() || !clock.isValid())
            return;
        editToResultsMs.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
        clock.invalidate();
        if (++done == edits)
            QTimer::singleShot(kLookMs, qApp, [this] {
                // The edits end here: what follows (panning) is timed on its own, unloaded.
                stalls.stop();
                static_cast<fabriclab::bench::TracingApplication*>(qApp)->stopTracing();
                load.stop();
                QCoreApplication::exit(0);
            });
        else
            QTimer::singleShot(kLookMs, qApp, [this] { edit(); });
    }
};

/// A user comparing like with like: the next fabric in the catalog's list that routes as
/// the design's does (adaptive with adaptive, ECMP with ECMP).
std::string alternativeFabric(const fabriclab::model::Fabric& current,
                              const fabriclab::model::Catalog& catalog) {
    for (const char* id : {"ib-ndr", "spectrum-x", "ib-xdr", "roce-v2", "efa", "ethernet-tcp"})
        if (const auto* fabric = catalog.findFabric(id);
            fabric && fabric->id != current.id && fabric->routing == current.routing)
            return fabric->id;
    return current.id == "roce-v2" ? "ib-ndr" : "roce-v2";
}

double median(std::vector<double> values) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

} // namespace

int main(int argc, char** argv) {
    // Measure with the memory behaviour the products run with.
    fabriclab::app::returnLargeBlocksToTheSystem();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    Q_INIT_RESOURCE(fabriclab);
    fabriclab::bench::TracingApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("FabricLab-bench"));
    fabriclab::app::applyTheme(fabriclab::app::savedTheme()); // the style users get
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Times FabricLab from an edit to its results, as a user sees them."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("design"), QStringLiteral("A *.fabric.json."));
    parser.addOption({QStringLiteral("edits"), QStringLiteral("Edits to make (default 10)."),
                      QStringLiteral("n"), QStringLiteral("10")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON object.")});
    parser.addOption({QStringLiteral("background-load"),
                      QStringLiteral("Busy processes to run beside the app during the edits, "
                                     "each keeping a core busy (default 0)."),
                      QStringLiteral("n"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("edit-on-gui-thread"),
                      QStringLiteral("Regenerate each edit's fabric on the GUI thread and apply it "
                                     "with replaceDesign, as the fabric panel does, instead of "
                                     "replaceDesignLater.")});
    parser.addOption({QStringLiteral("fabric"),
                      QStringLiteral("The fabric the odd edits switch to (default: another "
                                     "fabric with the same routing as the design's)."),
                      QStringLiteral("id")});
    parser.addOption({QStringLiteral("trace-slow"),
                      QStringLiteral("List the events the GUI thread spent longer than ms on "
                                     "during the edits (slowEvents), slowest first."),
                      QStringLiteral("ms")});
    parser.process(app);
    bool ok = false;
    const int edits = parser.value(QStringLiteral("edits")).toInt(&ok);
    if (parser.positionalArguments().size() != 1 || !ok || edits < 1) {
        std::fprintf(stderr, "fabriclab-gui-bench: need one DESIGN and --edits >= 1\n");
        return 2;
    }
    const int busy = parser.value(QStringLiteral("background-load")).toInt(&ok);
    if (!ok || busy < 0) {
        std::fprintf(stderr, "fabriclab-gui-bench: --background-load needs a count >= 0\n");
        return 2;
    }
    // Forked now, while the bench is small; they spin only during the edits, and die with
    // this object on every way out of main (and with the bench, should it crash).
    std::unique_ptr<fabriclab::bench::BackgroundLoad> load;
    try {
        load = std::make_unique<fabriclab::bench::BackgroundLoad>(busy);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fabriclab-gui-bench: cannot start the background load: %s\n",
                     e.what());
        return 2;
    }

    fabriclab::views::TopologyDocument document(fabriclab::model::Catalog::builtin());
    try {
        document.load(parser.positionalArguments().front());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fabriclab-gui-bench: %s\n", e.what());
        return 2;
    }
    fabriclab::app::MainWindow window(document);
    window.resize(1600, 1000);
    window.show();
    auto& controller = window.simulation()->controller();
    controller.setLive(true);
    std::string other = parser.value(QStringLiteral("fabric")).toStdString();
    if (other.empty())
        other = alternativeFabric(document.design().fabric.spec, document.catalog());
    if (!document.catalog().findFabric(other)) {
        std::fprintf(stderr, "fabriclab-gui-bench: unknown fabric \"%s\"\n", other.c_str());
        return 2;
    }
    const bool onGuiThread = parser.isSet(QStringLiteral("edit-on-gui-thread"));
    const bool tracing = parser.isSet(QStringLiteral("trace-slow"));
    const double traceMs = parser.value(QStringLiteral("trace-slow")).toDouble(&ok);
    if (tracing && (!ok || !(traceMs > 0))) {
        std::fprintf(stderr, "fabriclab-gui-bench: --trace-slow needs a time in ms > 0\n");
        return 2;
    }
    Bench bench(document, controller, edits, other, *load, onGuiThread);
    // Connected after the window's views and the controller: a run asked for here is for
    // the new design's revision.
    QObject::connect(&document, &TopologyDocument::changed, &app,
                     [&bench] { bench.designReplaced(); });
    QObject::connect(&document, &TopologyDocument::designBuildRefused, &app,
                     [&bench](const QString&, const QString& why) { bench.refused(why); });

    // The first result is the design opening, not an edit: start once it is shown. The
    // stall monitor starts with the first edit, after the look pause: until then the
    // window is still being shown and laid out for the first time (a one-off 30 ms on
    // the smallest sample), which is opening the design, not editing it.
    bool started = false;
    QObject::connect(
        window.dashboard(), &fabriclab::views::ResultsDashboard::chartsShown, &app, [&] {
            if (!started) {
                started = true;
                QTimer::singleShot(kLookMs, &app, [&] {
                    if (!load->start()) {
                        const QString why = QString::fromLocal8Bit(std::strerror(errno));
                        bench.refused(QStringLiteral("cannot start the background load: ") + why);
                        return;
                    }
                    bench.stalls.start();
                    if (tracing)
                        app.startTracing(traceMs);
                    bench.edit();
                });
                return;
            }
            bench.resultShown();
        });
    QTimer::singleShot(kTimeoutMs, &app, [] { QCoreApplication::exit(3); });
    controller.run();
    const int status = QApplication::exec();
    if (status != 0) {
        std::fprintf(stderr, "fabriclab-gui-bench: %s\n",
                     status == 3 ? "timed out" : qPrintable(bench.refusal));
        return status;
    }

    // Panning as a presenter does: the design as it opened (fitted, at its level of detail),
    // then with every group expanded, the most a canvas can hold.
    fabriclab::bench::PanTiming opened;
    fabriclab::bench::PanTiming expanded;
    double expandAllMs = 0;
    if (auto* canvas = window.findChild<fabriclab::views::CanvasView*>()) {
        canvas->fitAll();
        opened = fabriclab::bench::timePan(*canvas, kPanFrames);
        if (auto* scene = qobject_cast<fabriclab::views::TopologyScene*>(canvas->scene())) {
            // Opening every group at once is one long task on the GUI thread by design (the
            // most a canvas can hold); timed here, apart from the edits.
            QElapsedTimer expanding;
            expanding.start();
            scene->expandAll();
            canvas->fitAll();
            expandAllMs = static_cast<double>(expanding.nsecsElapsed()) / 1e6;
            expanded = fabriclab::bench::timePan(*canvas, kPanFrames);
        }
    }
    const double worst =
        *std::max_element(bench.editToResultsMs.begin(), bench.editToResultsMs.end());
    QJsonArray each;
    for (const double ms : bench.editToResultsMs)
        each.append(ms);
    QJsonObject report{
        {QStringLiteral("design"), parser.positionalArguments().front()},
        {QStringLiteral("gpus"), document.topology().gpuCount()},
        {QStringLiteral("edits"), edits},
        {QStringLiteral("backgroundLoad"), busy},
        {QStringLiteral("editOnGuiThread"), onGuiThread},
        {QStringLiteral("fabrics"), QJsonArray{QString::fromStdString(bench.firstFabric),
                                               QString::fromStdString(bench.secondFabric)}},
        {QStringLiteral("editToResultsMsMedian"), median(bench.editToResultsMs)},
        {QStringLiteral("editToResultsMsMax"), worst},
        {QStringLiteral("guiStallMsMax"), bench.stalls.longestStallMs()},
        {QStringLiteral("editToResultsMs"), each},
        {QStringLiteral("panFrameMsMedian"), opened.medianMs},
        {QStringLiteral("panFrameMsMax"), opened.maxMs},
        {QStringLiteral("panExpandedFrameMsMedian"), expanded.medianMs},
        {QStringLiteral("panExpandedFrameMsMax"), expanded.maxMs},
        {QStringLiteral("expandAllMs"), expandAllMs},
        {QStringLiteral("panStallMsMax"), std::max({opened.maxMs, expandAllMs, expanded.maxMs})}};
    constexpr int kSlowEventsListed = 25;
    const QJsonArray slowEvents = app.slowest(kSlowEventsListed);
    if (tracing) {
        report[QStringLiteral("slowEvents")] = slowEvents;
        QJsonArray stalls;
        for (const auto& stall : bench.stalls.longestStalls())
            stalls.append(
                QJsonObject{{QStringLiteral("ms"), stall.ms},
                            {QStringLiteral("cpuMs"), stall.cpuMs},
                            {QStringLiteral("waited"), static_cast<double>(stall.waited)},
                            {QStringLiteral("preempted"), static_cast<double>(stall.preempted)},
                            {QStringLiteral("events"), app.within(stall.beginNs, stall.endNs)}});
        report[QStringLiteral("longestStalls")] = stalls;
    }
    if (parser.isSet(QStringLiteral("json")))
        std::printf("%s\n", QJsonDocument(report).toJson(QJsonDocument::Compact).constData());
    else
        std::printf("edit to results: median %.1f ms, max %.1f ms; GUI stall max %.1f ms "
                    "during the edits%s; pan frame median %.1f ms (%.1f ms with every group "
                    "expanded, after %.1f ms to expand them)\n",
                    median(bench.editToResultsMs), worst, bench.stalls.longestStallMs(),
                    busy > 0 ? qPrintable(QStringLiteral(" with %1 busy processes").arg(busy)) : "",
                    opened.medianMs, expanded.medianMs, expandAllMs);
    if (tracing && !parser.isSet(QStringLiteral("json")))
        for (const auto& slow : slowEvents) {
            const QJsonObject event = slow.toObject();
            std::printf("%8.1f ms (%5.1f ms CPU) %*s%s to %s\n",
                        event[QStringLiteral("ms")].toDouble(),
                        event[QStringLiteral("cpuMs")].toDouble(),
                        2 * event[QStringLiteral("depth")].toInt(), "",
                        qPrintable(event[QStringLiteral("event")].toString()),
                        qPrintable(event[QStringLiteral("receiver")].toString()));
        }
    return 0;
}
