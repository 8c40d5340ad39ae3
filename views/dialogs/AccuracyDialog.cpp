// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/dialogs/AccuracyDialog.hpp"

#include "model/catalog/Catalog.hpp"
#include "model/core/Cancellation.hpp"
#include "model/io/NcclTestsLog.hpp"
#include "model/io/TextFile.hpp"
#include "model/validation/MeasuredLog.hpp"
#include "views/charts/MeasuredChart.hpp"
#include "views/models/AccuracyTables.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/sim/EnginePool.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace fabriclab::views {

/// Rows of one set, those whose figure or cluster holds the text, and optionally only the
/// figures outside their tolerance.
class AccuracyFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    enum class Set { All, Check, Fit };

    void setCriteria(Set set, const QString& text, bool missesOnly) {
        m_set = set;
        m_text = text.trimmed();
        m_missesOnly = missesOnly;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        const QAbstractItemModel* m = sourceModel();
        const bool check = m->index(row, 0, parent).data(AccuracyTableModel::IsCheckRole).toBool();
        if ((m_set == Set::Check && !check) || (m_set == Set::Fit && check))
            return false;
        if (m_missesOnly && m->index(row, AccuracyTableModel::VerdictColumn, parent)
                                    .data(AccuracyTableModel::SortRole)
                                    .toInt() == 0)
            return false;
        if (m_text.isEmpty())
            return true;
        for (const int column : {AccuracyTableModel::FigureColumn,
                                 AccuracyTableModel::ClusterColumn, AccuracyTableModel::TestColumn})
            if (m->index(row, column, parent)
                    .data()
                    .toString()
                    .contains(m_text, Qt::CaseInsensitive))
                return true;
        return false;
    }

private:
    Set m_set = Set::All;
    QString m_text;
    bool m_missesOnly = false;
};

namespace {

/// A read-only table of figures, a row at a time, sorted by clicking a column.
QTableView* sortedTable(QAbstractItemModel* model, const char* name, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(QString::fromLatin1(name));
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

} // namespace

AccuracyDialog::AccuracyDialog(const model::Catalog& catalog, QWidget* parent)
    : QDialog(parent), m_catalog(catalog), m_model(this) {
    setWindowTitle(tr("Model accuracy — FabricLab"));
    setObjectName(QStringLiteral("AccuracyDialog"));
    auto* layout = new QVBoxLayout(this);

    auto* intro = new QLabel(
        tr("FabricLab against published measurements, each run on the cluster it was measured "
           "on: nccl-tests and rccl-tests collectives, training-step tables and vendor "
           "reference architectures and priced build-outs. <b>Check</b> figures were never "
           "tuned to; <b>fit</b> figures calibrated a constant and are shown, not counted. A "
           "collective holds within 10% for large messages, 25% for 1 to 64 MiB and "
           "small-message times, and 20% for all-to-all; a step time and a cost per GPU within "
           "15%; sizing exactly. A known miss says why it misses. Hover a row for its source."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_score = new QLabel(tr("Running the published figures…"), this);
    m_score->setObjectName(QStringLiteral("score"));
    m_score->setWordWrap(true);
    m_score->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_score);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("progress"));
    layout->addWidget(m_progress);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("tabs"));
    auto* collectives = new QWidget(m_tabs);
    auto* collectivesLayout = new QVBoxLayout(collectives);
    collectivesLayout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    m_set = new QComboBox(this);
    m_set->setObjectName(QStringLiteral("set"));
    m_set->addItems({tr("Every figure"), tr("Check set"), tr("Fit set")});
    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("text"));
    m_text->setPlaceholderText(tr("Filter: figure, GPU, fabric, operation…"));
    m_text->setClearButtonEnabled(true);
    m_missesOnly = new QCheckBox(tr("Outside tolerance only"), this);
    m_missesOnly->setObjectName(QStringLiteral("missesOnly"));
    controls->addWidget(m_set);
    controls->addWidget(m_text, 1);
    controls->addWidget(m_missesOnly);
    collectivesLayout->addLayout(controls);

    m_filter = new AccuracyFilter(this);
    m_filter->setSourceModel(&m_model);
    m_filter->setSortRole(AccuracyTableModel::SortRole);
    m_view = sortedTable(m_filter, "figures", collectives);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    collectivesLayout->addWidget(m_view, 1);
    m_tabs->addTab(collectives, tr("Collectives"));
    // Step times and sizing: all checks, a table each, sorted by their numbers.
    const auto addTable = [this](QStandardItemModel*& model, const char* name,
                                 const QString& title) {
        model = new QStandardItemModel(this);
        auto* proxy = new QSortFilterProxyModel(this);
        proxy->setSourceModel(model);
        proxy->setSortRole(Qt::UserRole);
        m_tabs->addTab(sortedTable(proxy, name, m_tabs), title);
    };
    addTable(m_steps, "steps", tr("Training step"));
    addTable(m_sizing, "sizing", tr("Sizing"));
    addTable(m_cost, "cost", tr("Cost"));
    // A team's own nccl-tests log against the open design: shown once one has run.
    m_measuredTab = new QWidget(m_tabs);
    auto* measuredLayout = new QVBoxLayout(m_measuredTab);
    measuredLayout->setContentsMargins(0, 0, 0, 0);
    m_measuredScore = new QLabel(m_measuredTab);
    m_measuredScore->setObjectName(QStringLiteral("measuredScore"));
    m_measuredScore->setWordWrap(true);
    m_measuredScore->setTextInteractionFlags(Qt::TextSelectableByMouse);
    measuredLayout->addWidget(m_measuredScore);
    m_measuredRuns = new QComboBox(m_measuredTab);
    m_measuredRuns->setObjectName(QStringLiteral("measuredRuns"));
    m_measuredRuns->setToolTip(tr("The run of the log the chart shows"));
    measuredLayout->addWidget(m_measuredRuns);
    auto* splitter = new QSplitter(Qt::Vertical, m_measuredTab);
    m_measuredChart = new MeasuredChart(splitter);
    m_measuredTable = new QStandardItemModel(this);
    auto* measuredProxy = new QSortFilterProxyModel(this);
    measuredProxy->setSourceModel(m_measuredTable);
    measuredProxy->setSortRole(Qt::UserRole);
    splitter->addWidget(m_measuredChart);
    splitter->addWidget(sortedTable(measuredProxy, "measured", splitter));
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    measuredLayout->addWidget(splitter, 1);
    m_tabs->addTab(m_measuredTab, tr("Your measurements"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_measuredTab), false);
    connect(m_measuredRuns, &QComboBox::currentIndexChanged, this,
            &AccuracyDialog::showMeasuredRun);
    layout->addWidget(m_tabs, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // A user's own measurements run the same way: how close FabricLab comes on their cluster.
    m_ownButton = buttons->addButton(tr("Your own figures…"), QDialogButtonBox::ActionRole);
    m_ownButton->setObjectName(QStringLiteral("ownFigures"));
    m_ownButton->setToolTip(
        tr("Set nccl-tests output from your cluster (the table all_reduce_perf and its "
           "siblings print, or their -J JSON file) against the open design, row by row; or "
           "run figures in the format of FabricLab's resources/validation/nccl-tests.json"));
    connect(m_ownButton, &QPushButton::clicked, this, &AccuracyDialog::chooseOwnFigures);
    m_builtinButton = buttons->addButton(tr("FabricLab's figures"), QDialogButtonBox::ActionRole);
    m_builtinButton->setObjectName(QStringLiteral("builtinFigures"));
    m_builtinButton->hide();
    connect(m_builtinButton, &QPushButton::clicked, this, &AccuracyDialog::runBuiltinFigures);
    layout->addWidget(buttons);

    connect(m_set, &QComboBox::currentIndexChanged, this, &AccuracyDialog::applyFilter);
    connect(m_text, &QLineEdit::textChanged, this, &AccuracyDialog::applyFilter);
    connect(m_missesOnly, &QCheckBox::toggled, this, &AccuracyDialog::applyFilter);
    connect(&m_watcher, &QFutureWatcher<ValidationReportPtr>::finished, this,
            &AccuracyDialog::finished);
    connect(&m_measuredWatcher, &QFutureWatcher<MeasuredPtr>::finished, this,
            &AccuracyDialog::measuredFinished);
    m_askCollective = [this]() -> std::optional<model::CollectiveOp> {
        const QStringList binaries{
            QStringLiteral("all_reduce_perf"),     QStringLiteral("all_gather_perf"),
            QStringLiteral("reduce_scatter_perf"), QStringLiteral("alltoall_perf"),
            QStringLiteral("broadcast_perf"),      QStringLiteral("sendrecv_perf")};
        bool ok = false;
        const QString chosen = QInputDialog::getItem(
            this, tr("Which collective?"),
            tr("%1 does not say which collective it measured.\nWhich nccl-tests binary printed "
               "it?")
                .arg(m_logName),
            binaries, 0, false, &ok);
        if (!ok)
            return std::nullopt;
        return model::collectiveOfBinary(chosen.toStdString());
    };
    resize(1360, 680);
    start(nullptr);
}

AccuracyDialog::~AccuracyDialog() {
    m_stop.request_stop();
    m_watcher.waitForFinished();
    m_measuredWatcher.waitForFinished();
}

void AccuracyDialog::setOpenDesign(
    std::function<std::shared_ptr<const model::Design>()> openDesign) {
    m_openDesign = std::move(openDesign);
}

void AccuracyDialog::setCollectiveQuestion(
    std::function<std::optional<model::CollectiveOp>()> ask) {
    m_askCollective = std::move(ask);
}

void AccuracyDialog::start(Figures own) {
    if (m_watcher.isRunning() || m_measuredWatcher.isRunning()) {
        // One run at a time: the buttons wait for this one.
        return;
    }
    m_own = std::move(own);
    m_done = false;
    m_error.clear();
    m_stop = std::stop_source();
    m_ownButton->setEnabled(false);
    m_builtinButton->setEnabled(false);
    const std::size_t total = m_own ? m_own->size()
                                    : model::builtinPublishedFigures().size() +
                                          model::builtinStepFigures().size() +
                                          model::builtinArchitectureFigures().size() +
                                          model::builtinBuildOutFigures().size();
    m_progress->setRange(0, static_cast<int>(total));
    m_progress->setValue(0);
    m_progress->show();
    m_score->setText(m_own ? tr("Running %1…").arg(m_ownName)
                           : tr("Running the published figures…"));
    m_watcher.setFuture(QtConcurrent::run(
        &enginePool(),
        [this, &catalog = m_catalog, stop = m_stop.get_token(),
         own = m_own]() -> ValidationReportPtr {
            enterEngineThread();
            try {
                return std::make_shared<const model::ValidationReport>(model::runValidation(
                    catalog, model::FigureSet::All, stop,
                    [this](int done, int) {
                        QMetaObject::invokeMethod(
                            this, [this, done] { m_progress->setValue(done); },
                            Qt::QueuedConnection);
                    },
                    own.get()));
            } catch (const model::Cancelled&) {
                return nullptr;
            } catch (const std::exception& e) {
                m_error = QString::fromStdString(e.what()); // read after finished()
                return nullptr;
            }
        }));
}

void AccuracyDialog::chooseOwnFigures() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Your own figures"), QString(),
        tr("nccl-tests output or figures (*.txt *.log *.out *.json);;All files (*)"));
    if (!path.isEmpty())
        runOwnFigures(path);
}

bool AccuracyDialog::runOwnFigures(const QString& path) {
    if (m_watcher.isRunning() || m_measuredWatcher.isRunning())
        return false;
    const QString name = QFileInfo(path).fileName();
    try {
        // nccl-tests logs with NCCL's INFO lines run to megabytes; figures files are small.
        constexpr std::uintmax_t kMaxBytes = 64u << 20;
        const std::string text = model::readTextFile(path.toStdString(), kMaxBytes, "figures");
        if (model::isPublishedFigureFile(text)) {
            auto figures = std::make_shared<const std::vector<model::PublishedFigure>>(
                model::readPublishedFigures(text, path.toStdString()));
            m_ownName = name;
            start(std::move(figures));
            return true;
        }
        auto log = std::make_shared<const model::NcclTestsLog>(
            model::readNcclTestsLog(text, name.toStdString()));
        std::shared_ptr<const model::Design> design = m_openDesign ? m_openDesign() : nullptr;
        if (!design)
            throw std::invalid_argument(name.toStdString() +
                                        ": nccl-tests output is set against the design it was "
                                        "measured on; open that design first");
        m_logName = name;
        m_logDesign = std::move(design);
        startMeasured(std::move(log), std::nullopt);
        return true;
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Your own figures"),
                             tr("FabricLab cannot read these figures; the tables stay as they "
                                "were.\n\n%1")
                                 .arg(QString::fromStdString(e.what())));
        return false;
    }
}

void AccuracyDialog::startMeasured(std::shared_ptr<const model::NcclTestsLog> log,
                                   std::optional<model::CollectiveOp> op) {
    m_log = std::move(log);
    m_done = false;
    m_error.clear();
    m_unknownCollective = false;
    m_stop = std::stop_source();
    m_ownButton->setEnabled(false);
    m_builtinButton->setEnabled(false);
    m_progress->setRange(0, static_cast<int>(m_log->runs.size()));
    m_progress->setValue(0);
    m_progress->show();
    m_score->setText(tr("Setting %1 against %2…")
                         .arg(m_logName.toHtmlEscaped(),
                              QString::fromStdString(m_logDesign->name).toHtmlEscaped()));
    m_measuredWatcher.setFuture(QtConcurrent::run(
        &enginePool(),
        [this, &catalog = m_catalog, log = m_log, design = m_logDesign, op,
         name = m_logName.toStdString(), stop = m_stop.get_token()]() -> MeasuredPtr {
            enterEngineThread();
            try {
                model::MeasuredOptions options;
                options.op = op;
                options.stop = stop;
                options.progress = [this](int done, int) {
                    QMetaObject::invokeMethod(
                        this, [this, done] { m_progress->setValue(done); }, Qt::QueuedConnection);
                };
                return std::make_shared<const model::MeasuredComparison>(
                    model::compareMeasured(*design, catalog, *log, name, options));
            } catch (const model::UnknownCollective&) {
                m_unknownCollective = true; // read after finished()
                return nullptr;
            } catch (const model::Cancelled&) {
                return nullptr;
            } catch (const std::exception& e) {
                m_error = QString::fromStdString(e.what()); // read after finished()
                return nullptr;
            }
        }));
}

void AccuracyDialog::measuredFinished() {
    m_progress->hide();
    m_ownButton->setEnabled(true);
    m_builtinButton->setEnabled(true);
    const MeasuredPtr result = m_measuredWatcher.result();
    if (!result && m_unknownCollective && m_askCollective) {
        if (const std::optional<model::CollectiveOp> op = m_askCollective()) {
            startMeasured(m_log, op);
            return;
        }
    }
    m_done = true;
    if (!result) {
        const QString why =
            m_unknownCollective ? tr("it does not say which collective it measured") : m_error;
        m_score->setText(why.isEmpty() ? tr("Stopped.")
                                       : tr("%1 was not set against the design: %2")
                                             .arg(m_logName.toHtmlEscaped(), why.toHtmlEscaped()));
        if (!why.isEmpty() && isVisible())
            QMessageBox::warning(this, tr("Your own figures"),
                                 tr("FabricLab cannot set this log against the open design; "
                                    "the tables stay as they were.\n\n%1")
                                     .arg(why));
        Q_EMIT done();
        return;
    }
    m_measured = result;
    const model::MeasuredComparison& c = *result;
    fillMeasuredTable(*m_measuredTable, c);
    QString summary =
        tr("<b>%1 against %2</b> (fabric %3, GPU %4): <b>%5 of %6 sizes within tolerance</b> · "
           "error: mean %7, median %8")
            .arg(QString::fromStdString(c.logName).toHtmlEscaped(),
                 QString::fromStdString(c.designName).toHtmlEscaped(),
                 QString::fromStdString(c.fabricId), QString::fromStdString(c.gpuId))
            .arg(c.within)
            .arg(c.compared)
            .arg(percentText(c.meanAbsError), percentText(c.medianAbsError));
    m_score->setText(summary);
    for (const model::MeasuredRun& run : c.runs)
        for (const std::string& note : run.notes)
            summary += QStringLiteral("<br>") +
                       tr("%1: %2").arg(QString::fromStdString(run.binary),
                                        QString::fromStdString(note).toHtmlEscaped());
    m_measuredScore->setText(summary);
    const QSignalBlocker quiet(m_measuredRuns);
    m_measuredRuns->clear();
    for (const model::MeasuredRun& run : c.runs)
        m_measuredRuns->addItem(tr("%1 (line %2): %3 of %4 within tolerance")
                                    .arg(QString::fromStdString(run.binary))
                                    .arg(run.line)
                                    .arg(run.within)
                                    .arg(run.compared));
    m_measuredRuns->setVisible(c.runs.size() > 1);
    showMeasuredRun(0);
    const int tab = m_tabs->indexOf(m_measuredTab);
    m_tabs->setTabVisible(tab, true);
    m_tabs->setTabText(tab, tr("Your measurements (%1)").arg(c.compared));
    m_tabs->setCurrentIndex(tab);
    auto* view = findChild<QTableView*>(QStringLiteral("measured"));
    view->sortByColumn(1, Qt::AscendingOrder); // the log's own order, line by line
    view->resizeColumnsToContents();
    Q_EMIT done();
}

void AccuracyDialog::showMeasuredRun(int index) {
    if (!m_measured || index < 0 || index >= static_cast<int>(m_measured->runs.size()))
        return;
    m_measuredChart->showRun(m_measured->runs[static_cast<std::size_t>(index)],
                             QString::fromStdString(m_measured->designName));
}

void AccuracyDialog::runBuiltinFigures() {
    start(nullptr);
}

void AccuracyDialog::finished() {
    m_done = true;
    m_progress->hide();
    m_ownButton->setEnabled(true);
    m_builtinButton->setEnabled(true);
    m_builtinButton->setVisible(m_own != nullptr);
    const ValidationReportPtr report = m_watcher.result();
    if (!report) {
        m_score->setText(m_error.isEmpty() ? tr("Stopped.")
                                           : tr("The figures could not be run: %1").arg(m_error));
        Q_EMIT done();
        return;
    }
    // The collectives' line, then, for FabricLab's own figures, the step times and sizing.
    const model::ValidationScore& s = report->score;
    const auto oneDecimal = [](double fraction) {
        return QString::number(100 * fraction, 'f', 1) + QLatin1Char('%');
    };
    QString score = tr("<b>%1: %2 of %3 check figures within tolerance</b> · error against the %4 "
                       "figure: mean %5, median %6 · fit set: %7 figures")
                        .arg(m_own ? m_ownName.toHtmlEscaped() : tr("Collectives"))
                        .arg(s.checkWithin)
                        .arg(s.checkCount)
                        .arg(m_own ? tr("measured") : tr("published"),
                             oneDecimal(s.meanAbsCheckError), oneDecimal(s.medianAbsCheckError))
                        .arg(s.fitCount);
    if (!m_own)
        score += tr(" · <b>training step: %1 of %2</b> · <b>sizing: %3 of %4 exact</b> · "
                    "<b>cost per GPU: %5 of %6</b>")
                     .arg(s.stepWithin)
                     .arg(s.stepCount)
                     .arg(s.architectureExact)
                     .arg(s.architectureCount)
                     .arg(s.buildOutWithin)
                     .arg(s.buildOutCount);
    m_score->setText(score);
    fillStepTable(*m_steps, *report);
    fillSizingTable(*m_sizing, *report);
    fillCostTable(*m_cost, *report);
    m_tabs->setTabText(0, tr("Collectives (%1)").arg(report->figures.size()));
    m_tabs->setTabText(1, tr("Training step (%1)").arg(report->steps.size()));
    m_tabs->setTabText(2, tr("Sizing (%1)").arg(report->architectures.size()));
    m_tabs->setTabText(3, tr("Cost (%1)").arg(report->buildOuts.size()));
    for (auto* view : {findChild<QTableView*>(QStringLiteral("steps")),
                       findChild<QTableView*>(QStringLiteral("sizing")),
                       findChild<QTableView*>(QStringLiteral("cost"))}) {
        view->resizeColumnsToContents();
        view->sortByColumn(0, Qt::AscendingOrder);
    }
    m_model.setReport(report);
    m_view->resizeColumnsToContents();
    // The longest ids (a 20-rack run at one size) would push the verdict out of sight; the
    // full id is in the tooltip.
    m_view->setColumnWidth(AccuracyTableModel::FigureColumn,
                           std::min(m_view->columnWidth(AccuracyTableModel::FigureColumn), 260));
    m_view->sortByColumn(AccuracyTableModel::FigureColumn, Qt::AscendingOrder);
    applyFilter();
    Q_EMIT done();
}

void AccuracyDialog::applyFilter() {
    const auto set = static_cast<AccuracyFilter::Set>(m_set->currentIndex());
    m_filter->setCriteria(set, m_text->text(), m_missesOnly->isChecked());
}

} // namespace fabriclab::views
