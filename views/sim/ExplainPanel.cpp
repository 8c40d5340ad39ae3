// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/ExplainPanel.hpp"

#include "views/charts/LinkUtilizationChart.hpp"

#include "views/sim/EnginePool.hpp"

#include "model/catalog/Catalog.hpp"
#include "model/design/Failures.hpp"
#include "model/sim/Playback.hpp"
#include "views/models/NumberFormat.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace fabriclab::views {
namespace {

/// Rows a flow table lists: the fastest ones tell the story; an all-to-all has thousands.
constexpr int kMaxRows = 200;
/// Links a switch's explanation covers (a 128-port spine explained port by port).
constexpr int kMaxSwitchLinks = 160;

SelectionExplanation explain(const RunResultPtr& result, std::vector<model::LinkId> links) {
    SelectionExplanation out;
    out.revision = result->revision;
    if (!result->report.collectiveRefusal.empty()) {
        // The flows a link carries are the collective's: without one there are none to list.
        out.error = QString::fromStdString(result->report.collectiveRefusal);
        return out;
    }
    try {
        const model::Design& design = *result->design;
        const model::Topology running = model::afterFailures(design.topology, design.failures);
        std::vector<model::LinkId> present;
        for (const model::LinkId link : links)
            if (running.links().count(link))
                present.push_back(link);
            else if (design.topology.links().count(link))
                out.failedLinks << QString::fromStdString(
                    design.topology.node(design.topology.link(link).a).name + "/" +
                    design.topology.node(design.topology.link(link).b).name);
        if (present.empty())
            return out;
        // The network runDesign ran: the fabric evaluated and its ECMP seed.
        const sim::FabricNetwork network(running, result->report.fabric, model::RunOptions{}.seed);
        const model::GpuSpec gpu = design.workload ? design.workload->gpu.spec
                                                   : *model::Catalog::builtin().findGpu("h100-sxm");
        const sim::CollectiveGroup group = sim::groupOfServers(network, gpu);
        const auto transfers = sim::phaseTransfers(network, group, result->report.collective);
        out.links = sim::explainLinks(network, transfers, present);
    } catch (const std::exception& e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

QTableWidgetItem* cell(const QString& text, Qt::Alignment alignment = Qt::AlignLeft) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment | Qt::AlignVCenter);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

} // namespace

ExplainPanel::ExplainPanel(QWidget* parent)
    : QWidget(parent), m_reasonList(new QListWidget(this)), m_title(new QLabel(this)),
      m_summary(new QLabel(this)), m_table(new QTableWidget(this)),
      m_history(new LinkUtilizationChart(this)) {
    setObjectName(QStringLiteral("ExplainPanel"));
    m_reasonList->setObjectName(QStringLiteral("reasons"));
    m_reasonList->setWordWrap(true);
    m_reasonList->setToolTip(tr("Click a reason to select the elements it names"));
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_summary->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("flows"));
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_history->hide();

    auto* why = new QLabel(tr("Why is it this fast?"), this);
    why->setFont(bold);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(why);
    layout->addWidget(m_reasonList, 2);
    layout->addWidget(m_title);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 3);
    layout->addWidget(m_history, 2);
    m_title->setText(tr("Select a link, bundle or switch to see who loads it."));

    connect(m_reasonList, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const int row = m_reasonList->row(item);
        if (row < 0 || row >= static_cast<int>(m_reasons.size()))
            return;
        const auto& reason = m_reasons[static_cast<std::size_t>(row)];
        Q_EMIT elementsRequested(QList<model::NodeId>(reason.nodes.begin(), reason.nodes.end()),
                                 QList<model::LinkId>(reason.links.begin(), reason.links.end()));
    });
    m_reasonWatcher.setObjectName(QStringLiteral("slowdownReasons"));
    m_selectionWatcher.setObjectName(QStringLiteral("selectionExplanation"));
    connect(&m_reasonWatcher, &QFutureWatcher<std::vector<model::SlowdownReason>>::finished, this,
            &ExplainPanel::reasonsArrived);
    connect(&m_selectionWatcher, &QFutureWatcher<SelectionExplanation>::finished, this,
            &ExplainPanel::selectionArrived);
}

ExplainPanel::~ExplainPanel() {
    m_reasonWatcher.waitForFinished();
    m_selectionWatcher.waitForFinished();
}

void ExplainPanel::showResult(const RunResultPtr& result) {
    if (!result)
        return;
    if (!result->ok() || !result->design) {
        // Nothing to explain: say why rather than keep explaining the design before.
        clear(tr("No results: %1").arg(result->error));
        return;
    }
    m_result = result;
    m_reasonsFor = result;
    // On the engine's threads: on Qt's global pool a 16K-GPU explanation (seconds) made the
    // painter's parallel fills, and so the GUI thread, wait for it.
    m_reasonWatcher.setFuture(QtConcurrent::run(&enginePool(), [result] {
        enterEngineThread();
        return model::explainSlowdown(*result->design, result->report);
    }));
    explainSelection();
}

void ExplainPanel::clear(const QString& placeholder) {
    m_result.reset();
    m_reasons.clear();
    m_reasonList->clear();
    if (!placeholder.isEmpty())
        m_reasonList->addItem(placeholder);
    m_selection = {};
    m_nodes.clear();
    m_links.clear();
    m_title->setText(tr("Select a link, bundle or switch to see who loads it."));
    m_summary->clear();
    m_table->setRowCount(0);
    m_history->hide();
}

void ExplainPanel::setSelection(const QList<model::NodeId>& nodes,
                                const QList<model::LinkId>& links) {
    m_nodes = nodes;
    m_links = links;
    explainSelection();
}

void ExplainPanel::explainSelection() {
    if (!m_result)
        return;
    std::vector<model::LinkId> links(m_links.begin(), m_links.end());
    const model::Topology& topology = m_result->design->topology;
    if (links.empty() && m_nodes.size() == 1 && topology.contains(m_nodes.front()) &&
        model::isSwitch(topology.node(m_nodes.front()).kind)) {
        links = topology.linksOf(m_nodes.front());
        if (links.size() > static_cast<std::size_t>(kMaxSwitchLinks))
            links.resize(kMaxSwitchLinks);
    }
    std::erase_if(links, [&](model::LinkId id) { return !topology.links().count(id); });
    if (links.empty()) {
        m_selection = {};
        m_title->setText(tr("Select a link, bundle or switch to see who loads it."));
        m_summary->clear();
        m_table->clear();
        m_table->setRowCount(0);
        m_table->setColumnCount(0);
        m_history->hide();
        return;
    }
    m_title->setText(tr("Working out who loads it…"));
    m_selectionFor = m_result;
    m_selectionWatcher.setFuture(QtConcurrent::run(&enginePool(), [result = m_result, links] {
        enterEngineThread();
        return explain(result, links);
    }));
}

void ExplainPanel::waitForExplanations() {
    m_reasonWatcher.waitForFinished();
    m_selectionWatcher.waitForFinished();
    reasonsArrived();
    selectionArrived();
}

void ExplainPanel::reasonsArrived() {
    if (!m_reasonWatcher.future().isValid() || !m_reasonWatcher.isFinished() ||
        m_reasonWatcher.future().resultCount() == 0 || !m_result || m_reasonsFor != m_result)
        return;
    m_reasons = m_reasonWatcher.result();
    m_reasonList->clear();
    for (const auto& reason : m_reasons) {
        auto* item = new QListWidgetItem(QString::fromStdString(reason.text), m_reasonList);
        if (!reason.links.empty() || !reason.nodes.empty())
            item->setToolTip(tr("Click to select the %n element(s) this names", nullptr,
                                static_cast<int>(reason.links.size() + reason.nodes.size())));
    }
}

void ExplainPanel::selectionArrived() {
    if (!m_selectionWatcher.future().isValid() || !m_selectionWatcher.isFinished() ||
        m_selectionWatcher.future().resultCount() == 0 || !m_result || m_selectionFor != m_result)
        return;
    m_selection = m_selectionWatcher.result();
    if (!m_selection.error.isEmpty()) {
        m_title->setText(tr("Could not explain the selection"));
        m_summary->setText(m_selection.error);
        return;
    }
    if (m_selection.links.empty()) {
        m_title->setText(tr("Failed in this what-if: %1").arg(m_selection.failedLinks.join(", ")));
        m_summary->setText(tr("It carries nothing; its traffic moved to the links beside it."));
        m_table->setRowCount(0);
        m_history->hide();
        return;
    }
    // One link explained on its own; a switch's or a selection's several, busiest first.
    if (m_selection.links.size() == 1)
        showLink(m_selection.links.front());
    else
        showSwitch();
}

QString ExplainPanel::linkName(model::LinkId id) const {
    const model::Topology& topology = m_result->design->topology;
    const model::Link& link = topology.link(id);
    return QStringLiteral("%1 — %2").arg(engineText(topology.node(link.a).name),
                                         engineText(topology.node(link.b).name));
}

void ExplainPanel::showLink(const sim::LinkExplanation& e) {
    const model::Topology& topology = m_result->design->topology;
    const model::Link& link = topology.link(e.link);
    const QString a = engineText(topology.node(link.a).name);
    const QString b = engineText(topology.node(link.b).name);
    m_title->setText(tr("%1 (%n cable(s), %2 each way)", nullptr, link.count)
                         .arg(linkName(e.link), bandwidthText(e.capacityGbps)));
    QString summary = tr("In the %1's fabric phase: %2 → %3 %4 full, %3 → %2 %5 full; %n flow(s).",
                         nullptr, static_cast<int>(e.flows.size()))
                          .arg(engineText(model::toString(m_result->report.collective.op)), a, b,
                               percentText(e.loadAtoB), percentText(e.loadBtoA));
    if (e.collisions > 0)
        summary += QLatin1Char(' ') +
                   tr("ECMP collision: %1 flows hashed onto one cable while %n equal-cost cable "
                      "direction(s) leaving the same switch carry none.",
                      nullptr, e.idleSiblings)
                       .arg(e.flowsOnBusiestCable);
    m_summary->setText(summary);
    m_table->clear();
    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels({tr("From"), tr("To"), tr("Direction"), tr("Rate")});
    const int rows = std::min<int>(kMaxRows, static_cast<int>(e.flows.size()));
    m_table->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const sim::FlowOnLink& f = e.flows[static_cast<std::size_t>(r)];
        m_table->setItem(r, 0,
                         cell(QStringLiteral("%1 NIC %2")
                                  .arg(engineText(topology.node(f.from.server).name))
                                  .arg(f.from.nic)));
        m_table->setItem(r, 1,
                         cell(QStringLiteral("%1 NIC %2")
                                  .arg(engineText(topology.node(f.to.server).name))
                                  .arg(f.to.nic)));
        m_table->setItem(
            r, 2,
            cell(f.fromSideA ? a + QStringLiteral(" → ") + b : b + QStringLiteral(" → ") + a));
        m_table->setItem(r, 3, cell(bandwidthText(f.rateGbps), Qt::AlignRight));
    }
    m_table->resizeColumnsToContents();
    showHistory(e.link);
}

void ExplainPanel::showSwitch() {
    const model::Topology& topology = m_result->design->topology;
    auto links = m_selection.links;
    std::sort(links.begin(), links.end(), [](const auto& x, const auto& y) {
        return std::max(x.loadAtoB, x.loadBtoA) > std::max(y.loadAtoB, y.loadBtoA);
    });
    int flows = 0;
    int collisions = 0;
    for (const auto& e : links) {
        flows += static_cast<int>(e.flows.size());
        collisions += e.collisions;
    }
    const QString name = m_nodes.size() == 1 && topology.contains(m_nodes.front())
                             ? engineText(topology.node(m_nodes.front()).name)
                             : tr("Selection");
    m_title->setText(tr("%1: %n link(s)", nullptr, static_cast<int>(links.size())).arg(name));
    m_summary->setText(tr("%1 flow crossings in the %2's fabric phase; %3 ECMP collision(s). "
                          "Busiest first.")
                           .arg(flows)
                           .arg(engineText(model::toString(m_result->report.collective.op)))
                           .arg(collisions));
    m_table->clear();
    m_table->setColumnCount(5);
    m_table->setHorizontalHeaderLabels(
        {tr("Link"), tr("a → b"), tr("b → a"), tr("Flows"), tr("Collisions")});
    const int rows = std::min<int>(kMaxRows, static_cast<int>(links.size()));
    m_table->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const auto& e = links[static_cast<std::size_t>(r)];
        m_table->setItem(r, 0, cell(linkName(e.link)));
        m_table->setItem(r, 1, cell(percentText(e.loadAtoB), Qt::AlignRight));
        m_table->setItem(r, 2, cell(percentText(e.loadBtoA), Qt::AlignRight));
        m_table->setItem(r, 3, cell(QString::number(e.flows.size()), Qt::AlignRight));
        m_table->setItem(r, 4, cell(QString::number(e.collisions), Qt::AlignRight));
    }
    m_table->resizeColumnsToContents();
    if (!links.empty())
        showHistory(links.front().link);
}

void ExplainPanel::showHistory(model::LinkId link) {
    const auto& playback = m_result->report.playback;
    if (!playback || playback->frameCount() == 0) {
        m_history->hide();
        return;
    }
    const auto found = std::find(playback->links.begin(), playback->links.end(), link);
    if (found == playback->links.end()) {
        m_history->hide();
        return;
    }
    const auto index = static_cast<std::size_t>(found - playback->links.begin());
    m_history->showLink(*playback, index, linkName(link));
    m_history->show();
}

} // namespace fabriclab::views
