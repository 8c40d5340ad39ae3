// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Node.hpp"

#include <QColor>
#include <QPalette>

namespace fabriclab::views {

/// The canvas's colours, derived from the application palette so that the canvas follows
/// the desktop's dark or light theme. Accent hues are fixed; their lightness is not.
class CanvasPalette {
public:
    static bool isDark(const QPalette& palette);
    /// Linear blend: t = 0 gives `a`, t = 1 gives `b`.
    static QColor mix(const QColor& a, const QColor& b, double t);

    /// Accent of a switch tier (leaf, spine, core); servers get a neutral tone.
    static QColor tierColor(model::NodeKind kind, const QPalette& palette);
    /// A distinct hue per rail: eight hand-picked ones, then golden-angle steps.
    static QColor railColor(int rail, const QPalette& palette);
    /// Fill for a shape whose outline is `accent`: the accent washed into the background.
    static QColor fillFor(const QColor& accent, const QPalette& palette);
    /// Unselected links: a neutral tone between text and background.
    static QColor linkColor(const QPalette& palette);
    /// Selection outline and the link being drawn.
    static QColor selectionColor(const QPalette& palette);
    /// Link utilization during playback, 0-1: cool blue through amber to red at saturation.
    /// One scale for the canvas and its legend.
    static QColor heatColor(double utilization);
    /// What-if failures: red for down, amber for degraded; the same in both themes, as
    /// warnings are.
    static QColor failureColor(bool down);
    /// Minor and major grid lines.
    static QColor gridColor(const QPalette& palette, bool major);
};

} // namespace fabriclab::views
