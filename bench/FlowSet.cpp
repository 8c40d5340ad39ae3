// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/FlowSet.hpp"

#include <stdexcept>
#include <string>

namespace fabriclab::bench {

FlowSet routeFlows(const sim::FabricNetwork& network, const NicNumbering& nics,
                   std::span<const NicPair> pairs) {
    FlowSet flows;
    flows.capacityGbps.resize(network.channelCount());
    for (std::uint32_t c = 0; c < network.channelCount(); ++c)
        flows.capacityGbps[c] = network.capacityGbps(c);
    flows.nicCount = nics.count();
    flows.source.reserve(pairs.size());
    flows.sink.reserve(pairs.size());
    flows.pathStart.reserve(pairs.size() + 1);
    // Two tiers are 4 channels per flow; more only reserves again.
    flows.pathChannels.reserve(pairs.size() * 4);
    for (const auto& [from, to] : pairs) {
        const sim::Route route = network.route(nics.endpoint(from), nics.endpoint(to), 0);
        if (route.elements.empty()) {
            ++flows.localPairs;
            continue;
        }
        for (const sim::PathElement& e : route.elements) {
            if (e.fraction != 1.0)
                throw std::invalid_argument(
                    "flow " + std::to_string(from) + " -> " + std::to_string(to) +
                    " is spread over several paths (fraction " + std::to_string(e.fraction) +
                    "): not a single-path fabric");
            flows.pathChannels.push_back(e.channel);
        }
        flows.source.push_back(from);
        flows.sink.push_back(to);
        flows.pathStart.push_back(static_cast<std::uint32_t>(flows.pathChannels.size()));
    }
    return flows;
}

} // namespace fabriclab::bench
