// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/sim/DesignFigures.hpp"

#include <QWidget>

class QLabel;

namespace fabriclab::views {

/// The status bar's live figures for the design being edited: GPUs, switches per tier,
/// leaf oversubscription, theoretical bisection, fabric capex, and a warning sign when
/// the design has problems (its tooltip gives the first). Shows what DesignAnalyzer
/// computed; computes nothing itself. Add it with QStatusBar::addPermanentWidget.
class StatusFigures : public QWidget {
    Q_OBJECT

public:
    explicit StatusFigures(QWidget* parent = nullptr);

public Q_SLOTS:
    /// Shows `figures`. Note: this hides QWidget::show() by name, so that
    /// `connect(analyzer, &DesignAnalyzer::figuresChanged, figures, &StatusFigures::show)`
    /// needs no qOverload; use setVisible(true) to show the widget itself.
    void show(const fabriclab::views::DesignFigures& figures);

private:
    QLabel* m_gpus;
    QLabel* m_switches;
    QLabel* m_ratio;
    QLabel* m_bisection;
    QLabel* m_capex;
    QLabel* m_warning;  ///< the warning sign
    QLabel* m_problems; ///< "3 problems" beside it
};

} // namespace fabriclab::views
