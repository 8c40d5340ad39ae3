// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/ImportActions.hpp"

#include "app/gui/FileActions.hpp"
#include "app/gui/MainWindow.hpp"
#include "model/io/TextFile.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QMenu>
#include <QMessageBox>
#include <QSpinBox>

namespace fabriclab::app {
namespace {

/// Larger than any real subnet's ibnetdiscover output (131K GPUs is about 60 MiB).
constexpr std::uintmax_t kMostBytes = 256ull << 20;

} // namespace

ImportActions::ImportActions(views::TopologyDocument& document, FileActions& files,
                             MainWindow& window)
    : QObject(&window), m_document(document), m_files(files), m_window(window) {
    QMenu* file = window.fileMenu();
    QAction* before = nullptr;
    for (QAction* action : file->actions())
        if (action->menu() && action->menu()->title() == tr("&Export"))
            before = action;
    auto* menu = new QMenu(tr("&Import fabric"), file);
    file->insertMenu(before, menu);
    connect(menu->addAction(tr("&InfiniBand subnet (ibnetdiscover output)…")), &QAction::triggered,
            this, [this] { ask(Format::Ibnetdiscover); });
    connect(menu->addAction(tr("&Slurm topology.conf…")), &QAction::triggered, this,
            [this] { ask(Format::Slurm); });
}

bool ImportActions::importFile(Format format, const QString& path,
                               const model::ImportOptions& options, QString* error) {
    try {
        const std::string text =
            model::readTextFile(path.toStdString(), kMostBytes,
                                format == Format::Slurm ? "topology.conf" : "ibnetdiscover");
        const std::string origin = QFileInfo(path).fileName().toStdString();
        model::Design design =
            format == Format::Slurm
                ? model::importSlurmTopology(text, origin, options, m_document.catalog())
                : model::importIbnetdiscover(text, origin, options, m_document.catalog());
        // A new, unsaved design: saving asks where, so the source file is never overwritten.
        m_document.adopt(std::move(design), QString(), true);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

void ImportActions::ask(Format format) {
    const QString path = QFileDialog::getOpenFileName(
        &m_window, tr("Import fabric"), QString(),
        format == Format::Slurm ? tr("Slurm topology (*.conf);;All files (*)")
                                : tr("ibnetdiscover output (*.topo *.txt *.out);;All files (*)"));
    if (path.isEmpty() || !m_files.maybeSave())
        return;

    // What the file cannot say.
    QDialog dialog(&m_window);
    dialog.setWindowTitle(tr("Import %1").arg(QFileInfo(path).fileName()));
    auto* form = new QFormLayout(&dialog);
    auto* fabric = new QComboBox(&dialog);
    if (format == Format::Ibnetdiscover)
        fabric->addItem(tr("From the links' rate"), QString());
    for (const auto& [id, spec] : m_document.catalog().fabrics())
        fabric->addItem(QString::fromStdString(spec.name), QString::fromStdString(id));
    if (format == Format::Slurm)
        fabric->setCurrentIndex(fabric->findData(QStringLiteral("ib-ndr")));
    auto* gpu = new QComboBox(&dialog);
    for (const auto& [id, spec] : m_document.catalog().gpus())
        gpu->addItem(QString::fromStdString(spec.name), QString::fromStdString(id));
    gpu->setCurrentIndex(std::max(0, gpu->findData(QStringLiteral("h100-sxm"))));
    auto* gpus = new QSpinBox(&dialog);
    gpus->setRange(1, 1024);
    gpus->setValue(8);
    auto* nics = new QSpinBox(&dialog);
    nics->setRange(0, 1024);
    nics->setSpecialValueText(tr("one per GPU"));
    form->addRow(tr("Fabric:"), fabric);
    form->addRow(tr("GPU:"), gpu);
    form->addRow(tr("GPUs per server:"), gpus);
    if (format == Format::Slurm)
        form->addRow(tr("NICs per server:"), nics);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;

    model::ImportOptions options;
    if (const QString id = fabric->currentData().toString(); !id.isEmpty())
        options.fabricId = id.toStdString();
    options.gpuId = gpu->currentData().toString().toStdString();
    options.gpusPerServer = gpus->value();
    options.nicsPerServer = nics->value();
    options.name = QFileInfo(path).completeBaseName().toStdString();
    QString error;
    if (!importFile(format, path, options, &error))
        QMessageBox::critical(
            &m_window, tr("Cannot import fabric"),
            tr("FabricLab could not import %1: %2").arg(QFileInfo(path).fileName(), error));
}

} // namespace fabriclab::app
