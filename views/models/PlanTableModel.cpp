// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/PlanTableModel.hpp"

#include "views/models/NumberFormat.hpp"

namespace fabriclab::views {

PlanTableModel::PlanTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanTableModel::setLayouts(std::vector<model::PlannedLayout> layouts) {
    beginResetModel();
    m_layouts = std::move(layouts);
    endResetModel();
}

int PlanTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_layouts.size());
}

int PlanTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const model::PlannedLayout& l = m_layouts[static_cast<std::size_t>(index.row())];
    const model::Workload& w = l.workload;
    if (role == Qt::TextAlignmentRole)
        return index.column() == Split ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Rank:
        return index.row() + 1;
    case Split:
        return tr("tp %1 · cp %2 · pp %3 (×%4 virtual) · dp %5%6")
            .arg(w.tp)
            .arg(w.cp)
            .arg(w.pp)
            .arg(w.vpp)
            .arg(w.dp)
            .arg(w.ep > 1 ? tr(" · ep %1").arg(w.ep) : QString());
    case Step:
        return durationText(l.step.stepSeconds);
    case Mfu:
        return percentText(l.step.mfu);
    case Exposed:
        return durationText(l.step.exposedCommSeconds);
    case Memory:
        return tr("%1 of %2 GB")
            .arg(numberText(l.memory.total / 1e9, 1), numberText(l.memory.hbm / 1e9, 0));
    default:
        return {};
    }
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Rank:
        return tr("#");
    case Split:
        return tr("Split");
    case Step:
        return tr("Step");
    case Mfu:
        return tr("MFU (predicted)");
    case Exposed:
        return tr("Waiting on the fabric");
    case Memory:
        return tr("Memory per GPU");
    default:
        return {};
    }
}

} // namespace fabriclab::views
