// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/routing/MinimalRouting.hpp"

namespace fabriclab::sim::routing {

/// Static ECMP: at every switch a hash of the flow picks one cable among those on a
/// shortest path, so each flow rides one path and colliding flows share its cables.
/// Wants a channel per cable (a bundle's members are picked one by one).
class EcmpRouting final : public MinimalRouting<EcmpRouting> {
public:
    static constexpr ChannelLayout kLayout{.bundleIsOneChannel = false, .groupChannels = false};

    explicit EcmpRouting(std::shared_ptr<const FabricStructure> structure)
        : MinimalRouting(std::move(structure)) {}

    void appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t flowKey,
                      Route& route) const override;
};

} // namespace fabriclab::sim::routing
