// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/ExportActions.hpp"

#include "app/gui/MainWindow.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/cost/CostModel.hpp"
#include "model/io/OutputContract.hpp"
#include "model/report/BillOfMaterials.hpp"
#include "model/report/CablingPlan.hpp"
#include "model/report/FabricExport.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/sim/EnginePool.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

namespace fabriclab::app {
namespace {

/// An exported JSON file, opened as the command line opens the same output.
std::string printed(std::string_view kind, const model::Design& design,
                    const model::Catalog& catalog, const std::string& savedFile,
                    const nlohmann::ordered_json& body) {
    model::OutputSource source{&design, design.fabric.spec.id, std::nullopt, &catalog.prices(), {}};
    if (!savedFile.empty()) {
        try {
            source.designHash = model::designFileHash(savedFile);
        } catch (const std::exception&) {
            // Moved or deleted since it was saved: fingerprinted as a save would write it.
        }
    }
    return model::withHead(model::outputHead(kind, FABRICLAB_VERSION, source), body).dump(2) + "\n";
}

std::string billOfMaterials(const model::Design& design, const model::Catalog& catalog, bool json,
                            const std::string& savedFile) {
    const model::CostReport cost =
        model::estimateCost(design.topology, design.fabric.spec, catalog.prices());
    return json ? printed("fabriclab-bom", design, catalog, savedFile, model::bomJson(cost))
                : model::bomCsv(cost);
}

/// The writer of a file other tools read: the very text `fabriclab-cli export` prints.
auto fabricFile(model::ExportFormat format) {
    return [format](const model::Design& design, const model::Catalog& catalog, bool,
                    const std::string&) {
        return model::exportFabric(design, catalog.prices(), format);
    };
}

std::string cabling(const model::Design& design, const model::Catalog& catalog, bool json,
                    const std::string& savedFile) {
    const model::CablingPlan plan =
        model::cablingPlan(design.topology, design.fabric.spec, catalog.prices());
    return json ? printed("fabriclab-cabling", design, catalog, savedFile, model::cablingJson(plan))
                : model::cablingCsv(plan);
}

} // namespace

ExportActions::ExportActions(views::TopologyDocument& document, MainWindow& window)
    : QObject(&window), m_document(document), m_window(window) {
    // Above Quit, which FileActions put last.
    QMenu* file = window.fileMenu();
    QAction* quit = file->actions().isEmpty() ? nullptr : file->actions().last();
    auto* menu = new QMenu(tr("&Export"), file);
    file->insertMenu(quit, menu);
    file->insertSeparator(quit);
    connect(menu->addAction(tr("&Bill of materials…")), &QAction::triggered, this, [this] {
        ask(tr("Export bill of materials"), tr(" - bill of materials.csv"), billOfMaterials);
    });
    connect(menu->addAction(tr("&Cabling plan…")), &QAction::triggered, this,
            [this] { ask(tr("Export cabling plan"), tr(" - cabling plan.csv"), cabling); });
    menu->addSeparator();
    connect(menu->addAction(tr("&Graphviz graph (DOT)…")), &QAction::triggered, this, [this] {
        ask(tr("Export Graphviz graph"), tr(".dot"), fabricFile(model::ExportFormat::Dot),
            tr("Graphviz (*.dot *.gv)"));
    });
    connect(menu->addAction(tr("&Slurm topology.conf…")), &QAction::triggered, this, [this] {
        ask(tr("Export Slurm topology"), QString(), fabricFile(model::ExportFormat::Slurm),
            tr("Slurm topology (*.conf)"), QStringLiteral("topology.conf"));
    });
    connect(menu->addAction(tr("&InfiniBand topology (ibnetdiscover)…")), &QAction::triggered, this,
            [this] {
                ask(tr("Export ibnetdiscover topology"), tr(".topo"),
                    fabricFile(model::ExportFormat::Ibnetdiscover),
                    tr("ibnetdiscover topology (*.topo *.txt)"));
            });
    menu->addSeparator();
    connect(menu->addAction(tr("C&anvas as SVG or PNG…")), &QAction::triggered, this, [this] {
        const QString name = QString::fromStdString(m_document.design().name);
        const QString path = QFileDialog::getSaveFileName(
            &m_window, tr("Export canvas"), (name.isEmpty() ? tr("design") : name) + tr(".svg"),
            tr("SVG drawing (*.svg);;PNG picture (*.png)"));
        if (!path.isEmpty())
            exportCanvas(path);
    });
    connect(&m_watcher, &QFutureWatcher<std::pair<bool, QString>>::finished, this, [this] {
        const auto [ok, text] = m_watcher.result();
        if (!ok) {
            Q_EMIT failed(m_path, text);
            return;
        }
        QSaveFile file(m_path);
        if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
            Q_EMIT failed(m_path, file.errorString());
            return;
        }
        Q_EMIT exported(m_path);
    });
    connect(this, &ExportActions::exported, &window, [&window](const QString& path) {
        window.statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 5000);
    });
    connect(this, &ExportActions::failed, &window,
            [&window](const QString& path, const QString& why) {
                // Window-modal, not a nested event loop: the app keeps drawing meanwhile.
                auto* box = new QMessageBox(
                    QMessageBox::Warning, tr("Export failed"),
                    tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), why),
                    QMessageBox::Ok, &window);
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
            });
}

void ExportActions::ask(const QString& title, const QString& suffix, Writer writer,
                        const QString& filter, const QString& fileName) {
    const QString name = QString::fromStdString(m_document.design().name);
    const QString path = QFileDialog::getSaveFileName(
        &m_window, title,
        fileName.isEmpty() ? (name.isEmpty() ? tr("design") : name) + suffix : fileName,
        filter.isEmpty() ? tr("CSV for spreadsheets (*.csv);;JSON (*.json)") : filter);
    if (!path.isEmpty())
        exportText(path, std::move(writer));
}

void ExportActions::exportBillOfMaterials(const QString& path) {
    exportText(path, billOfMaterials);
}

void ExportActions::exportCablingPlan(const QString& path) {
    exportText(path, cabling);
}

void ExportActions::exportGraphviz(const QString& path) {
    exportText(path, fabricFile(model::ExportFormat::Dot));
}

void ExportActions::exportSlurmTopology(const QString& path) {
    exportText(path, fabricFile(model::ExportFormat::Slurm));
}

void ExportActions::exportIbnetdiscover(const QString& path) {
    exportText(path, fabricFile(model::ExportFormat::Ibnetdiscover));
}

void ExportActions::exportCanvas(const QString& path) {
    QString error;
    if (m_window.canvas()->exportDrawing(path, &error))
        Q_EMIT exported(path);
    else
        Q_EMIT failed(path, error);
}

void ExportActions::exportText(const QString& path, Writer writer) {
    if (m_watcher.isRunning())
        return; // one export at a time; the menu is back in a moment
    m_path = path;
    const bool json =
        QFileInfo(path).suffix().compare(QStringLiteral("json"), Qt::CaseInsensitive) == 0;
    // Saved as it is now: its file's bytes fingerprint it, as the command line's do.
    const std::string savedFile =
        m_document.isModified() ? std::string() : m_document.filePath().toStdString();
    m_watcher.setFuture(QtConcurrent::run(
        &views::enginePool(), [design = m_document.snapshot(), &catalog = m_document.catalog(),
                               json, savedFile, writer = std::move(writer)] {
            try {
                return std::pair{true,
                                 QString::fromStdString(writer(*design, catalog, json, savedFile))};
            } catch (const std::exception& e) {
                return std::pair{false, QString::fromStdString(e.what())};
            }
        }));
}

} // namespace fabriclab::app
