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
#include <QDir>
#include <QIcon>
#include <QTimer>

int main(int argc, char** argv) {
    Q_INIT_RESOURCE(fabriclab);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("FabricLab"));
    QApplication::setOrganizationName(QStringLiteral("FabricLab"));
    QApplication::setApplicationVersion(QStringLiteral(FABRICLAB_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/fabriclab.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main",
        "Plan GPU-cluster networks: draw or generate a fabric, see what it delivers and costs."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("design"),
                                 QApplication::translate("main", "A *.fabric.json design to open."),
                                 QStringLiteral("[design]"));
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
