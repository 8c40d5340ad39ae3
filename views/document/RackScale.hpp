// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

namespace fabriclab::views {

/// The smallest scale-up domain that spans a rack: NVL36 (docs/reference/rack-scale-domains.md);
/// an HGX board holds 8. What the Rack tool places and what the canvas calls a rack.
inline constexpr int kRackScaleGpus = 32;

} // namespace fabriclab::views
