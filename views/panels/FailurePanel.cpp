// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/FailurePanel.hpp"

#include "model/design/Failures.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/sim/DesignFacts.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace fabriclab::views {
namespace {

enum Scenario { LoseSpine, LoseRail, LoseLinks, LosePlane };
/// The share of switch-to-switch cables "lose links at random" takes.
constexpr double kRandomShare = 0.05;
/// Below this many switch-to-switch cables a 5% draw can pick none (0.95^200 < 0.004%
/// above it): the panel draws as a press would before offering it.
constexpr long long kDrawBeforeOffering = 200;

/// The seed a press of "lose 5% of links" draws with: a new draw each time.
std::uint64_t linkDrawSeed(const std::vector<model::Failure>& failures) {
    return failures.size() + 1;
}

} // namespace

FailurePanel::FailurePanel(TopologyDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document),
      m_loseSpine(new QPushButton(tr("Lose one spine"), this)),
      m_loseRail(new QPushButton(tr("Lose a rail"), this)),
      m_loseLinks(new QPushButton(tr("Lose 5% of links"), this)),
      m_losePlane(new QPushButton(tr("Lose a plane"), this)), m_list(new QListWidget(this)),
      m_summary(new QLabel(this)), m_restoreSelected(new QPushButton(tr("Restore selected"), this)),
      m_restoreAll(new QPushButton(tr("Restore all"), this)) {
    QPushButton* spine = m_loseSpine;
    QPushButton* rail = m_loseRail;
    QPushButton* links = m_loseLinks;
    spine->setObjectName(QStringLiteral("loseSpine"));
    rail->setObjectName(QStringLiteral("loseRail"));
    links->setObjectName(QStringLiteral("loseLinks"));
    m_losePlane->setObjectName(QStringLiteral("losePlane"));
    m_losePlane->hide();
    m_restoreSelected->setObjectName(QStringLiteral("restoreSelected"));
    m_restoreAll->setObjectName(QStringLiteral("restoreAll"));
    m_list->setObjectName(QStringLiteral("failureList"));
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_summary->setWordWrap(true);
    // Shares its dock with the fabric panel: ask for little height, grow when given it.
    m_list->setMinimumHeight(48);
    m_list->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);

    auto* buttons = new QGridLayout;
    buttons->addWidget(spine, 0, 0);
    buttons->addWidget(rail, 0, 1);
    buttons->addWidget(links, 1, 0);
    buttons->addWidget(m_losePlane, 1, 1);
    auto* restore = new QGridLayout;
    restore->addWidget(m_restoreSelected, 0, 0);
    restore->addWidget(m_restoreAll, 0, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_summary);
    layout->addWidget(m_list, 1);
    layout->addLayout(restore);

    connect(spine, &QPushButton::clicked, this,
            [this] { addScenario(m_loseSpine->text(), LoseSpine); });
    connect(rail, &QPushButton::clicked, this,
            [this] { addScenario(tr("Lose a rail"), LoseRail); });
    connect(links, &QPushButton::clicked, this,
            [this] { addScenario(tr("Lose 5% of links"), LoseLinks); });
    connect(m_losePlane, &QPushButton::clicked, this,
            [this] { addScenario(tr("Lose a plane"), LosePlane); });
    connect(m_restoreSelected, &QPushButton::clicked, this, &FailurePanel::restoreSelected);
    connect(m_restoreAll, &QPushButton::clicked, this, &FailurePanel::restoreAll);
    connect(m_list, &QListWidget::itemSelectionChanged, this,
            [this] { m_restoreSelected->setEnabled(!m_list->selectedItems().isEmpty()); });
    // What the scenarios would fail is worked out off the GUI thread, once per change.
    connect(&DesignFacts::of(m_document), &DesignFacts::ready, this, &FailurePanel::offerScenarios);
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
    offerScenarios();
}

void FailurePanel::offerScenarios() {
    const DesignFactsResult* facts = DesignFacts::of(m_document).current();
    if (!facts) {
        // For a moment after an edit; ready() brings the scenarios back.
        for (QPushButton* button : {m_loseSpine, m_loseRail, m_loseLinks, m_losePlane}) {
            button->setEnabled(false);
            button->setToolTip(tr("Working out what this design can lose\u2026"));
        }
        return;
    }
    const model::Topology& topology = m_document.topology();
    const auto& failures = m_document.design().failures;
    // The same functions a press runs, so what is offered is exactly what a press fails.
    const DesignFactsResult& e = *facts;
    const auto failed = [&](const std::vector<model::Failure>& scenario) {
        return std::all_of(scenario.begin(), scenario.end(), [&](const model::Failure& f) {
            return std::any_of(failures.begin(), failures.end(),
                               [&](const model::Failure& g) { return g.element == f.element; });
        });
    };
    m_loseSpine->setText(e.tiers.spine == 0 && e.tiers.core > 0 ? tr("Lose one core")
                                                                : tr("Lose one spine"));
    if (e.loseOneSpine.empty())
        m_loseSpine->setToolTip(tr("This design has no spine or core switch to lose."));
    else if (failed(e.loseOneSpine))
        m_loseSpine->setToolTip(
            tr("%1 is down already.").arg(QString::fromStdString(e.loseOneSpine.front().element)));
    else
        m_loseSpine->setToolTip(tr("Take %1, the first %2 switch, out of the fabric")
                                    .arg(QString::fromStdString(e.loseOneSpine.front().element),
                                         e.tiers.spine > 0 ? tr("spine") : tr("core")));
    m_loseSpine->setEnabled(!e.loseOneSpine.empty() && !failed(e.loseOneSpine));

    if (e.loseOneRail.empty())
        m_loseRail->setToolTip(tr("This design has no rail leaves to lose: its servers' NICs "
                                  "are not wired rail by rail."));
    else if (failed(e.loseOneRail))
        m_loseRail->setToolTip(
            tr("%1 is down already.").arg(QString::fromStdString(e.loseOneRail.front().element)));
    else
        m_loseRail->setToolTip(tr("Take every leaf of %1 out: each server loses one NIC")
                                   .arg(QString::fromStdString(e.loseOneRail.front().element)));
    m_loseRail->setEnabled(!e.loseOneRail.empty() && !failed(e.loseOneRail));

    // A few cables may all escape a 5% draw: there, draw as the press would.
    bool drawsSome = e.switchCables > 0;
    if (drawsSome && e.switchCables < kDrawBeforeOffering) {
        const auto drawn = model::loseLinksAtRandom(topology, kRandomShare, linkDrawSeed(failures));
        drawsSome = !drawn.empty() && !failed(drawn);
    }
    m_loseLinks->setToolTip(
        e.switchCables == 0 ? tr("This design has no cables between switches to lose.")
        : !drawsSome
            ? tr("A 5% draw over this design's %1 cables between switches picks none of them "
                 "(or only links down already); right-click a link on the canvas to fail it.")
                  .arg(numberText(static_cast<double>(e.switchCables)))
            : tr("Fail 5% of the cables between switches, picked the same way each time for "
                 "the same design"));
    m_loseLinks->setEnabled(drawsSome);

    // Only multiplane designs have NIC-port planes; elsewhere the button would only wait.
    m_losePlane->setVisible(!e.loseOnePlane.empty());
    if (!e.loseOnePlane.empty()) {
        const QString plane = QString::fromStdString(e.loseOnePlane.front().element);
        m_losePlane->setToolTip(failed(e.loseOnePlane)
                                    ? tr("%1 is down already.").arg(plane)
                                    : tr("Take every switch of %1 out: each NIC loses one port "
                                         "and sprays over the others")
                                          .arg(plane));
        m_losePlane->setEnabled(!failed(e.loseOnePlane));
    }
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
    case LosePlane:
        added = model::loseOnePlane(topology);
        break;
    default:
        // A new draw each time: a second press loses another 5%, not the same links.
        added = model::loseLinksAtRandom(topology, kRandomShare, linkDrawSeed(failures));
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
