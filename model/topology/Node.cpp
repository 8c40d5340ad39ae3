// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/topology/Node.hpp"
#include "model/core/EnumNames.hpp"
#include "model/topology/Link.hpp"

#include <array>
#include <utility>

namespace fabriclab::model {
namespace {
constexpr std::array<std::pair<NodeKind, std::string_view>, 4> kNodeKinds{{
    {NodeKind::Server, "server"},
    {NodeKind::Leaf, "leaf"},
    {NodeKind::Spine, "spine"},
    {NodeKind::Core, "core"},
}};
constexpr std::array<std::pair<LinkMedium, std::string_view>, 3> kMedia{{
    {LinkMedium::Dac, "dac"},
    {LinkMedium::Aoc, "aoc"},
    {LinkMedium::Optics, "optics"},
}};
} // namespace

std::string_view toString(NodeKind kind) {
    return enumName(kNodeKinds, kind);
}
std::optional<NodeKind> nodeKindFromString(std::string_view text) {
    return enumValue<NodeKind>(kNodeKinds, text);
}
std::string_view toString(LinkMedium medium) {
    return enumName(kMedia, medium);
}
std::optional<LinkMedium> linkMediumFromString(std::string_view text) {
    return enumValue<LinkMedium>(kMedia, text);
}

double defaultLengthMeters(LinkMedium medium) {
    // In-rack copper, row-scale active optical cable, hall-scale fibre.
    switch (medium) {
    case LinkMedium::Dac:
        return 2;
    case LinkMedium::Aoc:
        return 10;
    case LinkMedium::Optics:
        return 50;
    }
    return 2;
}

} // namespace fabriclab::model
