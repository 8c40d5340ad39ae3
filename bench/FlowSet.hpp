// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The flows both simulators are given: NIC pairs and the channels of their single paths,
// as FabricLab routes them. Flat arrays, so a million flows are a few allocations.
#pragma once

#include "bench/Traffic.hpp"
#include "model/sim/FabricNetwork.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace fabriclab::bench {

struct FlowSet {
    std::vector<double> capacityGbps;        ///< per channel, in FabricNetwork's numbering
    std::uint32_t nicCount = 0;              ///< NICs flows may start or end at
    std::vector<std::uint32_t> source;       ///< per flow: NicNumbering number
    std::vector<std::uint32_t> sink;         ///< per flow
    std::vector<std::uint32_t> pathStart{0}; ///< per flow, plus one: offsets into pathChannels
    std::vector<std::uint32_t> pathChannels; ///< channels in path order
    /// Pairs inside one server: they never reach the fabric (FabricLab gives them no
    /// route), so neither simulator shares anything for them and they are left out.
    std::size_t localPairs = 0;

    std::size_t size() const { return source.size(); }
    std::span<const std::uint32_t> path(std::size_t flow) const {
        return {pathChannels.data() + pathStart[flow], pathChannels.data() + pathStart[flow + 1]};
    }
};

/// Routes every pair with FabricNetwork::route and flow key 0, so that a NIC pair always
/// takes one path: SimGrid routes per host pair, and a pair that repeats (random pairs)
/// must load the same channels in both simulators. Throws std::invalid_argument when a
/// route is not a single path (an adaptive fabric spreads flows over fractions of
/// channels, which a SimGrid communication cannot express).
FlowSet routeFlows(const sim::FabricNetwork& network, const NicNumbering& nics,
                   std::span<const NicPair> pairs);

} // namespace fabriclab::bench
