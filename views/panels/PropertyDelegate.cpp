// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/PropertyDelegate.hpp"

#include "views/models/PropertyTableModel.hpp"

#include <QComboBox>

namespace fabriclab::views {

QWidget* PropertyDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const {
    const QStringList choices = index.data(PropertyTableModel::ChoicesRole).toStringList();
    if (choices.isEmpty())
        return QStyledItemDelegate::createEditor(parent, option, index);
    auto* combo = new QComboBox(parent);
    combo->addItems(choices);
    // A choice is a complete edit: commit it at once rather than on focus loss.
    connect(combo, &QComboBox::activated, this, [this, combo] {
        Q_EMIT const_cast<PropertyDelegate*>(this)->commitData(combo);
        Q_EMIT const_cast<PropertyDelegate*>(this)->closeEditor(combo);
    });
    return combo;
}

void PropertyDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        combo->setCurrentText(index.data(Qt::EditRole).toString());
        return;
    }
    QStyledItemDelegate::setEditorData(editor, index);
}

void PropertyDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                    const QModelIndex& index) const {
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        model->setData(index, combo->currentText(), Qt::EditRole);
        return;
    }
    QStyledItemDelegate::setModelData(editor, model, index);
}

void PropertyDelegate::initStyleOption(QStyleOptionViewItem* option,
                                       const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    if (index.column() == PropertyTableModel::ValueColumn && !(index.flags() & Qt::ItemIsEditable))
        option->palette.setColor(QPalette::Text, option->palette.color(QPalette::PlaceholderText));
}

} // namespace fabriclab::views
