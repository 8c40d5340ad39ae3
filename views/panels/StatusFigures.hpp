// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/sim/DesignFigures.hpp"

#include <QWidget>

#include <utility>
#include <vector>

class QFrame;
class QLabel;

namespace fabriclab::views {

/// The status bar's live figures for the design being edited: GPUs, switches per tier,
/// leaf oversubscription, theoretical bisection, fabric capex, and a warning sign when
/// the design has problems (its tooltip gives the first). Shows what DesignAnalyzer
/// computed; computes nothing itself. Until the first figures arrive it says
/// "Analysing…" rather than showing zeros that look like results.
///
/// Add it with QStatusBar::addPermanentWidget. It keeps its natural width (labels are
/// never squeezed into each other, whatever stretch the status bar gives it) and leaves
/// the rest of the bar to temporary messages. When the bar is too narrow for all the
/// figures, switch counts, capex and oversubscription give way, in that order.
class StatusFigures : public QWidget {
    Q_OBJECT

public:
    explicit StatusFigures(QWidget* parent = nullptr);

public Q_SLOTS:
    /// Shows `figures`. Note: this hides QWidget::show() by name, so that
    /// `connect(analyzer, &DesignAnalyzer::figuresChanged, figures, &StatusFigures::show)`
    /// needs no qOverload; use setVisible(true) to show the widget itself.
    void show(const fabriclab::views::DesignFigures& figures);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// Shows every figure the status bar has room for.
    void fitToStatusBar();

    QLabel* m_analysing; ///< shown until the first figures arrive
    QWidget* m_figures;  ///< the labels below, with their separators
    QLabel* m_gpus;
    QLabel* m_switches;
    QLabel* m_ratio;
    QLabel* m_bisection;
    QLabel* m_capex;
    QLabel* m_warning;  ///< the warning sign
    QLabel* m_problems; ///< "3 problems" beside it
    /// Figures and the separator before each, in the order they give way to a narrow bar.
    std::vector<std::pair<QLabel*, QFrame*>> m_giveWay;
};

} // namespace fabriclab::views
