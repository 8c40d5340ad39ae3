// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>

namespace fabriclab::views {
class TopologyDocument;
}

namespace fabriclab::app {

class MainWindow;

/// File > Export: what an architect hands on, written from the model's own functions (the
/// bill of materials is model::bomCsv or model::bomJson of model::estimateCost, as
/// `fabriclab-cli bom` writes it). Worked out off the GUI thread; written atomically, so a
/// failed export leaves no half-written file; a failure is shown with the file and why.
class ExportActions : public QObject {
    Q_OBJECT

public:
    ExportActions(views::TopologyDocument& document, MainWindow& window);

    /// Writes the current design's bill of materials to `path`: JSON for *.json, CSV
    /// otherwise. Returns at once; exported() or failed() follows.
    void exportBillOfMaterials(const QString& path);

Q_SIGNALS:
    void exported(const QString& path);
    void failed(const QString& path, const QString& why);

private:
    void askForBillOfMaterials();

    views::TopologyDocument& m_document;
    MainWindow& m_window;
    /// The text to write, or "error:" and why the design could not be priced.
    QFutureWatcher<std::pair<bool, QString>> m_watcher;
    QString m_path;
};

} // namespace fabriclab::app
