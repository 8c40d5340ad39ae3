// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// fabriclab: the desktop app. Builds the document, the window and the file handling,
// then hands control to Qt. Wiring only.
#include "app/gui/FileActions.hpp"
#include "app/gui/MainWindow.hpp"
#include "app/gui/Theme.hpp"
#include "model/catalog/Catalog.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QIcon>
#include <QTimer>

namespace {

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
    Q_INIT_RESOURCE(fabriclab);
    answerHelpOrVersion(argc, argv);
    QApplication app(argc, argv);
    nameApplication();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/fabriclab.svg")));

    QCommandLineParser parser;
    configureParser(parser);
    parser.process(app);

    fabriclab::app::applyTheme(fabriclab::app::savedTheme());
    fabriclab::views::TopologyDocument document(fabriclab::model::Catalog::builtin());
    fabriclab::app::MainWindow window(document);
    fabriclab::app::FileActions files(document, window);
    window.show();

    const QStringList designs = parser.positionalArguments();
    // After the event loop starts, so a failure dialog has a window to sit on.
    QTimer::singleShot(0, &window, [&] {
        if (!files.offerRecovery() && !designs.isEmpty())
            files.open(QDir::current().absoluteFilePath(designs.front()));
    });
    return QApplication::exec();
}
