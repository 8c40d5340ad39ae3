// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/FailurePanel.hpp"

#include "model/design/Failures.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace fabriclab::views {
namespace {

enum Scenario { LoseSpine, LoseRail, LoseLinks };
/// The share of switch-to-switch cables "lose links at random" takes.
constexpr double kRandomShare = 0.05;

} // namespace

FailurePanel::FailurePanel(TopologyDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document), m_list(new QListWidget(this)),
      m_summary(new QLabel(this)), m_restoreSelected(new QPushButton(tr("Restore selected"), this)),
      m_restoreAll(new QPushButton(tr("Restore all"), this)) {
    auto* spine = new QPushButton(tr("Lose one spine"), this);
    auto* rail = new QPushButton(tr("Lose a rail"), this);
    auto* links = new QPushButton(tr("Lose 5% of links"), this);
    spine->setObjectName(QStringLiteral("loseSpine"));
    rail->setObjectName(QStringLiteral("loseRail"));
    links->setObjectName(QStringLiteral("loseLinks"));
    m_restoreSelected->setObjectName(QStringLiteral("restoreSelected"));
    m_restoreAll->setObjectName(QStringLiteral("restoreAll"));
    m_list->setObjectName(QStringLiteral("failureList"));
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    spine->setToolTip(tr("Take the first spine (or core) switch out of the fabric"));
    rail->setToolTip(tr("Take every leaf of the first rail out: each server loses one NIC"));
    links->setToolTip(tr("Fail 5% of the cables between switches, picked the same way each "
                         "time for the same design"));
    m_summary->setWordWrap(true);
    // Shares its dock with the fabric panel: ask for little height, grow when given it.
    m_list->setMinimumHeight(48);
    m_list->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);

    auto* buttons = new QGridLayout;
    buttons->addWidget(spine, 0, 0);
    buttons->addWidget(rail, 0, 1);
    buttons->addWidget(links, 1, 0, 1, 2);
    auto* restore = new QGridLayout;
    restore->addWidget(m_restoreSelected, 0, 0);
    restore->addWidget(m_restoreAll, 0, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_summary);
    layout->addWidget(m_list, 1);
    layout->addLayout(restore);

    connect(spine, &QPushButton::clicked, this,
            [this] { addScenario(tr("Lose one spine"), LoseSpine); });
    connect(rail, &QPushButton::clicked, this,
            [this] { addScenario(tr("Lose a rail"), LoseRail); });
    connect(links, &QPushButton::clicked, this,
            [this] { addScenario(tr("Lose 5% of links"), LoseLinks); });
    connect(m_restoreSelected, &QPushButton::clicked, this, &FailurePanel::restoreSelected);
    connect(m_restoreAll, &QPushButton::clicked, this, &FailurePanel::restoreAll);
    connect(m_list, &QListWidget::itemSelectionChanged, this,
            [this] { m_restoreSelected->setEnabled(!m_list->selectedItems().isEmpty()); });
    connect(&m_document, &TopologyDocument::changed, this, &FailurePanel::syncFromDocument);
    connect(&m_document, &TopologyDocument::designReset, this, &FailurePanel::syncFromDocument);
    syncFromDocument();
}

void FailurePanel::syncFromDocument() {
    const auto& failures = m_document.design().failures;
    m_list->clear();
    for (const model::Failure& failure : failures)
        m_list->addItem(QString::fromStdString(model::describe(failure)));
    m_summary->setText(failures.empty()
                           ? tr("The fabric is whole. Fail a scenario here, or right-click a "
                                "switch, rail leaf or link on the canvas.")
                           : tr("%n failure(s) applied: results show the fabric without them; "
                                "the bill still counts what was built.",
                                nullptr, static_cast<int>(failures.size())));
    m_restoreAll->setEnabled(!failures.empty());
    m_restoreSelected->setEnabled(false);
}

void FailurePanel::addScenario(const QString& text, int scenario) {
    const model::Topology& topology = m_document.topology();
    std::vector<model::Failure> failures = m_document.design().failures;
    std::vector<model::Failure> added;
    switch (scenario) {
    case LoseSpine:
        added = model::loseOneSpine(topology);
        break;
    case LoseRail:
        added = model::loseOneRail(topology);
        break;
    default:
        // A new draw each time: a second press loses another 5%, not the same links.
        added = model::loseLinksAtRandom(topology, kRandomShare, failures.size() + 1);
        break;
    }
    for (model::Failure& failure : added)
        if (std::none_of(failures.begin(), failures.end(),
                         [&](const model::Failure& f) { return f.element == failure.element; }))
            failures.push_back(std::move(failure));
    if (failures.size() == m_document.design().failures.size()) {
        m_summary->setText(tr("Nothing to fail for \"%1\": the design has no such element, or "
                              "it has failed already.")
                               .arg(text));
        return;
    }
    m_document.setFailures(std::move(failures), text);
}

void FailurePanel::restoreSelected() {
    std::vector<model::Failure> failures = m_document.design().failures;
    std::vector<bool> drop(failures.size(), false);
    for (const QListWidgetItem* item : m_list->selectedItems())
        if (const int row = m_list->row(item); row >= 0 && row < static_cast<int>(drop.size()))
            drop[static_cast<std::size_t>(row)] = true;
    std::vector<model::Failure> kept;
    for (std::size_t i = 0; i < failures.size(); ++i)
        if (!drop[i])
            kept.push_back(failures[i]);
    if (kept.size() != failures.size())
        m_document.setFailures(std::move(kept), tr("Restore selected"));
}

void FailurePanel::restoreAll() {
    if (!m_document.design().failures.empty())
        m_document.setFailures({}, tr("Restore all"));
}

} // namespace fabriclab::views
