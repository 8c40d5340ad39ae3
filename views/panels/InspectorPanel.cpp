// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/InspectorPanel.hpp"

#include "views/document/TopologyDocument.hpp"
#include "views/models/PropertyTableModel.hpp"
#include "views/panels/PropertyDelegate.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

namespace fabriclab::views {

InspectorPanel::InspectorPanel(TopologyDocument& document, QWidget* parent)
    : QWidget(parent), m_model(new PropertyTableModel(document, this)), m_title(new QLabel(this)),
      m_table(new QTableView(this)), m_refusal(new QLabel(this)),
      m_placeholder(new QLabel(
          tr("Select a node or a link on the canvas to see and edit its properties."), this)) {
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_table->setObjectName(QStringLiteral("propertyTable"));
    m_table->setModel(m_model);
    m_table->setItemDelegate(new PropertyDelegate(m_table));
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(PropertyTableModel::PropertyColumn,
                                                      QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::SelectedClicked |
                             QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 10);

    m_refusal->setObjectName(QStringLiteral("refusalLabel"));
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_refusal->hide();

    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_title);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_placeholder, 1);
    layout->addWidget(m_refusal);

    connect(m_model, &PropertyTableModel::refused, this, &InspectorPanel::showRefusal);
    connect(m_model, &QAbstractItemModel::modelReset, this, &InspectorPanel::updateTitle);
    // An accepted edit (or any document change shown here) supersedes an old refusal.
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this] {
        m_refusal->hide();
        updateTitle();
    });
    updateTitle();
}

InspectorPanel::~InspectorPanel() = default;

void InspectorPanel::setSelection(const QList<model::NodeId>& nodes,
                                  const QList<model::LinkId>& links) {
    m_refusal->hide();
    m_model->setSelection(nodes, links);
}

void InspectorPanel::updateTitle() {
    const QString title = m_model->title();
    const bool empty = title.isEmpty();
    m_title->setText(title);
    m_title->setVisible(!empty);
    m_table->setVisible(!empty);
    m_placeholder->setVisible(empty);
}

void InspectorPanel::showRefusal(const QString& reason) {
    m_refusal->setText(reason);
    m_refusal->show();
    // Where the eye is: under the cell whose value snapped back, at once.
    const QRect cell = m_table->visualRect(m_table->currentIndex());
    if (cell.isValid() && m_table->isVisible())
        QToolTip::showText(m_table->viewport()->mapToGlobal(cell.bottomLeft()), reason, m_table);
}

} // namespace fabriclab::views
