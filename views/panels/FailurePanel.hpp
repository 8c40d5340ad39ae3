// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace fabriclab::views {

class TopologyDocument;

/// What-if failures for a drill or a demo: ready-made scenarios (lose a spine, a rail, 5% of
/// the links between switches), the list of what has failed, and a way back. Every change
/// is one undo step on the document; the canvas draws the failed elements and the results
/// follow as for any edit. Single elements are failed from the canvas's context menu.
class FailurePanel : public QWidget {
    Q_OBJECT

public:
    explicit FailurePanel(TopologyDocument& document, QWidget* parent = nullptr);

private:
    void syncFromDocument();
    void addScenario(const QString& text, int scenario);
    void restoreSelected();
    void restoreAll();

    TopologyDocument& m_document;
    QListWidget* m_list;
    QLabel* m_summary;
    QPushButton* m_restoreSelected;
    QPushButton* m_restoreAll;
};

} // namespace fabriclab::views
