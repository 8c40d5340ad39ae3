// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Link.hpp"
#include "model/topology/Node.hpp"

#include <QList>
#include <QWidget>

class QLabel;
class QTableView;

namespace fabriclab::views {

class PropertyTableModel;
class TopologyDocument;

/// The properties of the canvas selection, editable in place with undo. A title names
/// the selection; a refused edit is said at once under its cell (a tooltip) and by a red
/// line under the table, naming the field, the value and the range it takes, which clears
/// on the next accepted edit or selection. All state lives in the document; the panel only
/// shows PropertyTableModel.
class InspectorPanel : public QWidget {
    Q_OBJECT

public:
    explicit InspectorPanel(TopologyDocument& document, QWidget* parent = nullptr);
    ~InspectorPanel() override;

    /// What the canvas has selected. Ids the design does not hold are ignored.
    void setSelection(const QList<model::NodeId>& nodes, const QList<model::LinkId>& links);
    PropertyTableModel* model() const { return m_model; }

private:
    void updateTitle();
    void showRefusal(const QString& reason);

    PropertyTableModel* m_model;
    QLabel* m_title;
    QTableView* m_table;
    QLabel* m_refusal;
    QLabel* m_placeholder;
};

} // namespace fabriclab::views
