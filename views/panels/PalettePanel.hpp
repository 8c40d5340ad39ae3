// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/canvas/CanvasTool.hpp"

#include <QKeySequence>
#include <QWidget>

#include <map>

class QButtonGroup;
class QToolButton;

namespace fabriclab::views {

/// The drawing tools: Select, Server, Leaf, Spine, Core and Link, one checkable button
/// each with its icon and its key shown beside it. Clicking a button asks for that tool
/// (toolRequested); when the tool changes elsewhere (a key on the canvas, Escape), the
/// window reflects it with setTool, so the palette never disagrees with the canvas.
///
/// The keys are hints only: the palette installs no shortcuts, so that the canvas or the
/// window can own the single-key bindings without two owners making them ambiguous. Use
/// shortcutFor() to bind the same keys.
class PalettePanel : public QWidget {
    Q_OBJECT

public:
    explicit PalettePanel(QWidget* parent = nullptr);

    /// Checks the button of `tool` without emitting toolRequested.
    void setTool(fabriclab::views::CanvasTool tool);
    CanvasTool tool() const { return m_tool; }

    /// The single key that picks `tool` (V, S, L, P, C, K), as the canvas documents them.
    static QKeySequence shortcutFor(CanvasTool tool);
    /// The tool's name for buttons and menus ("Spine").
    static QString toolName(CanvasTool tool);
    /// The tool's icon under ":/icons/" ("spine.svg").
    static QString iconName(CanvasTool tool);

Q_SIGNALS:
    /// The user clicked the button of `tool`.
    void toolRequested(fabriclab::views::CanvasTool tool);

private:
    QButtonGroup* m_group;
    std::map<CanvasTool, QToolButton*> m_buttons;
    CanvasTool m_tool = CanvasTool::Select;
};

} // namespace fabriclab::views
