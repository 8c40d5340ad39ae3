// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

#include <optional>
#include <string>

namespace fabriclab::model {

/// Number of connected parts the fabric falls into (0 for an empty topology).
int connectedParts(const Topology& topology);

/// When some servers cannot reach others, a sentence naming two of them; otherwise empty.
std::optional<std::string> disconnectedServers(const Topology& topology);

} // namespace fabriclab::model
