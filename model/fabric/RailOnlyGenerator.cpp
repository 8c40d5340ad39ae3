// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/LeafTier.hpp"

namespace fabriclab::model {

using namespace generator;

Topology generateRailOnly(const GeneratorParams& p) {
    validateRequest(p);
    // One switch holds rail r of every server, so the rail switch's ports bound the cluster.
    if (p.servers > p.leafRadix)
        throw GeneratorError("servers",
                             "a rail-only fabric puts NIC r of every server on one rail switch: " +
                                 std::to_string(p.servers) + " servers need " +
                                 std::to_string(p.servers) + " ports on it, the radix is " +
                                 std::to_string(p.leafRadix) +
                                 " (use a leaf-spine fabric, or a larger leaf radix)");
    // Fewest switches: neighbouring rails share a switch when its ports allow (k rails of
    // every server, k dividing the NICs), so 8 servers of 8 NICs need one 64-port switch
    // and 64 servers need eight, as in the single-layer rows of published H100 build-outs.
    int railsPerSwitch = 1;
    for (int k = p.nicsPerServer; k >= 2; --k)
        if (p.nicsPerServer % k == 0 && static_cast<long long>(p.servers) * k <= p.leafRadix) {
            railsPerSwitch = k;
            break;
        }
    GeneratorParams rails = p;
    rails.railOptimized = true;
    const LeafTierPlan plan{p.servers, p.nicsPerServer / railsPerSwitch, railsPerSwitch, 1, 0};
    int serversLeft = p.servers;
    Topology topology;
    addServersAndLeaves(topology, rails, plan, 0, 1, -1, serversLeft);
    return topology;
}

} // namespace fabriclab::model
