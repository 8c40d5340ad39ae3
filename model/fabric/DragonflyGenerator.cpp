// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/LeafTier.hpp"

#include <algorithm>

namespace fabriclab::model {

using namespace generator;

namespace {

// Global links join groups across the hall: longer than the 50 m of fibre inside a group's
// rows, priced and classed as such by the cabling plan ("building").
constexpr double kGlobalLinkMeters = 150;

constexpr GeneratorField kGroups{
    .key = "groups",
    .label = "Groups",
    .help = "Dragonfly+: groups, each a leaf-spine whose spines spend their other ports on "
            "global links to the other groups; the fewest that hold the servers when absent.",
    .type = GeneratorField::Type::Count,
    .whenAbsent = "Fewest that fit",
};

/// How a request's groups are sized.
struct GroupShape {
    LeafTierPlan plan;
    int groups = 0;
    int unitsPerGroup = 0;
    int uplinksPerLeaf = 0;
    int spinesPerGroup = 0;
    int globalPorts = 0;  ///< per spine
    int globalCables = 0; ///< between spine i of one group and spine i of another
};

GroupShape shapeOf(const GeneratorParams& p) {
    GroupShape s;
    GeneratorParams checked = p;
    checked.serversPerPod.reset();
    checked.planes.reset();
    s.plan = planLeafTier(checked);
    // A spine keeps half its ports for its group's leaves, the other half for global links,
    // as the dragonfly+ of Shpiner et al. (2017) does with k/2 down and k/2 global.
    const int spineDown = maxDownlinks(p.spineRadix, 1.0);
    const int fit = spineDown / s.plan.leavesPerUnit;
    if (fit == 0)
        throw GeneratorError("spineRadix", "a group needs " + std::to_string(s.plan.leavesPerUnit) +
                                               " leaf ports per spine; a radix-" +
                                               std::to_string(p.spineRadix) + " spine keeps " +
                                               std::to_string(spineDown) + " for its group");
    const double asked = kGroups.get(p).value_or(0);
    if (asked != 0 && !(asked >= 1 && asked <= s.plan.units))
        throw GeneratorError("groups", "groups must be between 1 and the " +
                                           std::to_string(s.plan.units) +
                                           " leaf groups the servers fill, got " +
                                           std::to_string(static_cast<long long>(asked)));
    s.groups = asked != 0 ? static_cast<int>(asked) : (s.plan.units + fit - 1) / fit;
    s.unitsPerGroup = (s.plan.units + s.groups - 1) / s.groups;
    if (s.unitsPerGroup > fit)
        throw GeneratorError("groups", std::to_string(s.groups) + " groups of " +
                                           std::to_string(s.unitsPerGroup * s.plan.leavesPerUnit) +
                                           " leaves need more than the " +
                                           std::to_string(spineDown) +
                                           " ports a spine keeps "
                                           "for its group (use more "
                                           "groups)");
    const int leavesPerGroup = s.unitsPerGroup * s.plan.leavesPerUnit;
    const auto [uplinks, spines] =
        spreadUplinks(leavesPerGroup, s.plan.uplinksPerLeaf,
                      p.leafRadix - s.plan.serversPerUnit * s.plan.portsPerServerLeaf, spineDown);
    if (spines == 0)
        throw GeneratorError("spineRadix", "needs " + std::to_string(leavesPerGroup) +
                                               " leaf ports per spine, a spine keeps " +
                                               std::to_string(spineDown));
    s.uplinksPerLeaf = uplinks;
    s.spinesPerGroup = spines;
    s.globalPorts = p.spineRadix - leavesPerGroup * (uplinks / spines);
    if (s.groups > 1) {
        // Spine i of every group meets spine i of every other, as many cables each as its
        // global ports share evenly; a spine needs a port per other group at least.
        s.globalCables = s.globalPorts / (s.groups - 1);
        if (s.globalCables == 0)
            throw GeneratorError("groups", std::to_string(s.groups) + " groups need " +
                                               std::to_string(s.groups - 1) +
                                               " global ports on every spine, a radix-" +
                                               std::to_string(p.spineRadix) + " spine has " +
                                               std::to_string(s.globalPorts) +
                                               " (use fewer groups or a larger spine radix)");
    }
    return s;
}

} // namespace

Topology generateDragonfly(const GeneratorParams& p) {
    const GroupShape s = shapeOf(p);
    Topology topology;
    int serversLeft = p.servers;
    std::vector<std::vector<NodeId>> spinesOf;
    for (int group = 0; group < s.groups && serversLeft > 0; ++group) {
        const auto leaves = addServersAndLeaves(topology, p, s.plan, group * s.unitsPerGroup,
                                                s.unitsPerGroup, group, serversLeft);
        auto spines = addSwitches(topology, NodeKind::Spine, s.spinesPerGroup, p.spineRadix,
                                  p.nicSpeed, group);
        wireEvenly(topology, leaves, spines, s.uplinksPerLeaf, p.nicSpeed);
        spinesOf.push_back(std::move(spines));
    }
    // Global links: every pair of groups, spine i to spine i, in long optics.
    for (std::size_t a = 0; a < spinesOf.size(); ++a)
        for (std::size_t b = a + 1; b < spinesOf.size(); ++b)
            for (std::size_t i = 0; i < spinesOf[a].size(); ++i)
                topology.addLink(Link{spinesOf[a][i], spinesOf[b][i], p.nicSpeed, s.globalCables,
                                      LinkMedium::Optics, kGlobalLinkMeters});
    return topology;
}

const GeneratorEntry& dragonflyKind() {
    using namespace generator_fields;
    static const GeneratorField* const fields[] = {
        &kServers,   &kGpusPerServer, &kNicsPerServer,    &kNicGbps, &kRailOptimized,
        &kLeafRadix, &kSpineRadix,    &kOversubscription, &kGroups,
    };
    static const GeneratorEntry entry{
        .kind = "dragonfly",
        .title = "Dragonfly+ (groups joined by global links)",
        .description = "groups of leaves and spines; each spine's other half of ports are "
                       "global links to the same spine of every other group",
        .fields = fields,
        .generate = generateDragonfly,
        .hasUplinks = true,
        .alwaysRails = false,
    };
    return entry;
}

} // namespace fabriclab::model
