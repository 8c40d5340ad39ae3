// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/ShortcutTableModel.hpp"

#include <QAction>
#include <QWidget>

#include <algorithm>

namespace fabriclab::app {

ShortcutTableModel::ShortcutTableModel(const QWidget& window, QObject* parent)
    : QAbstractTableModel(parent) {
    for (QAction* action : window.findChildren<QAction*>())
        if (!action->shortcut().isEmpty())
            m_actions.append(action);
    std::sort(m_actions.begin(), m_actions.end(), [](const auto& a, const auto& b) {
        return a->text().remove(QLatin1Char('&')) < b->text().remove(QLatin1Char('&'));
    });
}

int ShortcutTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_actions.size());
}

int ShortcutTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : 2;
}

QVariant ShortcutTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || role != Qt::DisplayRole || index.row() >= m_actions.size())
        return {};
    const QAction* action = m_actions.at(index.row());
    if (!action)
        return {};
    if (index.column() == 0)
        return action->text().remove(QLatin1Char('&')).remove(QStringLiteral("…"));
    return action->shortcut().toString(QKeySequence::NativeText);
}

QVariant ShortcutTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == 0 ? tr("Command") : tr("Keys");
}

} // namespace fabriclab::app
