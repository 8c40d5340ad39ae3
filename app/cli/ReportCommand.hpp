// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/CliArguments.hpp"

namespace fabriclab::app {

/// `fabriclab-cli report`: the report is drawn by the app's own charts and canvas, so the
/// command line hands it to `fabriclab --report` beside this program (offscreen, no
/// window) and takes on its output and exit status. fabriclab-cli itself stays free of Qt.
/// Returns only when the app cannot be started: throws std::runtime_error saying why.
[[noreturn]] void runReport(const CliArguments& args);

} // namespace fabriclab::app
