// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/report/Slowdown.hpp"
#include "model/sim/LinkExplain.hpp"
#include "views/sim/RunResult.hpp"

#include <QFutureWatcher>
#include <QList>
#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QTableWidget;

namespace fabriclab::views {

class LinkUtilizationChart;

/// What the explain panel shows for the selection, worked out on a worker thread.
struct SelectionExplanation {
    quint64 revision = 0;
    std::vector<sim::LinkExplanation> links;
    QStringList failedLinks; ///< selected links the what-if failures took out
    QString error;
};

/// Explain: "why is this slower?" for the current results (model::explainSlowdown), and
/// for the link, bundle or switch selected on the canvas the flows that cross it in the
/// collective's phase, their rates, ECMP collisions, and its utilization over the
/// collective's simulated time (the playback's own frames). Clicking a reason points at
/// the elements it names. Everything shown is the engine's; work runs off the GUI thread.
class ExplainPanel : public QWidget {
    Q_OBJECT

public:
    explicit ExplainPanel(QWidget* parent = nullptr);
    ~ExplainPanel() override;

    void showResult(const fabriclab::views::RunResultPtr& result);
    /// Drops everything explained, with what to show instead: another design was opened, and
    /// the reasons and flows of the one before must not stay beside it until its results
    /// arrive (or forever, with live updates off). Explanations still being worked out are
    /// dropped when they arrive.
    void clear(const QString& placeholder = {});
    void setSelection(const QList<model::NodeId>& nodes, const QList<model::LinkId>& links);
    /// Blocks until the reasons and the selection's explanation in progress are in.
    void waitForExplanations();
    const std::vector<model::SlowdownReason>& reasons() const { return m_reasons; }
    const SelectionExplanation& selection() const { return m_selection; }

Q_SIGNALS:
    /// The user picked a reason: select what it names on the canvas.
    void elementsRequested(const QList<fabriclab::model::NodeId>& nodes,
                           const QList<fabriclab::model::LinkId>& links);

private:
    void explainSelection();
    void reasonsArrived();
    void selectionArrived();
    void showLink(const sim::LinkExplanation& link);
    void showSwitch();
    void showHistory(model::LinkId link);
    QString linkName(model::LinkId link) const;

    RunResultPtr m_result;
    QList<model::NodeId> m_nodes;
    QList<model::LinkId> m_links;
    std::vector<model::SlowdownReason> m_reasons;
    SelectionExplanation m_selection;
    QListWidget* m_reasonList;
    QLabel* m_title;
    QLabel* m_summary;
    QTableWidget* m_table;
    LinkUtilizationChart* m_history;
    QFutureWatcher<std::vector<model::SlowdownReason>> m_reasonWatcher;
    QFutureWatcher<SelectionExplanation> m_selectionWatcher;
    /// The results the watchers work on: what arrives for another (cleared) is dropped.
    RunResultPtr m_reasonsFor;
    RunResultPtr m_selectionFor;
};

} // namespace fabriclab::views
