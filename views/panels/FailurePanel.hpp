// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Failures.hpp"

#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QPushButton;

namespace fabriclab::views {

class TopologyDocument;

/// What-if failures for a drill or a demo: ready-made scenarios (lose a spine, a rail, 5% of
/// the links between switches), the list of what has failed, and a way back. Every change
/// is one undo step on the document; the canvas draws the failed elements and the results
/// follow as for any edit. Single elements are failed from the canvas's context menu.
/// A scenario is offered only when the design has what it fails (no "lose a spine" on a
/// design without spines or cores, no rail without rail leaves, no links without cables
/// between switches) and it has not failed already; a disabled button's tooltip says why.
class FailurePanel : public QWidget {
    Q_OBJECT

public:
    explicit FailurePanel(TopologyDocument& document, QWidget* parent = nullptr);

private:
    void syncFromDocument();
    void addScenario(const QString& text, int scenario);
    void restoreSelected();
    void restoreAll();

    /// Enables each scenario the design has elements for, with a tooltip saying what it
    /// fails or why it cannot.
    void offerScenarios();

    TopologyDocument& m_document;
    QPushButton* m_loseSpine;
    QPushButton* m_loseRail;
    QPushButton* m_loseLinks;
    QPushButton* m_losePlane; ///< shown for designs with NIC-port planes only
    QListWidget* m_list;
    QLabel* m_summary;
    QPushButton* m_restoreSelected;
    QPushButton* m_restoreAll;
};

} // namespace fabriclab::views
