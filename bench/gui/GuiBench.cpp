// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// fabriclab-gui-bench DESIGN [--edits N] [--json]: opens DESIGN in the real main window
// (offscreen unless a platform is set), waits for its first results, then makes N edits
// as a user would, alternating the leaf oversubscription (1:1 <-> 2:1) and the fabric
// (the design's <-> a second one, --fabric or one that routes alike), each as one undo step through
// the document, and times each edit until the results of that very revision are shown. A fine timer
// measures the longest time the GUI thread stayed away from its event loop meanwhile.
#include "app/ProcessMemory.hpp"
#include "app/gui/MainWindow.hpp"
#include "app/gui/SimulationActions.hpp"
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
#include <cstdio>
#include <vector>

namespace {

using fabriclab::views::DesignRegeneration;
using fabriclab::views::SimulationController;

/// Pause between one edit's results and the next edit, as a user looks at them.
constexpr int kLookMs = 250;
constexpr int kTimeoutMs = 600'000;
/// Frames painted while panning: three sweeps each way.
constexpr int kPanFrames = 120;

struct Bench {
    Bench(fabriclab::views::TopologyDocument& d, SimulationController& c, int n, std::string other)
        : document(d), controller(c), edits(n), firstFabric(d.design().fabric.spec.id),
          secondFabric(std::move(other)) {}

    fabriclab::views::TopologyDocument& document;
    SimulationController& controller;
    fabriclab::bench::StallMonitor stalls;
    int edits = 0;
    int done = 0;
    std::string firstFabric;
    std::string secondFabric;
    QElapsedTimer clock;
    std::vector<double> editToResultsMs;
    QString refusal;

    /// The next edit as a user makes it: even ones the slider, odd ones the fabric picker.
    DesignRegeneration nextEdit() const {
        const auto& design = document.design();
        if (done % 2 == 0 && design.generator) {
            const double ratio = design.generator->oversubscription > 1.5 ? 1.0 : 2.0;
            return DesignRegeneration::withOversubscription(design, ratio);
        }
        const std::string& next = design.fabric.spec.id == firstFabric ? secondFabric : firstFabric;
        return DesignRegeneration::withFabric(design, *document.catalog().findFabric(next));
    }

    void edit() {
        auto regenerated = nextEdit();
        if (!regenerated.accepted()) {
            refusal = regenerated.refusal;
            QCoreApplication::exit(2);
            return;
        }
        clock.start();
        document.replaceDesign(std::move(*regenerated.design), QStringLiteral("bench edit"));
        // A design that takes over a second turns live updates off; the user presses F5.
        if (!controller.isLive())
            controller.run();
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
            QTimer::singleShot(kLookMs, qApp, [] { QCoreApplication::exit(0); });
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
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("FabricLab-bench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Times FabricLab from an edit to its results, as a user sees them."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("design"), QStringLiteral("A *.fabric.json."));
    parser.addOption({QStringLiteral("edits"), QStringLiteral("Edits to make (default 10)."),
                      QStringLiteral("n"), QStringLiteral("10")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON object.")});
    parser.addOption({QStringLiteral("fabric"),
                      QStringLiteral("The fabric the odd edits switch to (default: another "
                                     "fabric with the same routing as the design's)."),
                      QStringLiteral("id")});
    parser.process(app);
    bool ok = false;
    const int edits = parser.value(QStringLiteral("edits")).toInt(&ok);
    if (parser.positionalArguments().size() != 1 || !ok || edits < 1) {
        std::fprintf(stderr, "fabriclab-gui-bench: need one DESIGN and --edits >= 1\n");
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
    Bench bench(document, controller, edits, other);

    // The first result is the design opening, not an edit: start once it is shown. The
    // stall monitor starts with the first edit, after the look pause: until then the
    // window is still being shown and laid out for the first time (a one-off 30 ms on
    // the smallest sample), which is opening the design, not editing it.
    bool started = false;
    QObject::connect(window.dashboard(), &fabriclab::views::ResultsDashboard::chartsShown, &app,
                     [&] {
                         if (!started) {
                             started = true;
                             QTimer::singleShot(kLookMs, &app, [&] {
                                 bench.stalls.start();
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
    if (auto* canvas = window.findChild<fabriclab::views::CanvasView*>()) {
        canvas->fitAll();
        opened = fabriclab::bench::timePan(*canvas, kPanFrames);
        if (auto* scene = qobject_cast<fabriclab::views::TopologyScene*>(canvas->scene())) {
            scene->expandAll();
            canvas->fitAll();
            expanded = fabriclab::bench::timePan(*canvas, kPanFrames);
        }
    }
    const double worst =
        *std::max_element(bench.editToResultsMs.begin(), bench.editToResultsMs.end());
    QJsonArray each;
    for (const double ms : bench.editToResultsMs)
        each.append(ms);
    const QJsonObject report{
        {QStringLiteral("design"), parser.positionalArguments().front()},
        {QStringLiteral("gpus"), document.topology().gpuCount()},
        {QStringLiteral("edits"), edits},
        {QStringLiteral("fabrics"), QJsonArray{QString::fromStdString(bench.firstFabric),
                                               QString::fromStdString(bench.secondFabric)}},
        {QStringLiteral("editToResultsMsMedian"), median(bench.editToResultsMs)},
        {QStringLiteral("editToResultsMsMax"), worst},
        {QStringLiteral("guiStallMsMax"), bench.stalls.longestStallMs()},
        {QStringLiteral("editToResultsMs"), each},
        {QStringLiteral("panFrameMsMedian"), opened.medianMs},
        {QStringLiteral("panFrameMsMax"), opened.maxMs},
        {QStringLiteral("panExpandedFrameMsMedian"), expanded.medianMs},
        {QStringLiteral("panExpandedFrameMsMax"), expanded.maxMs}};
    if (parser.isSet(QStringLiteral("json")))
        std::printf("%s\n", QJsonDocument(report).toJson(QJsonDocument::Compact).constData());
    else
        std::printf("edit to results: median %.1f ms, max %.1f ms; GUI stall max %.1f ms; pan "
                    "frame median %.1f ms (%.1f ms with every group expanded)\n",
                    median(bench.editToResultsMs), worst, bench.stalls.longestStallMs(),
                    opened.medianMs, expanded.medianMs);
    return 0;
}
