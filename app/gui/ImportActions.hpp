// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/io/FabricImport.hpp"

#include <QObject>
#include <QString>

namespace fabriclab::views {
class TopologyDocument;
}

namespace fabriclab::app {

class FileActions;
class MainWindow;

/// File > Import fabric: a real fabric's file (ibnetdiscover output, Slurm's
/// topology.conf) becomes the open design, as `fabriclab-cli import` makes it. A dialog asks
/// what the file cannot say (the GPU, GPUs and NICs per server, the fabric). A file that
/// cannot be read is refused with its line, and the current design stays.
class ImportActions : public QObject {
    Q_OBJECT

public:
    enum class Format { Ibnetdiscover, Slurm };

    ImportActions(views::TopologyDocument& document, FileActions& files, MainWindow& window);

    /// Imports `path` with `options` as an unsaved design. False with `error` set (the
    /// file and line) when the file is refused; the current design is then untouched.
    bool importFile(Format format, const QString& path, const model::ImportOptions& options,
                    QString* error);

private:
    void ask(Format format);

    views::TopologyDocument& m_document;
    FileActions& m_files;
    MainWindow& m_window;
};

} // namespace fabriclab::app
