// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QPointer>

class QAction;
class QWidget;

namespace fabriclab::app {

/// Every action of a window that has a shortcut: command and keys, read live from the
/// actions so the list never drifts from what the keys do.
class ShortcutTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit ShortcutTableModel(const QWidget& window, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<QPointer<QAction>> m_actions;
};

} // namespace fabriclab::app
