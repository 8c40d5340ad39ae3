// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QIcon>
#include <QString>

namespace fabriclab::views {

/// Icons from resources/icons drawn in the colours of the current palette. The SVGs
/// stroke with `currentColor`, which Qt's SVG renderer would paint black; this paints it
/// with the palette's button text (disabled, selected and checked states included), so
/// the same files work on light and dark themes. Rendering is vector at the requested
/// size and device pixel ratio, so icons stay sharp on high-DPI screens.
class ThemedIcon {
public:
    /// `name` is a file under ":/icons/" ("server.svg"), listed in resources/fabriclab.qrc.
    /// A null icon when the file is missing.
    static QIcon fromResource(const QString& name);
};

} // namespace fabriclab::views
