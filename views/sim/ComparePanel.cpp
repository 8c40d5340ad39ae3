// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/ComparePanel.hpp"

#include "model/fabric/Generators.hpp"

#include "views/charts/CompareChart.hpp"
#include "views/models/CompareTableModel.hpp"
#include "views/models/NumberFormat.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace fabriclab::views {
namespace {

constexpr int kFabricColumnMaxWidth = 260; ///< px

} // namespace

ComparePanel::ComparePanel(CompareController& controller, QWidget* parent)
    : QWidget(parent), m_controller(controller),
      m_compareAction(new QAction(tr("Compare fabrics"), this)),
      m_compareButton(new QPushButton(this)), m_cancelButton(new QPushButton(tr("Cancel"), this)),
      m_progress(new QProgressBar(this)), m_status(new QLabel(this)),
      m_staleBanner(new QLabel(this)), m_model(new CompareTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this)),
      m_chart(new CompareChart(this)), m_headline(new QLabel), m_reasons(new QLabel) {
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_compareAction->setStatusTip(
        tr("Run this design on every fabric side by side, with a verdict"));
    addAction(m_compareAction); // the shortcut works before the window adds it to a menu
    connect(m_compareAction, &QAction::triggered, &m_controller, &CompareController::compare);

    m_compareButton->setText(m_compareAction->text());
    m_compareButton->setToolTip(
        tr("%1 (%2)").arg(m_compareAction->statusTip(),
                          m_compareAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_compareButton, &QPushButton::clicked, m_compareAction, &QAction::trigger);
    connect(m_cancelButton, &QPushButton::clicked, &m_controller, &CompareController::cancel);
    m_progress->setFormat(tr("%v of %m fabrics"));
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_status->setText(tr("Runs the design on every fabric, each on its own core where there "
                         "is one."));

    m_staleBanner->setObjectName(QStringLiteral("staleBanner"));
    m_staleBanner->setText(tr("<b>The design has changed since this comparison.</b> The "
                              "figures below are for the design as it was; press Compare "
                              "fabrics to run it again."));
    m_staleBanner->setWordWrap(true);
    m_staleBanner->setFrameShape(QFrame::StyledPanel);
    m_staleBanner->setMargin(4);
    m_staleBanner->hide();

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CompareTableModel::SortRole);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setModel(m_proxy);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Rows stay in comparison order until a header is clicked.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);

    m_headline->setObjectName(QStringLiteral("verdictHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_reasons->setObjectName(QStringLiteral("verdictReasons"));
    m_reasons->setWordWrap(true);
    m_reasons->setTextFormat(Qt::RichText);
    m_reasons->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reasons->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    auto* verdict = new QWidget;
    auto* verdictLayout = new QVBoxLayout(verdict);
    auto* verdictTitle = new QLabel(tr("Verdict"));
    verdictTitle->setFont(bold);
    verdictLayout->addWidget(verdictTitle);
    verdictLayout->addWidget(m_headline);
    verdictLayout->addWidget(m_reasons);
    verdictLayout->addStretch();
    auto* verdictScroll = new QScrollArea;
    verdictScroll->setWidget(verdict);
    verdictScroll->setWidgetResizable(true);
    verdictScroll->setFrameShape(QFrame::NoFrame);
    verdictScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // wrap, never clip
    verdictScroll->setMinimumWidth(260);

    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_chart);
    bottom->addWidget(verdictScroll);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    bottom->setSizes({600, 400});
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(bottom);
    // The table keeps the height of its rows; the chart and verdict take the rest.
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);

    // How the clusters are paid for, and whether a cloud's own fabric joins (priced as the
    // cloud rents it): both change the verdict, so both make the comparison stale.
    auto* mode = new QComboBox(this);
    mode->setObjectName(QStringLiteral("ownershipMode"));
    mode->addItem(tr("Owned cluster"), static_cast<int>(model::OwnershipMode::Owned));
    mode->addItem(tr("Rented GPUs"), static_cast<int>(model::OwnershipMode::Rented));
    mode->setToolTip(tr("Owned: GPU servers, fabric and energy over the amortization period. "
                        "Rented: every GPU-hour at the GPU's on-demand price."));
    mode->setCurrentIndex(mode->findData(static_cast<int>(m_controller.ownershipMode())));
    connect(mode, &QComboBox::currentIndexChanged, this, [this, mode] {
        m_controller.setOwnershipMode(
            static_cast<model::OwnershipMode>(mode->currentData().toInt()));
    });
    auto* cloud = new QCheckBox(tr("Cloud fabrics"), this);
    cloud->setObjectName(QStringLiteral("includeCloudFabrics"));
    cloud->setToolTip(tr("Also compare a cloud's own fabric (AWS EFA), which cannot be "
                         "bought: it is priced as that cloud rents its servers."));
    cloud->setChecked(m_controller.includeCloudFabrics());
    connect(cloud, &QCheckBox::toggled, &m_controller, &CompareController::setIncludeCloudFabrics);

    // Topologies side by side: each fabric also rebuilt as another generator kind.
    auto* also = new QComboBox(this);
    also->setObjectName(QStringLiteral("alsoKind"));
    also->addItem(tr("This topology only"), QString());
    for (const model::GeneratorEntry* entry : model::generators())
        also->addItem(
            tr("Also as %1")
                .arg(QString::fromUtf8(entry->title.data(), static_cast<int>(entry->title.size()))),
            QString::fromUtf8(entry->kind.data(), static_cast<int>(entry->kind.size())));
    also->setToolTip(tr("Rebuild a generated design as another topology with the same servers "
                        "on every fabric, and compare the two side by side (a dragonfly+ "
                        "against its fat-tree)."));
    connect(also, &QComboBox::currentIndexChanged, this,
            [this, also] { m_controller.setAlsoKind(also->currentData().toString()); });

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_compareButton);
    bar->addWidget(mode);
    bar->addWidget(also);
    bar->addWidget(cloud);
    bar->addWidget(m_progress, 1);
    bar->addWidget(m_cancelButton);
    bar->addWidget(m_status, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_staleBanner);
    layout->addWidget(split, 1);

    connect(&m_controller, &CompareController::started, this, &ComparePanel::started);
    connect(&m_controller, &CompareController::progress, this, &ComparePanel::progressed);
    connect(&m_controller, &CompareController::finished, this, &ComparePanel::showResult);
    connect(&m_controller, &CompareController::cancelled, this, &ComparePanel::stopped);
    connect(&m_controller, &CompareController::staleChanged, this, &ComparePanel::showStale);
    setRunning(false);
    if (m_controller.result())
        showResult(m_controller.result());
    showStale(m_controller.isStale());
}

void ComparePanel::setRunning(bool running) {
    m_progress->setVisible(running);
    m_cancelButton->setVisible(running);
    m_status->setVisible(!running);
}

void ComparePanel::started() {
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    setRunning(true);
}

void ComparePanel::progressed(int done, int total) {
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
}

void ComparePanel::showResult(const CompareResultPtr& result) {
    setRunning(false);
    m_model->setResult(result);
    // Serving columns only for a design that serves a model: a training comparison keeps
    // the table it had.
    const bool serving = std::any_of(result->rows.cbegin(), result->rows.cend(),
                                     [](const CompareRow& row) { return row.outcome.serving; });
    for (const int column : {CompareTableModel::FirstTokenColumn, CompareTableModel::ServedColumn})
        m_table->setColumnHidden(column, !serving);
    m_table->resizeColumnsToContents();
    // Catalog names run to 70 characters; the full name is in the cell's tooltip.
    m_table->setColumnWidth(
        CompareTableModel::FabricColumn,
        std::min(m_table->columnWidth(CompareTableModel::FabricColumn), kFabricColumnMaxWidth));
    // Every fabric in sight without scrolling: there are seven at most.
    m_table->setMinimumHeight(
        m_table->horizontalHeader()->sizeHint().height() +
        m_model->rowCount() * m_table->verticalHeader()->defaultSectionSize() +
        2 * m_table->frameWidth() + m_table->horizontalScrollBar()->sizeHint().height());
    m_chart->setResult(result);
    const auto failed = std::count_if(result->rows.cbegin(), result->rows.cend(),
                                      [](const CompareRow& row) { return !row.ok(); });
    m_status->setText(failed == 0 ? tr("Compared %1 fabrics.").arg(result->rows.size())
                                  : tr("Compared %1 fabrics; %2 could not run this design.")
                                        .arg(result->rows.size())
                                        .arg(failed));
    m_headline->setText(QString::fromStdString(result->verdict.headline));
    QString reasons;
    for (const std::string& reason : result->verdict.reasons)
        reasons +=
            QStringLiteral("<li>%1</li>").arg(QString::fromStdString(reason).toHtmlEscaped());
    // Which prices the costs rest on, each with its source: every distinct price any row
    // was costed with (the servers and energy of an owned cluster, a GPU's or a cloud's
    // rental), so a customer can check or change them in the price list.
    QStringList prices;
    for (const CompareRow& row : result->rows)
        for (const model::PriceUsed& price : row.ownership.prices) {
            const QString line =
                tr("%1: %2 %3 (%4)")
                    .arg(QString::fromStdString(price.what), numberText(price.value, 4),
                         QString::fromStdString(price.unit), QString::fromStdString(price.source))
                    .toHtmlEscaped();
            if (!prices.contains(line))
                prices << line;
        }
    const QString mode = result->mode == model::OwnershipMode::Owned
                             ? tr("Costs are for an owned cluster: GPU servers, fabric and energy "
                                  "over the amortization period.")
                             : tr("Costs are for rented GPUs at each GPU's on-demand price.");
    QString text = reasons.isEmpty() ? QString() : QStringLiteral("<ul>%1</ul>").arg(reasons);
    text += QStringLiteral("<p>%1</p>").arg(mode.toHtmlEscaped());
    if (!prices.isEmpty())
        text += tr("<p>Prices used:</p><ul><li>%1</li></ul>")
                    .arg(prices.join(QStringLiteral("</li><li>")));
    m_reasons->setText(text);
    showStale(m_controller.isStale());
}

void ComparePanel::stopped() {
    setRunning(false);
    m_status->setText(m_controller.isStale() ? tr("Stopped: the design changed while comparing.")
                                             : tr("Stopped."));
}

void ComparePanel::showStale(bool stale) {
    m_staleBanner->setVisible(stale && m_controller.result());
    // Greyed, so a verdict for a design that no longer exists does not read as current.
    m_headline->setEnabled(!stale);
    m_reasons->setEnabled(!stale);
}

} // namespace fabriclab::views
