// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/LeafTier.hpp"

#include <algorithm>

namespace fabriclab::model {

using namespace generator;

namespace {

/// Units (rail groups or racks) per pod: as asked, or as many as a spine's downlinks reach.
/// A spine of one plane reaches only that plane's `leavesPerUnit` leaves of each unit.
int unitsPerPod(const GeneratorParams& p, const LeafTierPlan& plan, int leavesPerUnit,
                int spineDownlinks) {
    if (p.serversPerPod) {
        if (*p.serversPerPod % plan.serversPerUnit != 0)
            throw GeneratorError("serversPerPod", "serversPerPod must be a multiple of the " +
                                                      std::to_string(plan.serversPerUnit) +
                                                      " servers one leaf group holds, got " +
                                                      std::to_string(*p.serversPerPod));
        return std::min(plan.units, *p.serversPerPod / plan.serversPerUnit);
    }
    const int fit = spineDownlinks / leavesPerUnit;
    if (fit == 0)
        throw GeneratorError("spineRadix", "a pod needs " + std::to_string(leavesPerUnit) +
                                               " leaf ports per spine, a radix-" +
                                               std::to_string(p.spineRadix) + " spine at " +
                                               ratioText(p.spineOversubscription) + " has " +
                                               std::to_string(spineDownlinks) + " downlinks");
    return std::min(plan.units, fit);
}

} // namespace

Topology generateFatTree(const GeneratorParams& p) {
    const LeafTierPlan plan = planLeafTier(p);
    // Planes: each equal group of rails gets spines and cores of its own, a fat-tree per
    // plane over the same servers (their rails meet over NVLink only).
    const int planeCount = p.planes.value_or(1);
    checkPlanes(p, plan.leavesPerUnit);
    const int leavesPerUnitPlane = plan.leavesPerUnit / planeCount;
    const int spineDown = maxDownlinks(p.spineRadix, p.spineOversubscription);
    const int podUnits = unitsPerPod(p, plan, leavesPerUnitPlane, spineDown);
    const int pods = (plan.units + podUnits - 1) / podUnits;
    const int leavesPerPod = podUnits * leavesPerUnitPlane; // of one plane

    const auto [uplinksPerLeaf, spinesPerPod] =
        spreadUplinks(leavesPerPod, plan.uplinksPerLeaf,
                      p.leafRadix - plan.serversPerUnit * plan.portsPerServerLeaf, spineDown);
    if (spinesPerPod == 0)
        throw GeneratorError("spineRadix", "needs " + std::to_string(leavesPerPod) +
                                               " leaf ports per spine, a spine has " +
                                               std::to_string(spineDown) + " downlinks");
    const int spineDownUsed = leavesPerPod * (uplinksPerLeaf / spinesPerPod);
    const int spineUp = uplinksFor(spineDownUsed, p.spineOversubscription);
    if (pods > 1 && pods > p.coreRadix)
        throw GeneratorError("coreRadix", "needs " + std::to_string(pods) +
                                              " pod ports per core switch, radix is " +
                                              std::to_string(p.coreRadix));
    const int coresPerPlane =
        pods > 1 ? spreadCount(pods, spineUp, p.coreRadix, std::min(2, spineUp)) : 0;
    if (pods > 1 && coresPerPlane == 0)
        throw GeneratorError("coreRadix", "needs " + std::to_string(pods) +
                                              " pod ports per core switch, radix is " +
                                              std::to_string(p.coreRadix));

    Topology topology;
    int serversLeft = p.servers;
    // Per plane, per pod: the plane's spines in that pod.
    std::vector<std::vector<std::vector<NodeId>>> podSpines(static_cast<std::size_t>(planeCount));
    for (int pod = 0; pod < pods; ++pod) {
        const auto leaves =
            addServersAndLeaves(topology, p, plan, pod * podUnits, podUnits, pod, serversLeft);
        for (int plane = 0; plane < planeCount; ++plane) {
            // Leaves come unit by unit, rail by rail: rail r is in plane r / (rails / planes).
            std::vector<NodeId> planeLeaves;
            for (std::size_t i = 0; i < leaves.size(); ++i)
                if (static_cast<int>(i) % plan.leavesPerUnit / leavesPerUnitPlane == plane)
                    planeLeaves.push_back(leaves[i]);
            auto spines =
                addSwitches(topology, NodeKind::Spine, spinesPerPod, p.spineRadix, p.nicSpeed, pod);
            if (planeCount > 1)
                for (const NodeId spine : spines) {
                    Node node = topology.node(spine);
                    node.placement.group = plane; // drawn as its plane's block in the pod
                    topology.replaceNode(spine, std::move(node));
                }
            wireEvenly(topology, planeLeaves, spines, uplinksPerLeaf, p.nicSpeed);
            podSpines[static_cast<std::size_t>(plane)].push_back(std::move(spines));
        }
    }
    if (pods > 1) {
        // Core group j of a plane serves spine j of every pod of that plane, as in the
        // classic k-ary fat-tree.
        for (const auto& planeSpines : podSpines)
            for (int j = 0; j < spinesPerPod; ++j) {
                const auto cores = addSwitches(topology, NodeKind::Core, coresPerPlane, p.coreRadix,
                                               p.nicSpeed, -1);
                std::vector<NodeId> lower;
                for (const auto& spines : planeSpines)
                    lower.push_back(spines[static_cast<std::size_t>(j)]);
                wireEvenly(topology, lower, cores, spineUp, p.nicSpeed);
            }
    }
    return topology;
}

const GeneratorEntry& fatTreeKind() {
    using namespace generator_fields;
    static const GeneratorField* const fields[] = {
        &kServers,          &kGpusPerServer,
        &kNicsPerServer,    &kNicGbps,
        &kRailOptimized,    &kLeafRadix,
        &kSpineRadix,       &kCoreRadix,
        &kOversubscription, &kSpineOversubscription,
        &kServersPerPod,    &kPlanes,
        &kPortsPerNic,
    };
    static const GeneratorEntry entry{
        .kind = "fat-tree",
        .title = "Fat tree (three tiers)",
        .description = "three tiers: pods of leaves and spines under core planes",
        .fields = fields,
        .generate = generateFatTree,
        .hasUplinks = true,
        .alwaysRails = false,
    };
    return entry;
}

} // namespace fabriclab::model
