// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <functional>
#include <string>

namespace fabriclab::model {
class Catalog;
struct Design;
} // namespace fabriclab::model

namespace fabriclab::views {
class TopologyDocument;
}

namespace fabriclab::app {

class MainWindow;

/// File > Export: what an architect hands on, written from the model's own functions, byte
/// for byte what the CLI writes (the bill of materials as `fabriclab-cli bom`, the cabling
/// plan as `fabriclab-cli cabling`, Graphviz and Slurm files as `fabriclab-cli export`). Worked out
/// off the GUI thread; written atomically, so a failed export leaves no half-written file; a
/// failure is shown with the file and why.
class ExportActions : public QObject {
    Q_OBJECT

public:
    ExportActions(views::TopologyDocument& document, MainWindow& window);

    /// Writes the current design's bill of materials to `path`: JSON for *.json, CSV
    /// otherwise. Returns at once; exported() or failed() follows.
    void exportBillOfMaterials(const QString& path);
    /// The same for the cabling plan.
    void exportCablingPlan(const QString& path);
    /// The fabric as a Graphviz graph, as `fabriclab-cli export --format dot` writes it.
    void exportGraphviz(const QString& path);
    /// Slurm's topology.conf, as `fabriclab-cli export --format slurm` writes it.
    void exportSlurmTopology(const QString& path);
    /// An InfiniBand design as ibnetdiscover prints it; refused (failed()) on Ethernet.
    void exportIbnetdiscover(const QString& path);
    /// The canvas's drawing of the whole design (views::CanvasView::exportDrawing): SVG for
    /// *.svg, PNG otherwise. Drawn on the GUI thread, at once.
    void exportCanvas(const QString& path);

Q_SIGNALS:
    void exported(const QString& path);
    void failed(const QString& path, const QString& why);

private:
    /// The text of an export: CSV, or JSON when `json`. Runs on a worker thread.
    /// What a file holds: the design, the catalog, whether JSON is wanted, and the design's
    /// file when the design is saved as it is (its bytes fingerprint it in a JSON head).
    using Writer = std::function<std::string(const model::Design&, const model::Catalog&, bool,
                                             const std::string& savedFile)>;
    /// Asks where (a file dialog with `filter`, CSV or JSON when empty, offering the
    /// design's name + `suffix`, or `fileName`), then exports there.
    void ask(const QString& title, const QString& suffix, Writer writer, const QString& filter = {},
             const QString& fileName = {});
    void exportText(const QString& path, Writer writer);

    views::TopologyDocument& m_document;
    MainWindow& m_window;
    /// The text to write, or "error:" and why the design could not be priced.
    QFutureWatcher<std::pair<bool, QString>> m_watcher;
    QString m_path;
};

} // namespace fabriclab::app
