// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace fabriclab::views {

/// Editors for the inspector's value column: a combo box where the model lists choices
/// (PropertyTableModel::ChoicesRole), Qt's default editors otherwise. Read-only values
/// are drawn muted so that what can be edited stands out.
///
/// The default spin boxes are left unbounded on purpose: a 0 or a negative reaches the
/// model, which refuses it with a sentence, instead of the editor silently clamping it.
class PropertyDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace fabriclab::views
