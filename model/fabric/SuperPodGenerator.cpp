// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/LeafTier.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace fabriclab::model {

using namespace generator;

namespace {

// A rack-scale SuperPOD's own fields, kept in the request's `extra` map. Their fallbacks
// are the GB200 NVL72 rack of NVIDIA's DGX SuperPOD reference architecture
// (docs/reference/rack-scale-domains.md, rs-gb200-trays, rs-su-size, rs-su-rails).
constexpr GeneratorField kGpusPerTray{
    .key = "gpusPerTray",
    .label = "GPUs per tray",
    .help = "GPUs in each compute tray, and so rails: GPU r of every tray and its NICs form "
            "rail r (4 on GB200 and GB300 NVL72).",
    .type = GeneratorField::Type::Count,
    .fallback = 4,
};
constexpr GeneratorField kTraysPerRack{
    .key = "traysPerRack",
    .label = "Tray slots per rack",
    .help = "Compute trays a full rack holds, and its leaves are cabled for (18 on NVL72). "
            "Fewer GPUs per rack make partial racks, cabled as full ones.",
    .type = GeneratorField::Type::Count,
    .fallback = 18,
};
constexpr GeneratorField kRacksPerUnit{
    .key = "racksPerUnit",
    .label = "Racks per scalable unit",
    .help = "Racks under one scalable unit's spine-leaf groups (8 in the GB200 SuperPOD). A "
            "partial last unit gets a full unit's spines.",
    .type = GeneratorField::Type::Count,
    .fallback = 8,
};
// The shared fields, named as a rack-scale design speaks of them.
constexpr GeneratorField kRacks{
    .key = "servers",
    .label = "Racks",
    .help = "NVLink racks; each is one NVLink domain (a FabricLab server).",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::servers,
    .required = true,
};
constexpr GeneratorField kGpusPerRack{
    .key = "gpusPerServer",
    .label = "GPUs per rack",
    .help = "GPUs in each rack's NVLink domain: 72 on NVL72, 64 on a rack of 16 trays.",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::gpusPerServer,
};
constexpr GeneratorField kNicsPerRack{
    .key = "nicsPerServer",
    .label = "Scale-out NICs per rack",
    .help = "Compute-fabric NICs in each rack, the same number for every GPU (72 on NVL72: "
            "one ConnectX per GPU).",
    .type = GeneratorField::Type::Count,
    .member = &GeneratorParams::nicsPerServer,
};

/// A request's own field as a whole number, refused outside [1, hi].
int countOf(const GeneratorParams& p, const GeneratorField& field, int hi) {
    const double value = field.get(p).value_or(field.fallback);
    if (!(value >= 1 && value <= hi) || value != std::floor(value)) {
        std::ostringstream message;
        message << std::setprecision(12) << field.key << " must be a whole number between 1 and "
                << hi << ", got " << value;
        throw GeneratorError(std::string(field.key), message.str());
    }
    return static_cast<int>(value);
}

/// How one request's racks, leaves, spine-leaf groups and core groups are sized.
struct PodShape {
    int rails = 0;          ///< GPUs per tray: one leaf per rail in every rack
    int portsPerLeaf = 0;   ///< a rack's NICs on one rail leaf
    int uplinksPerLeaf = 0; ///< for a full rack at the leaf ratio
    int racksPerUnit = 0;
    int units = 0;
    int spinesPerGroup = 0; ///< spines of one spine-leaf group (one rail of one unit)
    int spineUplinks = 0;
    int coresPerGroup = 0; ///< 0: one unit, no core tier
};

PodShape shapeOf(const GeneratorParams& p) {
    GeneratorParams checked = p;
    checked.serversPerPod.reset();
    checked.planes.reset();
    validateRequest(checked);
    PodShape s;
    s.rails = countOf(p, kGpusPerTray, 64);
    const int traysPerRack = countOf(p, kTraysPerRack, 256);
    s.racksPerUnit = countOf(p, kRacksPerUnit, 1024);
    if (p.gpusPerServer % s.rails != 0)
        throw GeneratorError("gpusPerServer",
                             "a rack holds whole trays of " + std::to_string(s.rails) + " GPUs; " +
                                 std::to_string(p.gpusPerServer) + " is not a multiple");
    const int trays = p.gpusPerServer / s.rails;
    if (trays > traysPerRack)
        throw GeneratorError("gpusPerServer", "a rack of " + std::to_string(traysPerRack) +
                                                  " trays holds at most " +
                                                  std::to_string(traysPerRack * s.rails) +
                                                  " GPUs, got " + std::to_string(p.gpusPerServer));
    if (p.nicsPerServer % p.gpusPerServer != 0)
        throw GeneratorError(
            "nicsPerServer",
            "every GPU of a rack has the same NICs: " + std::to_string(p.nicsPerServer) +
                " NICs do not split over " + std::to_string(p.gpusPerServer) + " GPUs");
    const int nicsPerGpu = p.nicsPerServer / p.gpusPerServer;
    s.portsPerLeaf = trays * nicsPerGpu;
    // Leaves are cabled for a full rack, so a partial rack grows without recabling.
    const int fullRackPorts = traysPerRack * nicsPerGpu;
    const int leafDown = maxDownlinks(p.leafRadix, p.oversubscription);
    if (fullRackPorts > leafDown)
        throw GeneratorError("leafRadix", "a rail leaf takes " + std::to_string(fullRackPorts) +
                                              " NICs of a full rack; a radix-" +
                                              std::to_string(p.leafRadix) + " leaf at " +
                                              ratioText(p.oversubscription) + " has " +
                                              std::to_string(leafDown) + " downlinks");
    s.uplinksPerLeaf = uplinksFor(fullRackPorts, p.oversubscription);
    // A group's spines keep room for the core tier a unit grows into, as the reference
    // architecture's six spines per group do at one unit.
    const int spineDown = maxDownlinks(p.spineRadix, p.spineOversubscription);
    s.spinesPerGroup =
        spreadCount(s.racksPerUnit, s.uplinksPerLeaf, spineDown, std::min(2, s.uplinksPerLeaf));
    if (s.spinesPerGroup == 0)
        throw GeneratorError("spineRadix", "a spine-leaf group joins " +
                                               std::to_string(s.racksPerUnit) + " rack leaves of " +
                                               std::to_string(s.uplinksPerLeaf) +
                                               " uplinks; a radix-" + std::to_string(p.spineRadix) +
                                               " spine at " + ratioText(p.spineOversubscription) +
                                               " has " + std::to_string(spineDown) + " downlinks");
    s.spineUplinks =
        uplinksFor(s.racksPerUnit * (s.uplinksPerLeaf / s.spinesPerGroup), p.spineOversubscription);
    s.units = (p.servers + s.racksPerUnit - 1) / s.racksPerUnit;
    if (s.units > 1) {
        // Core group g joins spine g of every spine-leaf group of every unit.
        const int spinesBelow = s.units * s.rails;
        s.coresPerGroup =
            spreadCount(spinesBelow, s.spineUplinks, p.coreRadix, std::min(2, s.spineUplinks));
        if (s.coresPerGroup == 0)
            throw GeneratorError(
                "coreRadix", "a core group joins " + std::to_string(spinesBelow) + " spines (" +
                                 std::to_string(s.rails) + " per unit, " + std::to_string(s.units) +
                                 " units) of " + std::to_string(s.spineUplinks) +
                                 " uplinks; radix is " + std::to_string(p.coreRadix) +
                                 " (use fewer racks or larger cores)");
    }
    return s;
}

void placeInGroup(Topology& topology, const std::vector<NodeId>& ids, int group, int rail = -1) {
    for (const NodeId id : ids) {
        Node node = topology.node(id);
        node.placement.group = group;
        node.placement.rail = rail;
        topology.replaceNode(id, std::move(node));
    }
}

} // namespace

Topology generateSuperPod(const GeneratorParams& p) {
    const PodShape s = shapeOf(p);
    GeneratorParams rails = p;
    rails.railOptimized = true; // rail leaves sit in network racks: optical cables
    // A unit of the leaf tier is one rack: its rail leaves, one port bundle each.
    const LeafTierPlan rack{1, s.rails, s.portsPerLeaf, p.servers, s.uplinksPerLeaf};
    Topology topology;
    int racksLeft = p.servers;
    std::vector<std::vector<NodeId>> spinesByGroup(static_cast<std::size_t>(s.spinesPerGroup));
    for (int unit = 0; unit < s.units; ++unit) {
        const auto leaves = addServersAndLeaves(topology, rails, rack, unit * s.racksPerUnit,
                                                s.racksPerUnit, unit, racksLeft);
        // One spine-leaf group per rail: rail r's leaf of every rack under its own spines.
        for (int rail = 0; rail < s.rails; ++rail) {
            std::vector<NodeId> railLeaves;
            for (std::size_t i = static_cast<std::size_t>(rail); i < leaves.size();
                 i += static_cast<std::size_t>(s.rails))
                railLeaves.push_back(leaves[i]);
            const auto spines = addSwitches(topology, NodeKind::Spine, s.spinesPerGroup,
                                            p.spineRadix, p.nicSpeed, unit);
            placeInGroup(topology, spines, rail, rail); // drawn as the rail's spines
            wireEvenly(topology, railLeaves, spines, s.uplinksPerLeaf, p.nicSpeed);
            for (std::size_t g = 0; g < spines.size(); ++g)
                spinesByGroup[g].push_back(spines[g]);
        }
    }
    if (s.coresPerGroup > 0)
        for (std::size_t g = 0; g < spinesByGroup.size(); ++g) {
            const auto cores =
                addSwitches(topology, NodeKind::Core, s.coresPerGroup, p.coreRadix, p.nicSpeed, -1);
            placeInGroup(topology, cores, static_cast<int>(g));
            wireEvenly(topology, spinesByGroup[g], cores, s.spineUplinks, p.nicSpeed);
        }
    return topology;
}

const GeneratorEntry& superPodKind() {
    using namespace generator_fields;
    static const GeneratorField* const fields[] = {
        &kRacks,       &kGpusPerRack,  &kNicsPerRack,      &kNicGbps,
        &kGpusPerTray, &kTraysPerRack, &kRacksPerUnit,     &kLeafRadix,
        &kSpineRadix,  &kCoreRadix,    &kOversubscription, &kSpineOversubscription,
    };
    static const GeneratorEntry entry{
        .kind = "superpod",
        .title = "Rack-scale SuperPOD (NVL72 racks)",
        .description = "NVLink racks under a rail leaf per rack, a spine-leaf group per rail of "
                       "each scalable unit, and core groups joining the units",
        .fields = fields,
        .generate = generateSuperPod,
        .hasUplinks = true,
        .alwaysRails = true,
    };
    return entry;
}

} // namespace fabriclab::model
