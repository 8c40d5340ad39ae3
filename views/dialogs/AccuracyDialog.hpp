// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/CollectiveSpec.hpp"
#include "views/models/AccuracyTableModel.hpp"

#include <QDialog>
#include <QFutureWatcher>

#include <functional>
#include <memory>
#include <optional>
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
struct Design;
struct MeasuredComparison;
struct NcclTestsLog;
} // namespace fabriclab::model

namespace fabriclab::views {

class AccuracyFilter;
class MeasuredChart;

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
    /// Runs the figures of a user's file in place of FabricLab's: figures in the format of
    /// resources/validation/nccl-tests.json, or nccl-tests output (the printed table or a -J
    /// file) set row by row against the open design on the "Your measurements" tab. A file
    /// that cannot be read, or a log without an open design, is named with its problem and
    /// the tables shown stay. False when refused.
    bool runOwnFigures(const QString& path);
    /// Where a log's cluster comes from: the design open in the window, as it is when the
    /// log is chosen.
    void setOpenDesign(std::function<std::shared_ptr<const model::Design>()> openDesign);
    /// The collective of a log that does not name its own, asked of the user; a test
    /// answers in advance.
    void setCollectiveQuestion(std::function<std::optional<model::CollectiveOp>()> ask);
    /// The log's comparison on show; null before one has run.
    const model::MeasuredComparison* measured() const { return m_measured.get(); }
    const QStandardItemModel& measuredTable() const { return *m_measuredTable; }
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
    using MeasuredPtr = std::shared_ptr<const model::MeasuredComparison>;
    /// Sets the log against the open design on a worker; `op` for a log that names none.
    void startMeasured(std::shared_ptr<const model::NcclTestsLog> log,
                       std::optional<model::CollectiveOp> op);
    void measuredFinished();
    void showMeasuredRun(int index);
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

    // A team's nccl-tests log against the open design.
    std::function<std::shared_ptr<const model::Design>()> m_openDesign;
    std::function<std::optional<model::CollectiveOp>()> m_askCollective;
    QFutureWatcher<MeasuredPtr> m_measuredWatcher;
    std::shared_ptr<const model::NcclTestsLog> m_log;
    std::shared_ptr<const model::Design> m_logDesign;
    QString m_logName;
    bool m_unknownCollective = false; ///< set by the worker, read once it has finished
    MeasuredPtr m_measured;
    QWidget* m_measuredTab = nullptr;
    QLabel* m_measuredScore = nullptr;
    QComboBox* m_measuredRuns = nullptr;
    MeasuredChart* m_measuredChart = nullptr;
    QStandardItemModel* m_measuredTable = nullptr;
};

} // namespace fabriclab::views
