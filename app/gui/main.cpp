// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// fabriclab: the desktop app. Builds the document, the window and the file handling,
// then hands control to Qt. Wiring only.
#include "app/ProcessMemory.hpp"
#include "app/gui/ExportActions.hpp"
#include "app/gui/FileActions.hpp"
#include "app/gui/HeadlessCapture.hpp"
#include "app/gui/ImportActions.hpp"
#include "app/gui/MainWindow.hpp"
#include "app/gui/ReportExport.hpp"
#include "app/gui/Theme.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/report/FabricComparison.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/CompareController.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QIcon>
#include <QRegularExpression>
#include <QTimer>

#include <cstdio>
#include <optional>

namespace {

/// What --screenshot shows without a design: the first start.
constexpr QLatin1String kWelcomeView("welcome");
/// The window --screenshot and --export-charts draw, unless --size says otherwise.
constexpr QSize kCaptureSize(1600, 1000);
/// Larger than any screen FabricLab is shown on (8K).
constexpr QSize kLargestSize(7680, 4320);

/// Every option fabriclab takes, for both passes over the command line below.
void configureParser(QCommandLineParser& parser) {
    parser.setApplicationDescription(QCoreApplication::translate(
        "main",
        "Plan GPU-cluster networks: draw or generate a fabric, see what it delivers and costs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("design"),
        QCoreApplication::translate("main", "A *.fabric.json design to open."),
        QStringLiteral("[design]"));
    parser.addOption({QStringLiteral("screenshot"),
                      QCoreApplication::translate(
                          "main", "Open DESIGN, wait for its results, save the window as a PNG "
                                  "and exit."),
                      QStringLiteral("png")});
    parser.addOption(
        {QStringLiteral("view"),
         QCoreApplication::translate("main", "What --screenshot shows: results (default), "
                                             "compare, playback, teaching, presentation, "
                                             "explain, plan, or welcome (the first start, without "
                                             "a DESIGN)."),
         QStringLiteral("view"), QStringLiteral("results")});
    parser.addOption({QStringLiteral("size"),
                      QCoreApplication::translate(
                          "main", "The window's size in pixels, WIDTHxHEIGHT (1280x720): what "
                                  "--screenshot captures (1600x1000 if not given), or the "
                                  "window opened."),
                      QStringLiteral("WxH")});
    parser.addOption({QStringLiteral("export-charts"),
                      QCoreApplication::translate(
                          "main", "Open DESIGN, wait for its results, write every chart as "
                                  "NAME.png, NAME.svg and NAME.csv into the folder, and exit."),
                      QStringLiteral("folder")});
    parser.addOption({QStringLiteral("report"),
                      QCoreApplication::translate(
                          "main", "Open DESIGN, wait for its results and fabric comparison, write "
                                  "the design report as a PDF, and exit."),
                      QStringLiteral("pdf")});
    parser.addOption({QStringLiteral("fabrics"),
                      QCoreApplication::translate(
                          "main", "With --report, or --screenshot of the compare view: the "
                                  "fabrics to compare, as catalog ids separated by commas "
                                  "(ib-ndr,spectrum-x), each optionally rebuilt as another "
                                  "topology (ib-ndr@dragonfly,ib-ndr@fat-tree); the usual set "
                                  "when not given."),
                      QStringLiteral("ids")});
    parser.addOption({QStringLiteral("print-samples-folder"),
                      QCoreApplication::translate(
                          "main", "Print the folder File > Open Sample opens (beside the "
                                  "installed program, or the source tree's samples/) and exit.")});
}

/// --size: "1280x720" as a size within what a window can be, or nothing (and the reason
/// printed) when it is not one.
std::optional<QSize> parseSize(const QString& text) {
    static const QRegularExpression pattern(QStringLiteral("^([0-9]{1,5})[xX]([0-9]{1,5})$"));
    const auto match = pattern.match(text.trimmed());
    const QSize smallest = fabriclab::app::MainWindow::minimumWindowSize();
    if (!match.hasMatch()) {
        std::fprintf(stderr,
                     "fabriclab: --size \"%s\" is not WIDTHxHEIGHT in pixels, such as 1280x720\n",
                     qPrintable(text));
        return std::nullopt;
    }
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    if (size.width() < smallest.width() || size.height() < smallest.height() ||
        size.width() > kLargestSize.width() || size.height() > kLargestSize.height()) {
        std::fprintf(stderr, "fabriclab: --size %dx%d is outside %dx%d to %dx%d\n", size.width(),
                     size.height(), smallest.width(), smallest.height(), kLargestSize.width(),
                     kLargestSize.height());
        return std::nullopt;
    }
    return size;
}

/// --fabrics: comparison rows, each a catalog fabric, optionally "@" a generator kind;
/// nullopt (after saying why) when one names neither.
std::optional<QStringList> fabricsAsked(const QCommandLineParser& parser,
                                        const fabriclab::model::Catalog& catalog) {
    QStringList fabrics;
    for (const QString& text :
         parser.value(QStringLiteral("fabrics")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString id = text.trimmed();
        const auto candidate = fabriclab::model::comparisonCandidate(id.toStdString());
        if (!catalog.findFabric(candidate.fabricId)) {
            std::fprintf(stderr, "fabriclab: --fabrics: no fabric \"%s\" in the catalog\n",
                         candidate.fabricId.c_str());
            return std::nullopt;
        }
        if (!candidate.kind.empty() && !fabriclab::model::findGenerator(candidate.kind)) {
            std::fprintf(stderr, "fabriclab: --fabrics: no generator kind \"%s\" (expected %s)\n",
                         candidate.kind.c_str(), fabriclab::model::generatorKindList().c_str());
            return std::nullopt;
        }
        fabrics << id;
    }
    return fabrics;
}

/// --screenshot and --export-charts: the design is loaded without dialogs and the
/// capture quits the application when done. Returns the exit status.
int runHeadless(QApplication& app, const QCommandLineParser& parser,
                fabriclab::views::TopologyDocument& document, fabriclab::app::MainWindow& window,
                QSize size) {
    using fabriclab::app::HeadlessCapture;
    const QStringList designs = parser.positionalArguments();
    const bool screenshot = parser.isSet(QStringLiteral("screenshot"));
    const QString view = parser.value(QStringLiteral("view"));
    if (!HeadlessCapture::views().contains(view)) {
        std::fprintf(stderr, "fabriclab: unknown --view \"%s\"; use one of: %s\n", qPrintable(view),
                     qPrintable(HeadlessCapture::views().join(QStringLiteral(", "))));
        return 2;
    }
    const bool welcome = screenshot && view == kWelcomeView;
    if (welcome && !designs.isEmpty()) {
        std::fprintf(stderr, "fabriclab: --view welcome shows the first start: give no DESIGN\n");
        return 2;
    }
    if (!welcome && designs.size() != 1) {
        std::fprintf(stderr, "fabriclab: --screenshot and --export-charts need one DESIGN\n");
        return 2;
    }
    if (!welcome) {
        try {
            document.load(QDir::current().absoluteFilePath(designs.front()));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "fabriclab: %s\n", e.what());
            return 2;
        }
    }
    const auto fabrics = fabricsAsked(parser, document.catalog());
    if (!fabrics)
        return 2;
    window.comparisons()->setChosenFabrics(*fabrics);
    window.resize(size);
    if (welcome)
        window.showWelcome();
    window.show();
    window.giveResultsRoom(0.62);
    auto* capture = new HeadlessCapture(
        window,
        screenshot ? HeadlessCapture::Mode::Screenshot : HeadlessCapture::Mode::ExportCharts,
        parser.value(screenshot ? QStringLiteral("screenshot") : QStringLiteral("export-charts")),
        view, size);
    QObject::connect(capture, &HeadlessCapture::finished, &app, &QCoreApplication::exit);
    capture->start();
    return QApplication::exec();
}

/// --report: the design's report written headless, through the same File > Export report
/// the window offers. Returns the exit status: 0 written, 2 refused (the design, a fabric
/// id, the file), 3 gave up waiting.
int runReport(const QCommandLineParser& parser, fabriclab::views::TopologyDocument& document,
              fabriclab::app::MainWindow& window) {
    const QStringList designs = parser.positionalArguments();
    if (designs.size() != 1) {
        std::fprintf(stderr, "fabriclab: --report needs one DESIGN\n");
        return 2;
    }
    const auto fabrics = fabricsAsked(parser, document.catalog());
    if (!fabrics)
        return 2;
    try {
        document.load(QDir::current().absoluteFilePath(designs.front()));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fabriclab: %s\n", e.what());
        return 2;
    }
    // Paper is white whatever theme the user keeps.
    fabriclab::app::applyTheme(fabriclab::app::Theme::Light);
    window.resize(kCaptureSize);
    window.show();
    window.giveResultsRoom(0.62);
    window.comparisons()->setChosenFabrics(*fabrics);
    fabriclab::app::ReportExport report(window);
    report.setInteractive(false);
    QObject::connect(
        &report, &fabriclab::app::ReportExport::exported, [](const QString& path, int pages) {
            std::fprintf(stderr, "FabricLab: wrote %s (%d pages)\n", qPrintable(path), pages);
            QCoreApplication::exit(0);
        });
    QObject::connect(&report, &fabriclab::app::ReportExport::failed,
                     [](const QString& path, const QString& why) {
                         std::fprintf(stderr, "fabriclab: could not write %s: %s\n",
                                      qPrintable(path), qPrintable(why));
                         QCoreApplication::exit(2);
                     });
    constexpr int kGiveUpMs = 600'000;
    QTimer::singleShot(kGiveUpMs, &window, [] {
        std::fprintf(stderr, "fabriclab: gave up waiting for the report after %d s\n",
                     kGiveUpMs / 1000);
        QCoreApplication::exit(3);
    });
    const QString path = QDir::current().absoluteFilePath(parser.value(QStringLiteral("report")));
    QTimer::singleShot(0, &report, [&report, path] { report.exportReport(path); });
    return QApplication::exec();
}

void nameApplication() {
    QCoreApplication::setApplicationName(QStringLiteral("FabricLab"));
    QCoreApplication::setOrganizationName(QStringLiteral("FabricLab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FABRICLAB_VERSION));
}

/// Answers --help and --version and exits, when asked. QApplication connects to the
/// display as it is built and aborts when there is none (a terminal over ssh, CI), so
/// these are answered first, by a QCoreApplication that needs no display.
void answerHelpOrVersion(int argc, char** argv) {
    QCoreApplication early(argc, argv);
    nameApplication();
    QCommandLineParser parser;
    configureParser(parser);
    // Qt's own options (-platform, -reverse, ...) are still in the arguments here: read
    // them as unknown words, not as bundles of one-letter options ("-reverse" is no -v).
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    // Anything else, errors included, is for the application's own pass to report.
    parser.parse(QCoreApplication::arguments());
    // --help-all stays with the application's pass: it lists the GUI's own Qt options.
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
}

} // namespace

int main(int argc, char** argv) {
    fabriclab::app::returnLargeBlocksToTheSystem();
    Q_INIT_RESOURCE(fabriclab);
    answerHelpOrVersion(argc, argv);
    QApplication app(argc, argv);
    nameApplication();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/fabriclab.svg")));

    QCommandLineParser parser;
    configureParser(parser);
    parser.process(app);

    if (parser.isSet(QStringLiteral("print-samples-folder"))) {
        std::printf("%s\n", qPrintable(fabriclab::app::FileActions::samplesFolder()));
        return 0;
    }
    std::optional<QSize> size;
    if (parser.isSet(QStringLiteral("size")) &&
        !(size = parseSize(parser.value(QStringLiteral("size")))))
        return 2;

    fabriclab::app::applyTheme(fabriclab::app::savedTheme());
    fabriclab::views::TopologyDocument document(fabriclab::model::Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    if (parser.isSet(QStringLiteral("screenshot")) || parser.isSet(QStringLiteral("export-charts")))
        return runHeadless(app, parser, document, window, size.value_or(kCaptureSize));
    if (parser.isSet(QStringLiteral("report")))
        return runReport(parser, document, window);
    fabriclab::app::FileActions files(document, window);
    fabriclab::app::ExportActions exports(document, window);
    fabriclab::app::ReportExport report(window);
    fabriclab::app::ImportActions imports(document, files, window);
    if (size)
        window.resize(*size);
    else
        window.fitScreen();
    const QStringList designs = parser.positionalArguments();
    // Nothing to open: the welcome page rather than an empty canvas and empty charts. A
    // recovered autosave or a design opened below takes its place.
    if (designs.isEmpty())
        window.showWelcome();
    window.show();

    // After the event loop starts, so a failure dialog has a window to sit on.
    QTimer::singleShot(0, &window, [&] {
        if (!files.offerRecovery() && !designs.isEmpty() &&
            !files.open(QDir::current().absoluteFilePath(designs.front())))
            window.showWelcome(); // the design named could not be opened: start from here
    });
    return QApplication::exec();
}
