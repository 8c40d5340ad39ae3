// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Node.hpp"

#include <optional>

namespace fabriclab::views {

/// What a left click on the canvas does. Single keys pick them, as in network drawing
/// tools: V select, S server, R rack, L leaf, P spine, C core, K link.
enum class CanvasTool { Select, Server, Rack, Leaf, Spine, Core, Link };

/// The kind of node a placing tool adds; nullopt for Select and Link.
inline std::optional<model::NodeKind> placedKind(CanvasTool tool) {
    switch (tool) {
    case CanvasTool::Server:
    case CanvasTool::Rack: // a rack-scale NVLink domain is one server
        return model::NodeKind::Server;
    case CanvasTool::Leaf:
        return model::NodeKind::Leaf;
    case CanvasTool::Spine:
        return model::NodeKind::Spine;
    case CanvasTool::Core:
        return model::NodeKind::Core;
    case CanvasTool::Select:
    case CanvasTool::Link:
        break;
    }
    return std::nullopt;
}

} // namespace fabriclab::views
