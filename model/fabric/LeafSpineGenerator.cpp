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

    // Every NIC fits on one switch: no spine tier is needed, whatever the ratio asks (and
    // whatever planes are asked for: one switch is one plane).
    if (static_cast<long long>(p.servers) * p.nicsPerServer <= p.leafRadix) {
        GeneratorParams single = p;
        single.railOptimized = false;
        LeafTierPlan one{p.servers, 1, p.nicsPerServer, 1, 0};
        addServersAndLeaves(topology, single, one, 0, 1, -1, serversLeft);
        return topology;
    }

    const LeafTierPlan plan = planLeafTier(p);
    const int rails = plan.leavesPerUnit;
    checkPlanes(p, rails);
    const auto leaves = addServersAndLeaves(topology, p, plan, 0, plan.units, -1, serversLeft);
    const int leafCount = static_cast<int>(leaves.size());
    const int freePorts = p.leafRadix - plan.serversPerUnit * plan.portsPerServerLeaf;
    // One plane of spines that every leaf reaches; failing that, a rail-optimized fabric
    // gives each group of rails spines of its own (rail planes), the fewest planes that fit,
    // or as many as the request asks for. That keeps two tiers with the counts of NVIDIA's
    // DGX B300 SuperPOD on Spectrum-4 at 8 and 16 units (whose planes split each GPU's port,
    // so each of them holds every rail), and of DeepSeek's multi-plane fat-tree (a plane
    // per rail). Here rails of different planes meet over NVLink (PXN), as NCCL's all-to-all
    // does on rail-optimized fabrics.
    const int fewest = p.planes.value_or(1);
    const int most = p.planes ? *p.planes : (p.railOptimized ? rails : 1);
    for (int planes = fewest; planes <= most; ++planes) {
        if (rails % planes != 0)
            continue;
        const auto [uplinks, spinesPerPlane] =
            spreadUplinks(leafCount / planes, plan.uplinksPerLeaf, freePorts, p.spineRadix);
        if (spinesPerPlane == 0)
            continue;
        const int railsPerPlane = rails / planes;
        for (int plane = 0; plane < planes; ++plane) {
            std::vector<NodeId> planeLeaves;
            for (int i = 0; i < leafCount; ++i)
                if (i % rails / railsPerPlane == plane)
                    planeLeaves.push_back(leaves[static_cast<std::size_t>(i)]);
            const auto spineIds = addSwitches(topology, NodeKind::Spine, spinesPerPlane,
                                              p.spineRadix, p.nicSpeed, -1);
            if (planes > 1)
                for (const NodeId spine : spineIds) {
                    Node node = topology.node(spine);
                    node.placement.group = plane; // drawn as its plane's block of spines
                    topology.replaceNode(spine, std::move(node));
                }
            wireEvenly(topology, planeLeaves, spineIds, uplinks, p.nicSpeed);
        }
        return topology;
    }
    const int leavesPerPlane = p.railOptimized ? leafCount / most : leafCount;
    const std::string planesText = std::to_string(most) + (most == 1 ? " plane" : " planes");
    if (p.planes)
        throw GeneratorError("planes", "needs " + std::to_string(leavesPerPlane) +
                                           " leaf ports per spine with " + planesText +
                                           ", radix is " + std::to_string(p.spineRadix) +
                                           " (use more planes, a larger spine radix or fewer "
                                           "servers)");
    throw GeneratorError("spineRadix",
                         "needs " + std::to_string(leavesPerPlane) + " leaf ports per spine" +
                             (p.railOptimized ? " even with a plane of spines per rail" : "") +
                             ", radix is " + std::to_string(p.spineRadix) +
                             " (use a fat-tree, a larger spine radix or fewer servers)");
}

const GeneratorEntry& leafSpineKind() {
    using namespace generator_fields;
    static const GeneratorField* const fields[] = {
        &kServers,   &kGpusPerServer, &kNicsPerServer,    &kNicGbps, &kRailOptimized,
        &kLeafRadix, &kSpineRadix,    &kOversubscription, &kPlanes,  &kPortsPerNic,
    };
    static const GeneratorEntry entry{
        .kind = "leaf-spine",
        .title = "Leaf–spine (two tiers)",
        .description = "two tiers: leaves under a spine layer (rail-optimized or top-of-rack)",
        .fields = fields,
        .generate = generateLeafSpine,
        .hasUplinks = true,
        .alwaysRails = false,
    };
    return entry;
}

} // namespace fabriclab::model
