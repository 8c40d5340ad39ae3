// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/LeafTier.hpp"

namespace fabriclab::model {

using namespace generator;

Topology generateRailOnly(const GeneratorParams& p) {
    // Nothing sits above the rail switches, so the upper tiers' fields are not judged: a
    // spine radix or ratio left over from another kind must not refuse this one.
    GeneratorParams rails = p;
    rails.spineRadix = rails.coreRadix = p.leafRadix;
    rails.oversubscription = rails.spineOversubscription = 1.0;
    rails.serversPerPod.reset();
    validateRequest(rails);
    // One switch holds rail r of every server, so the rail switch's ports bound the cluster.
    if (p.servers > p.leafRadix)
        throw GeneratorError("servers",
                             "a rail-only fabric puts NIC r of every server on one rail switch: " +
                                 std::to_string(p.servers) + " servers need " +
                                 std::to_string(p.servers) + " ports on it, the radix is " +
                                 std::to_string(p.leafRadix) +
                                 " (use a leaf-spine fabric, or a larger leaf radix)");
    // Fewest switches: neighbouring rails share a switch when its ports allow (k rails of
    // every server, k dividing the NICs), so 16 servers of 8 NICs need two 64-port switches
    // and 64 servers need eight, as in the single-layer rows of published H100 build-outs.
    // A shared switch is one rail group, as a leaf holding several NICs of a 32-NIC server
    // is in a leaf-spine: failing "rail-N" fails the N-th rail switch.
    int railsPerSwitch = 1;
    for (int k = p.nicsPerServer; k >= 2; --k)
        if (p.nicsPerServer % k == 0 && static_cast<long long>(p.servers) * k <= p.leafRadix) {
            railsPerSwitch = k;
            break;
        }
    // Every NIC on one switch is a single top-of-rack switch, cabled and failed as the
    // leaf-spine generator's one-switch cluster is: copper, and no rail to lose.
    rails.railOptimized = railsPerSwitch < p.nicsPerServer;
    const LeafTierPlan plan{p.servers, p.nicsPerServer / railsPerSwitch, railsPerSwitch, 1, 0};
    int serversLeft = p.servers;
    Topology topology;
    addServersAndLeaves(topology, rails, plan, 0, 1, -1, serversLeft);
    return topology;
}

const GeneratorEntry& railOnlyKind() {
    using namespace generator_fields;
    static const GeneratorField* const fields[] = {
        &kServers, &kGpusPerServer, &kNicsPerServer, &kNicGbps, &kRailOptimized, &kLeafRadix,
    };
    static const GeneratorEntry entry{
        .kind = "rail-only",
        .title = "Rail-only (one tier, no spine)",
        .description = "one tier: a switch per rail, no spine; rails meet over NVLink",
        .fields = fields,
        .generate = generateRailOnly,
        .hasUplinks = false,
        .alwaysRails = true,
    };
    return entry;
}

} // namespace fabriclab::model
