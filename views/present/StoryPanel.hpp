// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QComboBox;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace fabriclab::views {

class TopologyDocument;

/// The presenter's story: the design file's saved steps, in order. "Add current state"
/// saves the fabric, oversubscription and failures on screen with the two charts picked
/// here; steps are renamed in place, reordered and removed, each change one undo step.
/// Show and Present are requests the presentation mode answers.
class StoryPanel : public QWidget {
    Q_OBJECT

public:
    explicit StoryPanel(TopologyDocument& document, QWidget* parent = nullptr);

    /// Saves the state on screen as the story's last step (also the menu's one click).
    void addCurrentState();
    QStringList chosenCharts() const;

Q_SIGNALS:
    void showRequested(int step);
    void presentRequested(int step);
    /// The two charts picked here changed (presentation shows them without a story).
    void chartsChosen(const QStringList& charts);

private:
    void syncFromDocument();
    void renamed(QListWidgetItem* item);
    void move(int by);
    void removeSelected();
    int selectedRow() const;

    TopologyDocument& m_document;
    QListWidget* m_list;
    QComboBox* m_firstChart;
    QComboBox* m_secondChart;
    QPushButton* m_show;
    QPushButton* m_remove;
    QPushButton* m_up;
    QPushButton* m_down;
    bool m_syncing = false;
};

} // namespace fabriclab::views
