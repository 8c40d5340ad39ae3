// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/workload/LayoutPlan.hpp"

#include <QAbstractTableModel>

#include <vector>

namespace fabriclab::views {

/// The Plan tab's table: a row per split of the training job, fastest first, as
/// model::planLayouts ranked them. It shows the engine's figures; it computes none.
class PlanTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Rank, Split, Step, Mfu, Exposed, Memory, ColumnCount };

    explicit PlanTableModel(QObject* parent = nullptr);

    void setLayouts(std::vector<model::PlannedLayout> layouts);
    const std::vector<model::PlannedLayout>& layouts() const { return m_layouts; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<model::PlannedLayout> m_layouts;
};

} // namespace fabriclab::views
