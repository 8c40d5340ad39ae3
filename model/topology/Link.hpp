// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/Units.hpp"
#include "model/topology/Node.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace fabriclab::model {

struct LinkId {
    std::uint32_t value{};
    friend constexpr auto operator<=>(LinkId, LinkId) = default;
};

/// Physical medium of a link; decides which cable or optics the bill of materials buys.
enum class LinkMedium { Dac, Aoc, Optics };

std::string_view toString(LinkMedium medium);
std::optional<LinkMedium> linkMediumFromString(std::string_view text);
/// Typical run length for a medium, metres; used when a file gives no length.
double defaultLengthMeters(LinkMedium medium);

/// `count` parallel cables between a and b, each `speed` in each direction.
/// Each direction is its own capacity: speed x count.
struct Link {
    NodeId a;
    NodeId b;
    Gbps speed{400};
    int count = 1;
    LinkMedium medium = LinkMedium::Dac;
    double lengthMeters = 2;

    Gbps capacity() const { return speed * count; }
};

} // namespace fabriclab::model
