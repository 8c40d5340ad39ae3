// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/sim/CompareController.hpp"

#include <QWidget>

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace fabriclab::views {

class CompareChart;
class CompareTableModel;

/// The fabric comparison: a "Compare fabrics" button (and its action, Ctrl+Shift+C, for
/// the main window's menu), progress while the fabrics run, the side-by-side table
/// (sortable), the chart, and the verdict (headline and reasons, as model::fabricVerdict
/// wrote them). A banner says when the design has changed since the comparison shown.
/// Shows what the controller delivers; computes nothing. Lives on the GUI thread.
class ComparePanel : public QWidget {
    Q_OBJECT

public:
    explicit ComparePanel(CompareController& controller, QWidget* parent = nullptr);

    /// Runs CompareController::compare(); owned by the panel, for the main window's menu.
    QAction* compareAction() const { return m_compareAction; }
    CompareTableModel* tableModel() const { return m_model; }
    CompareChart* chart() const { return m_chart; }

private:
    void started();
    void progressed(int done, int total);
    void showResult(const CompareResultPtr& result);
    void stopped();
    void showStale(bool stale);
    void setRunning(bool running);

    CompareController& m_controller;
    QAction* m_compareAction;
    QPushButton* m_compareButton;
    QPushButton* m_cancelButton;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_staleBanner;
    CompareTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    CompareChart* m_chart;
    QLabel* m_headline;
    QLabel* m_reasons;
};

} // namespace fabriclab::views
