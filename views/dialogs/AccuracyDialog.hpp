// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/models/AccuracyTableModel.hpp"

#include <QDialog>
#include <QFutureWatcher>

#include <memory>
#include <stop_token>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTabWidget;
class QTableView;

namespace fabriclab::model {
class Catalog;
}

namespace fabriclab::views {

class AccuracyFilter;

/// Help > Model accuracy: every published figure FabricLab ships, run through the engine
/// (model::runValidation on a worker) on the cluster it was measured on: nccl-tests
/// collectives with the check set's score, training-step tables and reference-architecture
/// sizing, a tab each. The figures and verdicts are the ones `fabriclab-cli validate` prints
/// and the validation suite asserts, so what a user is shown is what the tests hold. Filter
/// the collectives by set, by text, or to the misses; hover a row for its source.
class AccuracyDialog : public QDialog {
    Q_OBJECT

public:
    explicit AccuracyDialog(const model::Catalog& catalog, QWidget* parent = nullptr);
    ~AccuracyDialog() override;

    /// True once every figure has run (or the run failed).
    bool isDone() const { return m_done; }
    /// Runs the figures of a user's file (measurements of their own cluster, in the format of
    /// resources/validation/nccl-tests.json) in place of FabricLab's. A file that cannot be
    /// read is named with its problem, and the table shown stays. False when refused.
    bool runOwnFigures(const QString& path);
    /// Back to FabricLab's own figures.
    void runBuiltinFigures();
    const AccuracyTableModel& table() const { return m_model; }
    const QStandardItemModel& stepTable() const { return *m_steps; }
    const QStandardItemModel& sizingTable() const { return *m_sizing; }
    const QStandardItemModel& costTable() const { return *m_cost; }

Q_SIGNALS:
    void done();

private:
    using Figures = std::shared_ptr<const std::vector<model::PublishedFigure>>;
    /// FabricLab's figures, steps and sizing when `own` is null; else only those.
    void start(Figures own);
    void chooseOwnFigures();
    void finished();
    void applyFilter();

    const model::Catalog& m_catalog;
    AccuracyTableModel m_model;
    AccuracyFilter* m_filter = nullptr;
    QLabel* m_score = nullptr;
    QProgressBar* m_progress = nullptr;
    QComboBox* m_set = nullptr;
    QLineEdit* m_text = nullptr;
    QCheckBox* m_missesOnly = nullptr;
    QTableView* m_view = nullptr;
    QTabWidget* m_tabs = nullptr;
    QStandardItemModel* m_steps = nullptr;
    QStandardItemModel* m_sizing = nullptr;
    QStandardItemModel* m_cost = nullptr;
    QFutureWatcher<ValidationReportPtr> m_watcher;
    std::stop_source m_stop;
    QString m_error; ///< set by the worker, read once it has finished
    bool m_done = false;
    Figures m_own;     ///< the user's figures on show, null for FabricLab's
    QString m_ownName; ///< their file's name
    QPushButton* m_ownButton = nullptr;
    QPushButton* m_builtinButton = nullptr;
};

} // namespace fabriclab::views
