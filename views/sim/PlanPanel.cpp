// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/PlanPanel.hpp"

#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/models/PlanTableModel.hpp"
#include "views/sim/EngineTask.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <exception>

namespace fabriclab::views {

PlanPanel::PlanPanel(TopologyDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document), m_model(new PlanTableModel(this)),
      m_summary(new QLabel(this)), m_run(new QPushButton(tr("Plan the training job"), this)),
      m_view(new QTableView(this)) {
    setObjectName(QStringLiteral("plan"));
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("planSummary"));
    m_run->setObjectName(QStringLiteral("planRun"));
    m_view->setModel(m_model);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The split's words take the room; the figures keep their own width beside it.
    m_view->horizontalHeader()->setSectionResizeMode(PlanTableModel::Split, QHeaderView::Stretch);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* top = new QHBoxLayout;
    top->addWidget(m_run);
    top->addWidget(m_summary, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    connect(m_run, &QPushButton::clicked, this, &PlanPanel::plan);
    connect(&m_document, &TopologyDocument::changed, this, &PlanPanel::forget);
    m_summary->setText(tr("Ranks every way to split the design's training job over its GPUs "
                          "that fits their memory, by the step time predicted on this fabric."));
}

PlanPanel::~PlanPanel() {
    m_task.waitForFinished(); // the planner lets go within a second
}

void PlanPanel::forget() {
    ++m_generation;
    if (m_model->rowCount() > 0 || m_planning)
        m_summary->setText(tr("The design changed: plan again to rank its splits."));
    m_model->setLayouts({});
}

void PlanPanel::plan() {
    const auto design = m_document.snapshot();
    if (!design->workload) {
        m_summary->setText(tr("This design has no training job: give it a workload (model, GPU, "
                              "batch) to plan how to split it."));
        return;
    }
    if (m_planning)
        return;
    m_planning = true;
    m_run->setEnabled(false);
    m_summary->setText(tr("Ranking the splits…"));
    m_task = runForReceiver(
        this,
        [design] {
            Outcome outcome;
            try {
                const sim::FabricNetwork network(design->topology, design->fabric.spec);
                outcome.plan = model::planLayouts(network, *design->workload, kListed);
            } catch (const std::exception& e) {
                outcome.refusal = e.what();
            }
            return outcome;
        },
        [this, generation = m_generation](const Outcome& outcome) {
            showOutcome(outcome, generation);
        });
}

void PlanPanel::showOutcome(const Outcome& outcome, quint64 generation) {
    m_planning = false;
    m_run->setEnabled(true);
    if (generation != m_generation)
        return; // planned for a design since edited: forget() said so
    if (!outcome.refusal.empty()) {
        m_summary->setText(
            tr("Cannot plan this design: %1").arg(QString::fromStdString(outcome.refusal)));
        return;
    }
    const model::LayoutPlan& plan = outcome.plan;
    m_model->setLayouts(plan.ranked);
    if (plan.ranked.empty())
        m_summary->setText(tr("%1 splits use every GPU and none fits in memory: add GPUs, take a "
                              "larger GPU, shard more (a higher ZeRO stage) or recompute.")
                               .arg(numberText(plan.considered)));
    else
        m_summary->setText(tr("%1 splits use every GPU, %2 fit in memory; the %3 fastest on %4, "
                              "with compute predicted from the hardware.")
                               .arg(numberText(plan.considered), numberText(plan.fitting),
                                    numberText(static_cast<double>(plan.ranked.size())),
                                    QString::fromStdString(m_document.design().fabric.spec.name)));
    Q_EMIT planned();
}

} // namespace fabriclab::views
