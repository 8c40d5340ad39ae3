// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/workload/LayoutPlan.hpp"

#include <QFuture>
#include <QWidget>

#include <string>

class QLabel;
class QPushButton;
class QTableView;

namespace fabriclab::views {

class PlanTableModel;
class TopologyDocument;

/// The Plan tab: the design's training job split every way that uses all its GPUs and fits
/// their memory, ranked by the step time predicted on its fabric (model::planLayouts, what
/// `fabriclab-cli plan` prints), on an engine thread. An edit clears the table: a plan is
/// of the design it was made for.
class PlanPanel : public QWidget {
    Q_OBJECT

public:
    /// Splits the tab lists, fastest first.
    static constexpr int kListed = 10;

    explicit PlanPanel(TopologyDocument& document, QWidget* parent = nullptr);
    ~PlanPanel() override;

    PlanTableModel* table() const { return m_model; }
    bool isPlanning() const { return m_planning; }

public Q_SLOTS:
    /// Ranks the current design's splits; says why not when it has no training job.
    void plan();

Q_SIGNALS:
    /// The table holds a plan of the current design (possibly empty: nothing fits).
    void planned();

private:
    /// What a planning run hands back: the plan, or why there is none.
    struct Outcome {
        model::LayoutPlan plan;
        std::string refusal;
    };
    void showOutcome(const Outcome& outcome, quint64 generation);
    void forget();

    TopologyDocument& m_document;
    PlanTableModel* m_model;
    QLabel* m_summary;
    QPushButton* m_run;
    QTableView* m_view;
    QFuture<void> m_task;
    bool m_planning = false;
    quint64 m_generation = 0; ///< edits seen: a plan of an older design is dropped
};

} // namespace fabriclab::views
