// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/PalettePanel.hpp"

#include "views/panels/ThemedIcon.hpp"

#include <QButtonGroup>
#include <QGridLayout>
#include <QLabel>
#include <QToolButton>

#include <array>

namespace fabriclab::views {
namespace {

constexpr std::array<CanvasTool, 7> kTools{CanvasTool::Select, CanvasTool::Server, CanvasTool::Rack,
                                           CanvasTool::Leaf,   CanvasTool::Spine,  CanvasTool::Core,
                                           CanvasTool::Link};

QString toolHelp(CanvasTool tool) {
    switch (tool) {
    case CanvasTool::Select:
        return PalettePanel::tr("Select and move nodes and links.");
    case CanvasTool::Server:
        return PalettePanel::tr("Click the canvas to place a GPU server.");
    case CanvasTool::Rack:
        return PalettePanel::tr("Click the canvas to place an NVLink rack (GB200 or GB300 "
                                "NVL72): one scale-up domain with a NIC per GPU.");
    case CanvasTool::Leaf:
        return PalettePanel::tr("Click the canvas to place a leaf switch.");
    case CanvasTool::Spine:
        return PalettePanel::tr("Click the canvas to place a spine switch.");
    case CanvasTool::Core:
        return PalettePanel::tr("Click the canvas to place a core switch.");
    case CanvasTool::Link:
        return PalettePanel::tr("Drag from one node to another to cable them.");
    }
    return {};
}

} // namespace

PalettePanel::PalettePanel(QWidget* parent) : QWidget(parent), m_group(new QButtonGroup(this)) {
    m_group->setExclusive(true);
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setHorizontalSpacing(6);
    layout->setVerticalSpacing(2);
    int row = 0;
    for (const CanvasTool tool : kTools) {
        auto* button = new QToolButton(this);
        button->setObjectName(iconName(tool).chopped(4) + QStringLiteral("Tool"));
        button->setText(toolName(tool));
        button->setIcon(ThemedIcon::fromResource(iconName(tool)));
        button->setIconSize(QSize(20, 20));
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setCheckable(true);
        button->setAutoRaise(true);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        const QString key = shortcutFor(tool).toString(QKeySequence::NativeText);
        button->setToolTip(tr("<b>%1</b> (%2)<br>%3").arg(toolName(tool), key, toolHelp(tool)));
        button->setStatusTip(toolHelp(tool));
        m_group->addButton(button, static_cast<int>(tool));
        m_buttons.emplace(tool, button);

        auto* hint = new QLabel(key, this);
        hint->setForegroundRole(QPalette::PlaceholderText);
        hint->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        hint->setToolTip(tr("Press %1 for the %2 tool").arg(key, toolName(tool)));
        layout->addWidget(button, row, 0);
        layout->addWidget(hint, row, 1);
        ++row;
    }
    layout->setRowStretch(row, 1);
    m_buttons.at(m_tool)->setChecked(true);

    // idClicked is the user's click only; setTool's setChecked does not emit it, so a
    // window answering toolRequested with setTool does not loop.
    connect(m_group, &QButtonGroup::idClicked, this, [this](int id) {
        m_tool = static_cast<CanvasTool>(id);
        Q_EMIT toolRequested(m_tool);
    });
}

void PalettePanel::setTool(CanvasTool tool) {
    m_tool = tool;
    m_buttons.at(tool)->setChecked(true);
}

QKeySequence PalettePanel::shortcutFor(CanvasTool tool) {
    switch (tool) {
    case CanvasTool::Select:
        return QKeySequence(Qt::Key_V);
    case CanvasTool::Server:
        return QKeySequence(Qt::Key_S);
    case CanvasTool::Rack:
        return QKeySequence(Qt::Key_R);
    case CanvasTool::Leaf:
        return QKeySequence(Qt::Key_L);
    case CanvasTool::Spine:
        return QKeySequence(Qt::Key_P);
    case CanvasTool::Core:
        return QKeySequence(Qt::Key_C);
    case CanvasTool::Link:
        return QKeySequence(Qt::Key_K);
    }
    return {};
}

QString PalettePanel::toolName(CanvasTool tool) {
    switch (tool) {
    case CanvasTool::Select:
        return tr("Select");
    case CanvasTool::Server:
        return tr("Server");
    case CanvasTool::Rack:
        return tr("Rack");
    case CanvasTool::Leaf:
        return tr("Leaf");
    case CanvasTool::Spine:
        return tr("Spine");
    case CanvasTool::Core:
        return tr("Core");
    case CanvasTool::Link:
        return tr("Link");
    }
    return {};
}

QString PalettePanel::iconName(CanvasTool tool) {
    switch (tool) {
    case CanvasTool::Select:
        return QStringLiteral("select.svg");
    case CanvasTool::Server:
        return QStringLiteral("server.svg");
    case CanvasTool::Rack:
        return QStringLiteral("rack.svg");
    case CanvasTool::Leaf:
        return QStringLiteral("leaf.svg");
    case CanvasTool::Spine:
        return QStringLiteral("spine.svg");
    case CanvasTool::Core:
        return QStringLiteral("core.svg");
    case CanvasTool::Link:
        return QStringLiteral("link.svg");
    }
    return {};
}

} // namespace fabriclab::views
