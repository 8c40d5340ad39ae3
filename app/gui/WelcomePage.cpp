// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/WelcomePage.hpp"

#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace fabriclab::app {
namespace {

/// Wide enough for two columns of buttons and samples, narrow enough to read.
constexpr int kColumnWidth = 980;

QLabel* heading(const QString& text, double scale, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setPointSizeF(font.pointSizeF() * scale);
    font.setBold(true);
    label->setFont(font);
    label->setWordWrap(true);
    return label;
}

} // namespace

WelcomePage::WelcomePage(const QList<std::pair<QString, QString>>& samples, QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("WelcomePage"));
    auto* page = new QWidget;
    page->setMaximumWidth(kColumnWidth);

    auto* intro = new QLabel(
        tr("FabricLab plans the network fabric of GPU training clusters. Generate or draw a "
           "leaf/spine, fat-tree or rail-only topology, pick a fabric (InfiniBand, RoCEv2, "
           "Spectrum-X, Ethernet, EFA) and an oversubscription ratio, and its flow-level "
           "simulator shows what the design delivers and what it costs: bisection bandwidth, "
           "collective and training-step time, a priced bill of materials and the fabric's "
           "share of every GPU-hour. Fail a spine or a rail to see what a drill costs, compare "
           "fabrics side by side, and present it all in full screen (F11)."),
        page);
    intro->setWordWrap(true);

    // Where to start: each button names its shortcut, which works from the editor too.
    auto* generate = new QPushButton(tr("Generate a design…  (Ctrl+G)"), page);
    generate->setObjectName(QStringLiteral("welcomeGenerate"));
    generate->setToolTip(tr("Leaf/spine, fat-tree or rail-only, from servers, GPUs, NICs, "
                            "switch radix and oversubscription"));
    auto* open = new QPushButton(tr("Open a design file…  (Ctrl+O)"), page);
    open->setObjectName(QStringLiteral("welcomeOpen"));
    open->setToolTip(tr("A *.fabric.json design"));
    auto* empty = new QPushButton(tr("Start with an empty canvas"), page);
    empty->setObjectName(QStringLiteral("welcomeEmpty"));
    empty->setToolTip(tr("Place servers and switches with the palette or single keys "
                         "(S, L, P, C) and cable them with K"));
    connect(generate, &QPushButton::clicked, this, &WelcomePage::generateRequested);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(empty, &QPushButton::clicked, this, &WelcomePage::emptyCanvasRequested);
    auto* start = new QVBoxLayout;
    start->addWidget(heading(tr("Start"), 1.2, page));
    for (QPushButton* button : {generate, open, empty}) {
        button->setMinimumHeight(button->sizeHint().height() * 3 / 2);
        start->addWidget(button);
    }
    start->addStretch(1);

    // Every sample by what it is for; a click opens it.
    auto* sampleList = new QVBoxLayout;
    sampleList->setSpacing(8);
    sampleList->addWidget(heading(tr("Open a sample"), 1.2, page));
    for (const auto& [path, purpose] : samples) {
        auto* link = new QLabel(QStringLiteral("<a href=\"%1\">%2</a>")
                                    .arg(path.toHtmlEscaped(), purpose.toHtmlEscaped()),
                                page);
        link->setObjectName(QStringLiteral("sample:") + QFileInfo(path).fileName());
        link->setWordWrap(true);
        link->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        link->setToolTip(QFileInfo(path).fileName());
        connect(link, &QLabel::linkActivated, this, &WelcomePage::sampleRequested);
        sampleList->addWidget(link);
    }
    if (samples.isEmpty())
        sampleList->addWidget(new QLabel(tr("No samples were installed."), page));
    sampleList->addStretch(1);

    auto* columns = new QGridLayout;
    columns->setHorizontalSpacing(32);
    columns->addLayout(start, 0, 0);
    columns->addLayout(sampleList, 0, 1);
    columns->setColumnStretch(0, 2);
    columns->setColumnStretch(1, 3);

    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(24, 24, 24, 24);
    layout->setSpacing(14);
    layout->addWidget(heading(tr("FabricLab"), 2.0, page));
    layout->addWidget(heading(
        tr("What will this GPU cluster's network deliver, and what will it cost?"), 1.25, page));
    layout->addWidget(intro);
    layout->addLayout(columns);
    layout->addStretch(1);

    // Centred in the window; scrolls on a short screen rather than cutting the samples.
    auto* holder = new QWidget;
    auto* centring = new QHBoxLayout(holder);
    centring->addStretch(1);
    centring->addWidget(page, 100);
    centring->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(holder);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

} // namespace fabriclab::app
