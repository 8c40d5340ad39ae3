// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/LeafTier.hpp"

#include <algorithm>
#include <map>
#include <utility>

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

/// How a classic dragonfly's routers are shared out (Kim et al. 2008, df-params and
/// df-balance of docs/reference/design-space.md §2): a router of radix k gives about k/4
/// ports to servers, k/2 - 1 to the other routers of its group (a clique of k/2) and the
/// rest to global links.
struct CliqueShape {
    int serversPerRouter = 0;
    int routers = 0; ///< in all
    int groups = 0;
    int routersPerGroup = 0;
    int globalPorts = 0;  ///< per router
    int globalCables = 0; ///< between two groups
};

CliqueShape cliqueShapeOf(const GeneratorParams& p) {
    GeneratorParams checked = p;
    checked.serversPerPod.reset();
    checked.planes.reset();
    validateRequest(checked);
    CliqueShape s;
    const int k = p.leafRadix;
    const int terminalPorts = k / 4;
    s.serversPerRouter = std::min(p.servers, terminalPorts / p.nicsPerServer);
    if (s.serversPerRouter == 0)
        throw GeneratorError("leafRadix", "a radix-" + std::to_string(k) + " router gives " +
                                              std::to_string(terminalPorts) +
                                              " ports to servers, a server needs " +
                                              std::to_string(p.nicsPerServer));
    s.routers = (p.servers + s.serversPerRouter - 1) / s.serversPerRouter;
    const int cliqueMost = k / 2;
    const double asked = kGroups.get(p).value_or(0);
    if (asked != 0 && !(asked >= 1 && asked <= s.routers))
        throw GeneratorError("groups", "groups must be between 1 and the " +
                                           std::to_string(s.routers) +
                                           " routers the servers fill, got " +
                                           std::to_string(static_cast<long long>(asked)));
    s.groups = asked != 0 ? static_cast<int>(asked) : (s.routers + cliqueMost - 1) / cliqueMost;
    s.routersPerGroup = (s.routers + s.groups - 1) / s.groups;
    if (s.routersPerGroup > cliqueMost)
        throw GeneratorError(
            "groups", std::to_string(s.groups) + " groups of " + std::to_string(s.routersPerGroup) +
                          " routers exceed the " + std::to_string(cliqueMost) + " a radix-" +
                          std::to_string(k) + " router's clique holds (use more groups)");
    // The last group holds what is left; it must hold a router.
    const int lastGroupRouters = s.routers - (s.groups - 1) * s.routersPerGroup;
    if (lastGroupRouters < 1)
        throw GeneratorError("groups", std::to_string(s.groups) + " groups of " +
                                           std::to_string(s.routersPerGroup) +
                                           " routers leave the last one empty: the servers fill " +
                                           std::to_string(s.routers) + " routers");
    s.globalPorts = k - s.serversPerRouter * p.nicsPerServer - (s.routersPerGroup - 1);
    if (s.groups > 1) {
        // Every pair of groups alike, as many cables as the smallest group's routers offer.
        s.globalCables = lastGroupRouters * s.globalPorts / (s.groups - 1);
        if (s.globalCables == 0)
            throw GeneratorError("groups", std::to_string(s.groups) + " groups need " +
                                               std::to_string(s.groups - 1) +
                                               " global ports per group, its routers have " +
                                               std::to_string(s.routersPerGroup * s.globalPorts) +
                                               " (use fewer groups or a larger router radix)");
    }
    return s;
}

} // namespace

Topology generateDragonflyClique(const GeneratorParams& p) {
    const CliqueShape s = cliqueShapeOf(p);
    GeneratorParams tor = p;
    tor.railOptimized = false; // a router is its servers' top-of-rack switch
    const LeafTierPlan routerPlan{s.serversPerRouter, 1, p.nicsPerServer, s.routers, 0};
    Topology topology;
    int serversLeft = p.servers;
    std::vector<std::vector<NodeId>> routersOf;
    for (int group = 0; group < s.groups && serversLeft > 0; ++group) {
        auto routers = addServersAndLeaves(topology, tor, routerPlan, group * s.routersPerGroup,
                                           s.routersPerGroup, group, serversLeft);
        // The clique: every router of the group to every other, one cable, within the rows.
        for (std::size_t a = 0; a < routers.size(); ++a)
            for (std::size_t b = a + 1; b < routers.size(); ++b)
                topology.addLink(Link{routers[a], routers[b], p.nicSpeed, 1, LinkMedium::Aoc,
                                      defaultLengthMeters(LinkMedium::Aoc)});
        routersOf.push_back(std::move(routers));
    }
    // Global links: each pair of groups gets its share of both groups' global ports, spread
    // over their routers in turn, so every router ends with about its global ports.
    const auto groups = routersOf.size();
    std::map<std::pair<NodeId, NodeId>, int> bundles;
    for (std::size_t a = 0; a < groups; ++a)
        for (std::size_t b = a + 1; b < groups; ++b)
            for (int cable = 0; cable < s.globalCables; ++cable) {
                // The pair's place among each group's peers, so pairs start on other routers.
                const std::size_t first = ((b - 1) * s.globalCables + cable) % routersOf[a].size();
                const std::size_t second = (a * s.globalCables + cable) % routersOf[b].size();
                ++bundles[{routersOf[a][first], routersOf[b][second]}];
            }
    for (const auto& [ends, count] : bundles)
        topology.addLink(Link{ends.first, ends.second, p.nicSpeed, count, LinkMedium::Optics,
                              kGlobalLinkMeters});
    return topology;
}

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

const GeneratorEntry& dragonflyCliqueKind() {
    using namespace generator_fields;
    static constexpr GeneratorField kRouterRadix{
        .key = "leafRadix",
        .label = "Router radix",
        .help = "Ports per router: about a quarter to servers, half to the other routers of its "
                "group, the rest to global links (Kim et al.'s balanced dragonfly).",
        .type = GeneratorField::Type::Count,
        .member = &GeneratorParams::leafRadix,
    };
    static const GeneratorField* const fields[] = {
        &kServers, &kGpusPerServer, &kNicsPerServer, &kNicGbps, &kRouterRadix, &kGroups,
    };
    static const GeneratorEntry entry{
        .kind = "dragonfly-clique",
        .title = "Dragonfly (routers in cliques)",
        .description = "groups of routers joined all to all, servers on every router, global "
                       "links from every router to the other groups",
        .fields = fields,
        .generate = generateDragonflyClique,
        .hasUplinks = false,
        .alwaysRails = false,
    };
    return entry;
}

} // namespace fabriclab::model
