// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/LeafTier.hpp"

#include <algorithm>

namespace fabriclab::model {

using namespace generator;

Topology generateLeafSpine(const GeneratorParams& p) {
    validateRequest(p);
    Topology topology;
    int serversLeft = p.servers;

    // Every NIC fits on one switch: no spine tier is needed, whatever the ratio asks.
    if (static_cast<long long>(p.servers) * p.nicsPerServer <= p.leafRadix) {
        GeneratorParams single = p;
        single.railOptimized = false;
        LeafTierPlan one{p.servers, 1, p.nicsPerServer, 1, 0};
        addServersAndLeaves(topology, single, one, 0, 1, -1, serversLeft);
        return topology;
    }

    const LeafTierPlan plan = planLeafTier(p);
    const auto leaves = addServersAndLeaves(topology, p, plan, 0, plan.units, -1, serversLeft);
    const int leafCount = static_cast<int>(leaves.size());
    // Two spines at least, so one spine failing does not cut the fabric in two.
    const auto spinesFor = [&](int uplinks) {
        return spreadCount(leafCount, uplinks, p.spineRadix, std::min(2, uplinks));
    };
    // Every spine takes the same cables from every leaf. When the uplinks a leaf needs do
    // not split over few spines (31, a prime, would take 31 spines of 8 ports), a designer
    // spends free leaf ports on more uplinks rather than buy spines: NVIDIA's DGX H100
    // SuperPOD wires its 31-node scalable unit as a full 32 (32 uplinks per leaf, 4 spines).
    // So: the fewest spines the free ports allow, then the fewest uplinks.
    int uplinks = plan.uplinksPerLeaf;
    int spines = spinesFor(uplinks);
    const int freePorts = p.leafRadix - plan.serversPerUnit * plan.portsPerServerLeaf;
    for (int more = uplinks + 1; spines != 0 && more <= freePorts; ++more) {
        const int fewer = spinesFor(more);
        if (fewer != 0 && fewer < spines) {
            spines = fewer;
            uplinks = more;
        }
    }
    if (spines == 0)
        throw GeneratorError("spineRadix",
                             "needs " + std::to_string(leafCount) +
                                 " leaf ports per spine, radix is " + std::to_string(p.spineRadix) +
                                 " (use a fat-tree, a larger spine radix or fewer servers)");
    const auto spineIds =
        addSwitches(topology, NodeKind::Spine, spines, p.spineRadix, p.nicSpeed, -1);
    wireEvenly(topology, leaves, spineIds, uplinks, p.nicSpeed);
    return topology;
}

} // namespace fabriclab::model
