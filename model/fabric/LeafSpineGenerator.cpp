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
    const auto [uplinks, spines] =
        spreadUplinks(leafCount, plan.uplinksPerLeaf,
                      p.leafRadix - plan.serversPerUnit * plan.portsPerServerLeaf, p.spineRadix);
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
