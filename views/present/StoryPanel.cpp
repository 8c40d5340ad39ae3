// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/present/StoryPanel.hpp"

#include "views/charts/ChartRegistry.hpp"

#include "model/design/Story.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace fabriclab::views {
namespace {

/// A chart's short title by the name story steps keep (ChartRegistry.hpp).
QString chartLabel(std::string_view name) {
    const QString id = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    if (const ChartKind* kind = findChartKind(id))
        return kind->label();
    return engineText(name);
}

QString describe(const model::StoryStep& step) {
    QStringList parts{engineText(step.fabric)};
    if (step.oversubscription)
        parts << ratioText(*step.oversubscription);
    if (!step.failures.empty())
        parts << StoryPanel::tr("%n failure(s)", nullptr, static_cast<int>(step.failures.size()));
    QStringList charts;
    for (const auto& chart : step.charts)
        charts << chartLabel(chart);
    if (!charts.isEmpty())
        parts << charts.join(QStringLiteral(" + "));
    return parts.join(QStringLiteral(" · "));
}

} // namespace

StoryPanel::StoryPanel(TopologyDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document), m_list(new QListWidget(this)),
      m_firstChart(new QComboBox(this)), m_secondChart(new QComboBox(this)),
      m_show(new QPushButton(tr("Show"), this)), m_remove(new QPushButton(tr("Remove"), this)),
      m_up(new QPushButton(tr("Up"), this)), m_down(new QPushButton(tr("Down"), this)) {
    setObjectName(QStringLiteral("StoryPanel"));
    m_list->setObjectName(QStringLiteral("storyList"));
    for (QComboBox* box : {m_firstChart, m_secondChart}) {
        for (const std::string_view name : model::kStoryChartNames)
            box->addItem(chartLabel(name),
                         QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
        // As narrow as the dock beside a laptop's canvas; the list shows whole titles.
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
    }
    // The pair a presentation shows without a story, until the presenter picks others.
    const QStringList presented = chartIds(ChartPlace::PresentedByDefault);
    m_firstChart->setCurrentIndex(m_firstChart->findData(presented.value(0)));
    m_secondChart->setCurrentIndex(m_secondChart->findData(presented.value(1)));
    auto* add = new QPushButton(tr("Add current state"), this);
    add->setObjectName(QStringLiteral("addStep"));
    add->setToolTip(tr("Save the fabric, oversubscription and failures on screen, with the "
                       "two charts below, as the story's next step"));
    auto* present = new QPushButton(tr("Present (F11)"), this);
    present->setObjectName(QStringLiteral("present"));
    m_show->setObjectName(QStringLiteral("showStep"));
    m_remove->setObjectName(QStringLiteral("removeStep"));

    auto* charts = new QGridLayout;
    charts->addWidget(new QLabel(tr("Charts"), this), 0, 0);
    charts->addWidget(m_firstChart, 0, 1);
    charts->addWidget(m_secondChart, 1, 1);
    auto* edit = new QHBoxLayout;
    for (QPushButton* button : {m_show, m_up, m_down, m_remove})
        edit->addWidget(button);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addLayout(edit);
    layout->addLayout(charts);
    layout->addWidget(add);
    layout->addWidget(present);

    connect(add, &QPushButton::clicked, this, &StoryPanel::addCurrentState);
    for (QComboBox* box : {m_firstChart, m_secondChart})
        connect(box, &QComboBox::currentIndexChanged, this,
                [this] { Q_EMIT chartsChosen(chosenCharts()); });
    connect(present, &QPushButton::clicked, this,
            [this] { Q_EMIT presentRequested(std::max(0, selectedRow())); });
    connect(m_show, &QPushButton::clicked, this, [this] {
        if (selectedRow() >= 0)
            Q_EMIT showRequested(selectedRow());
    });
    connect(m_list, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { Q_EMIT showRequested(m_list->row(item)); });
    connect(m_list, &QListWidget::itemChanged, this, &StoryPanel::renamed);
    connect(m_list, &QListWidget::currentRowChanged, this, [this] { syncFromDocument(); });
    connect(m_up, &QPushButton::clicked, this, [this] { move(-1); });
    connect(m_down, &QPushButton::clicked, this, [this] { move(+1); });
    connect(m_remove, &QPushButton::clicked, this, &StoryPanel::removeSelected);
    connect(&m_document, &TopologyDocument::changed, this, &StoryPanel::syncFromDocument);
    connect(&m_document, &TopologyDocument::designReset, this, &StoryPanel::syncFromDocument);
    syncFromDocument();
}

int StoryPanel::selectedRow() const {
    return m_list->currentRow();
}

void StoryPanel::syncFromDocument() {
    if (m_syncing)
        return;
    m_syncing = true;
    const auto& story = m_document.design().story;
    const int row = m_list->currentRow();
    if (m_list->count() != static_cast<int>(story.size())) {
        m_list->clear();
        for (std::size_t i = 0; i < story.size(); ++i)
            m_list->addItem(new QListWidgetItem(m_list));
    }
    for (std::size_t i = 0; i < story.size(); ++i) {
        QListWidgetItem* item = m_list->item(static_cast<int>(i));
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        item->setText(QString::fromStdString(story[i].title));
        item->setToolTip(describe(story[i]));
        item->setData(Qt::UserRole, describe(story[i]));
    }
    m_list->setCurrentRow(std::min(row, m_list->count() - 1));
    const int selected = m_list->currentRow();
    m_show->setEnabled(selected >= 0);
    m_remove->setEnabled(selected >= 0);
    m_up->setEnabled(selected > 0);
    m_down->setEnabled(selected >= 0 && selected + 1 < m_list->count());
    m_syncing = false;
}

QStringList StoryPanel::chosenCharts() const {
    QStringList charts{m_firstChart->currentData().toString()};
    if (m_secondChart->currentData() != m_firstChart->currentData())
        charts << m_secondChart->currentData().toString();
    return charts;
}

void StoryPanel::addCurrentState() {
    auto story = m_document.design().story;
    if (story.size() >= model::kMaxStorySteps)
        return;
    std::vector<std::string> charts;
    for (const QString& chart : chosenCharts())
        charts.push_back(chart.toStdString());
    const QString title = tr("Step %1").arg(story.size() + 1);
    story.push_back(model::storyStepOf(m_document.design(), title.toStdString(), charts));
    m_document.setStory(std::move(story), tr("Add story step"));
    m_list->setCurrentRow(m_list->count() - 1);
}

void StoryPanel::renamed(QListWidgetItem* item) {
    if (m_syncing)
        return;
    const int row = m_list->row(item);
    auto story = m_document.design().story;
    if (row < 0 || row >= static_cast<int>(story.size()))
        return;
    const QString title = item->text().trimmed();
    if (title.isEmpty() || title.toStdString() == story[static_cast<std::size_t>(row)].title) {
        syncFromDocument(); // an empty title is not a title: put the old one back
        return;
    }
    story[static_cast<std::size_t>(row)].title = title.toStdString();
    m_document.setStory(std::move(story), tr("Rename story step"));
}

void StoryPanel::move(int by) {
    const int row = selectedRow();
    auto story = m_document.design().story;
    const int to = row + by;
    if (row < 0 || to < 0 || to >= static_cast<int>(story.size()))
        return;
    std::swap(story[static_cast<std::size_t>(row)], story[static_cast<std::size_t>(to)]);
    m_document.setStory(std::move(story), tr("Move story step"));
    m_list->setCurrentRow(to);
}

void StoryPanel::removeSelected() {
    const int row = selectedRow();
    auto story = m_document.design().story;
    if (row < 0 || row >= static_cast<int>(story.size()))
        return;
    story.erase(story.begin() + row);
    m_document.setStory(std::move(story), tr("Remove story step"));
}

} // namespace fabriclab::views
