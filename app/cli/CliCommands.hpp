// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/CliArguments.hpp"

#include <string>

namespace fabriclab::app {

/// Runs a parsed command and returns everything it has to say on stdout. Output is built
/// whole before anything is printed, so a failure leaves stdout empty. Throws on bad input.
std::string executeCommand(const CliArguments& args);

} // namespace fabriclab::app
