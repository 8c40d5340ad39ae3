// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/models/CompareResult.hpp"

#include <QAbstractTableModel>
#include <QVariant>

namespace fabriclab::views {

/// The fabric comparison as a table: one row per fabric, in the comparison's order.
/// DisplayRole is the figure as people read it, ToolTipRole the exact value with its unit
/// and meaning, SortRole the raw number (invalid for a fabric that did not run, so those
/// sort together). Bisection is in Gb/s and bus bandwidth in GB/s (as nccl-tests), so each
/// cell names its unit. The verdict's recommended fabric is bold. Read-only.
class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        FabricColumn,
        BisectionColumn,  ///< effective bisection, Gb/s
        BusBwColumn,      ///< bus bandwidth of the design's collective, GB/s
        StepColumn,       ///< training step time, s
        FirstTokenColumn, ///< serving: time to first token, s
        ServedColumn,     ///< serving: output tokens per second per GPU
        CapexColumn,      ///< fabric capex, USD
        PerGpuHourColumn, ///< the whole cluster's lifetime cost per GPU-hour, USD
        PerTokenColumn,   ///< lifetime cost per million trained tokens, USD
        NoteColumn,       ///< recommended, why a fabric did not run, engine warnings
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,         ///< the raw number: Gb/s, GB/s, s, USD
        FabricIdRole = Qt::UserRole + 1, ///< the catalog id, any column
    };

    explicit CompareTableModel(QObject* parent = nullptr);

    /// Shows a comparison; null empties the table.
    void setResult(CompareResultPtr result);
    const CompareResultPtr& result() const { return m_result; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString display(const CompareRow& row, int column) const;
    QString toolTip(const CompareRow& row, int column) const;
    QVariant sortValue(const CompareRow& row, int column) const;
    bool isRecommended(const CompareRow& row) const;

    CompareResultPtr m_result;
};

} // namespace fabriclab::views
