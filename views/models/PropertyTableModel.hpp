// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Link.hpp"
#include "model/topology/Node.hpp"
#include "views/models/PropertyRows.hpp"

#include <QAbstractTableModel>
#include <QList>
#include <QString>
#include <QVariant>

#include <set>
#include <vector>

namespace fabriclab::views {

class TopologyDocument;

/// The inspector's table: one row per property of the selection, two columns (property,
/// value). A single node or link is editable; every accepted edit goes through
/// TopologyDocument::editNode / editLink and so is one undo step. Values the design
/// cannot take (zero, negative, a radix below the ports in use, a duplicate name) are
/// refused: setData returns false, nothing changes and refused() says why. Several
/// selected items show a read-only summary (counts by kind, GPUs, cables).
///
/// The rows are a display cache of the document, rebuilt from its signals; the document
/// stays the state of record. Ids that stop existing leave the selection.
class PropertyTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { PropertyColumn, ValueColumn, ColumnCount };
    enum Role {
        /// QStringList of the values a row accepts (a combo box editor); empty otherwise.
        ChoicesRole = Qt::UserRole + 1,
    };

    explicit PropertyTableModel(TopologyDocument& document, QObject* parent = nullptr);

    /// Shows the properties of these items; ids the design does not hold are dropped.
    void setSelection(const QList<model::NodeId>& nodes, const QList<model::LinkId>& links);
    const QList<model::NodeId>& selectedNodes() const { return m_nodes; }
    const QList<model::LinkId>& selectedLinks() const { return m_links; }
    /// One line naming the selection ("leaf-3 (leaf)", "srv-1 – leaf-1", "12 nodes,
    /// 3 links"); empty when nothing is selected.
    QString title() const { return m_title; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

Q_SIGNALS:
    /// An edit was not applied; `reason` is a sentence for the user.
    void refused(const QString& reason);

private:
    /// Rebuilds the rows; `reset` forces a model reset (a new selection) even when the
    /// rows keep their shape.
    void refresh(bool reset = false);
    void pruneMissing();
    bool involvesSelection(model::LinkId id) const;

    bool editNode(PropertyKey property, const QVariant& value);
    bool editLink(PropertyKey property, const QVariant& value);
    bool refuse(const QString& reason);

    TopologyDocument& m_document;
    QList<model::NodeId> m_nodes;
    QList<model::LinkId> m_links;
    /// Links of a single selected node: their changes move its ports used and free.
    std::set<model::LinkId> m_attached;
    std::vector<PropertyRow> m_rows;
    QString m_title;
};

} // namespace fabriclab::views
