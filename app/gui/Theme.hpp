// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

namespace fabriclab::app {

/// System follows the desktop: the platform palette decides whether it is dark.
enum class Theme { System, Light, Dark };

/// Fusion style with a light or dark palette; System picks by the desktop's window colour.
void applyTheme(Theme theme);
Theme savedTheme();
void saveTheme(Theme theme);

} // namespace fabriclab::app
