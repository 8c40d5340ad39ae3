// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/validation/ValidationReport.hpp"

#include <QAbstractTableModel>
#include <QVariant>

#include <memory>

namespace fabriclab::views {

using ValidationReportPtr = std::shared_ptr<const model::ValidationReport>;

/// The published figures against the engine (model::runValidation), one row per figure.
/// DisplayRole is the figure as people read it, ToolTipRole the source (and a known miss's
/// finding), SortRole the raw number, so the table sorts by error or size. A figure outside
/// its tolerance is red, a known miss grey. Read-only.
class AccuracyTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        FigureColumn,    ///< the case's id
        SetColumn,       ///< check or fit
        ClusterColumn,   ///< servers x GPUs, NICs, fabric
        TestColumn,      ///< operation and size, as nccl-tests names them
        PublishedColumn, ///< busbw GB/s (or time us), a range where the source gives one
        FabricLabColumn, ///< what the engine computes
        ErrorColumn,     ///< against the middle of the published range
        VerdictColumn,   ///< within tolerance, a miss, or a known miss
        PickColumn,      ///< the algorithm and protocol NCCL's model (or a tuner) picked
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,        ///< the raw number (error as a fraction)
        IsCheckRole = Qt::UserRole + 1, ///< true for the check set, any column
    };

    explicit AccuracyTableModel(QObject* parent = nullptr);

    /// Shows a validation run; null empties the table.
    void setReport(ValidationReportPtr report);
    const ValidationReportPtr& report() const { return m_report; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString display(std::size_t row, int column) const;
    QVariant sortValue(std::size_t row, int column) const;

    ValidationReportPtr m_report;
};

} // namespace fabriclab::views
