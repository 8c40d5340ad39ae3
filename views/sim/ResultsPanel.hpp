// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/sim/DesignFigures.hpp"

#include <QWidget>

class QLabel;

namespace fabriclab::views {

/// The results dock: what the design delivers and costs, in sentences a presenter can
/// read out. It shows the analyzer's figures; simulated timelines join it later.
class ResultsPanel : public QWidget {
    Q_OBJECT

public:
    explicit ResultsPanel(QWidget* parent = nullptr);

public Q_SLOTS:
    void show(const fabriclab::views::DesignFigures& figures);

private:
    QLabel* m_text = nullptr;
};

} // namespace fabriclab::views
