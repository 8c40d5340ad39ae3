// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/LeafTier.hpp"

#include "model/fabric/GeneratorError.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace fabriclab::model::generator {
namespace {

// Limits that keep a request within what the engine and the canvas handle; beyond them
// a typo (an extra zero) is far likelier than a real cluster.
constexpr int kMaxServers = 131072;
constexpr int kMaxGpus = 1 << 20;
constexpr int kMaxPerServer = 1024;
constexpr int kMaxRadix = 2048;
constexpr double kMaxNicGbps = 3200;
constexpr double kMaxRatio = 64;
// The rails of NVIDIA's rail-optimized designs: one per GPU of an 8-GPU HGX board.
constexpr int kDrawnRails = 8;
// Rounding slack so that 64 x 2/3 ports count as the 42 a person would expect.
constexpr double kEpsilon = 1e-9;

void requireRange(const char* field, double value, double lo, double hi) {
    if (!(value >= lo && value <= hi)) {
        std::ostringstream message;
        message << std::setprecision(12) << field << " must be between " << lo << " and " << hi
                << ", got " << value;
        throw GeneratorError(field, message.str());
    }
}

} // namespace

void validateRequest(const GeneratorParams& p) {
    requireRange("servers", p.servers, 1, kMaxServers);
    requireRange("gpusPerServer", p.gpusPerServer, 1, kMaxPerServer);
    requireRange("nicsPerServer", p.nicsPerServer, 1, kMaxPerServer);
    requireRange("nicGbps", p.nicSpeed.value, 1, kMaxNicGbps);
    requireRange("leafRadix", p.leafRadix, 2, kMaxRadix);
    requireRange("spineRadix", p.spineRadix, 2, kMaxRadix);
    requireRange("coreRadix", p.coreRadix, 2, kMaxRadix);
    requireRange("oversubscription", p.oversubscription, 1.0 / kMaxRatio, kMaxRatio);
    requireRange("spineOversubscription", p.spineOversubscription, 1.0 / kMaxRatio, kMaxRatio);
    if (p.serversPerPod)
        requireRange("serversPerPod", *p.serversPerPod, 1, kMaxServers);
    if (p.planes)
        requireRange("planes", *p.planes, 1, kMaxPerServer);
    const long long gpus = static_cast<long long>(p.servers) * p.gpusPerServer;
    if (gpus > kMaxGpus)
        throw GeneratorError("servers", "the cluster would have " + std::to_string(gpus) +
                                            " GPUs; FabricLab plans up to " +
                                            std::to_string(kMaxGpus));
}

std::string ratioText(double ratio) {
    std::ostringstream text;
    text << ratio << ":1";
    return text.str();
}

int maxDownlinks(int radix, double ratio) {
    return static_cast<int>(std::floor(radix * ratio / (1 + ratio) + kEpsilon));
}

int uplinksFor(int downlinks, double ratio) {
    return static_cast<int>(std::ceil(downlinks / ratio - kEpsilon));
}

LeafTierPlan planLeafTier(const GeneratorParams& p) {
    validateRequest(p);
    LeafTierPlan plan;
    const int downlinks = maxDownlinks(p.leafRadix, p.oversubscription);
    if (p.railOptimized) {
        // NIC r of every server in a unit lands on the unit's leaf r: one port per server.
        plan.leavesPerUnit = p.nicsPerServer;
        plan.portsPerServerLeaf = 1;
        plan.serversPerUnit = std::min(p.servers, downlinks);
    } else {
        // Top-of-rack: every NIC of a server lands on the same leaf.
        plan.leavesPerUnit = 1;
        plan.portsPerServerLeaf = p.nicsPerServer;
        const int perLeaf = downlinks / p.nicsPerServer;
        if (perLeaf == 0)
            throw GeneratorError("leafRadix", "a server needs " + std::to_string(p.nicsPerServer) +
                                                  " ports on its leaf, but a radix-" +
                                                  std::to_string(p.leafRadix) + " leaf at " +
                                                  ratioText(p.oversubscription) + " has only " +
                                                  std::to_string(downlinks) + " downlinks");
        plan.serversPerUnit = std::min(p.servers, perLeaf);
    }
    if (plan.serversPerUnit < 1)
        throw GeneratorError("leafRadix",
                             "a radix-" + std::to_string(p.leafRadix) +
                                 " leaf has no downlink left at this oversubscription");
    // Spread servers evenly over the units a full unit size needs, as a designer would:
    // 128 servers in groups of at most 42 become 4 groups of 32, not 42+42+42+2.
    plan.units = (p.servers + plan.serversPerUnit - 1) / plan.serversPerUnit;
    plan.serversPerUnit = (p.servers + plan.units - 1) / plan.units;
    if (p.railOptimized) {
        // Servers with more NICs than the eight rails rail-optimized designs are drawn with
        // (one per GPU of an HGX board) let neighbouring NICs share a rail leaf when the
        // unit is too small to fill a leaf per NIC (NIC r on leaf r / k, k dividing the
        // NICs): a p5-like server's 32 NICs make 8 leaves of 4 ports per server, one NVL72
        // rack's 72 make 8 leaves of 9, not 72 leaves of one port each. Eight-NIC servers
        // keep a leaf per rail, as in NVIDIA's SuperPODs, and rail traffic stays under one
        // leaf either way.
        const int fit = std::min(p.nicsPerServer / std::min(p.nicsPerServer, kDrawnRails),
                                 downlinks / plan.serversPerUnit);
        int railsPerLeaf = 1;
        for (int k = fit; k >= 2 && railsPerLeaf == 1; --k)
            if (p.nicsPerServer % k == 0)
                railsPerLeaf = k;
        plan.leavesPerUnit = p.nicsPerServer / railsPerLeaf;
        plan.portsPerServerLeaf = railsPerLeaf;
    }
    plan.uplinksPerLeaf =
        uplinksFor(plan.serversPerUnit * plan.portsPerServerLeaf, p.oversubscription);
    return plan;
}

int spreadCount(int lowerCount, int uplinks, int upperPorts, int minimum) {
    if (uplinks <= 0 || lowerCount > upperPorts)
        return 0;
    const long long totalPorts = static_cast<long long>(lowerCount) * uplinks;
    const int lowerBound =
        static_cast<int>(std::max<long long>(minimum, (totalPorts + upperPorts - 1) / upperPorts));
    for (int count = std::max(1, lowerBound); count <= uplinks; ++count)
        if (uplinks % count == 0 &&
            static_cast<long long>(lowerCount) * (uplinks / count) <= upperPorts)
            return count;
    return 0;
}

UplinkSpread spreadUplinks(int lowerCount, int needed, int freePorts, int upperPorts) {
    const auto switchesFor = [&](int uplinks) {
        return spreadCount(lowerCount, uplinks, upperPorts, std::min(2, uplinks));
    };
    UplinkSpread best{needed, switchesFor(needed)};
    for (int more = needed + 1; best.switches != 0 && more <= freePorts; ++more) {
        const int fewer = switchesFor(more);
        if (fewer != 0 && fewer < best.switches)
            best = {more, fewer};
    }
    return best;
}

std::vector<NodeId> addSwitches(Topology& topology, NodeKind kind, int count, int radix, Gbps speed,
                                int pod) {
    const auto tiers = topology.switchCounts();
    int next = 1 + (kind == NodeKind::Leaf    ? tiers.leaf
                    : kind == NodeKind::Spine ? tiers.spine
                                              : tiers.core);
    std::vector<NodeId> ids;
    ids.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        Node node;
        node.name = std::string(toString(kind)) + "-" + std::to_string(next++);
        node.kind = kind;
        node.sw = SwitchProps{radix, speed};
        node.placement.pod = pod;
        ids.push_back(topology.addNode(std::move(node)));
    }
    return ids;
}

std::vector<NodeId> addServersAndLeaves(Topology& topology, const GeneratorParams& p,
                                        const LeafTierPlan& plan, int firstUnit, int unitCount,
                                        int pod, int& serversLeft) {
    std::vector<NodeId> leaves;
    // Rail leaves sit rows away from most of their servers; a top-of-rack leaf is in reach
    // of copper.
    const LinkMedium medium = p.railOptimized ? LinkMedium::Aoc : LinkMedium::Dac;
    int serverNumber = topology.serverCount() + 1;
    for (int unit = firstUnit; unit < firstUnit + unitCount && serversLeft > 0; ++unit) {
        auto unitLeaves =
            addSwitches(topology, NodeKind::Leaf, plan.leavesPerUnit, p.leafRadix, p.nicSpeed, pod);
        for (int rail = 0; rail < plan.leavesPerUnit; ++rail) {
            Node leaf = topology.node(unitLeaves[static_cast<std::size_t>(rail)]);
            leaf.placement.group = unit;
            leaf.placement.rail = p.railOptimized ? rail : -1;
            topology.replaceNode(unitLeaves[static_cast<std::size_t>(rail)], std::move(leaf));
        }
        const int inUnit = std::min(serversLeft, plan.serversPerUnit);
        for (int s = 0; s < inUnit; ++s) {
            Node server;
            server.name = "srv-" + std::to_string(serverNumber++);
            server.kind = NodeKind::Server;
            server.server.gpus = p.gpusPerServer;
            server.server.nics = p.nicsPerServer;
            server.server.nicSpeed = p.nicSpeed;
            server.placement = Placement{pod, unit, -1, -1};
            const NodeId serverId = topology.addNode(std::move(server));
            for (const NodeId leaf : unitLeaves)
                topology.addLink(Link{serverId, leaf, p.nicSpeed, plan.portsPerServerLeaf, medium,
                                      defaultLengthMeters(medium)});
        }
        serversLeft -= inUnit;
        leaves.insert(leaves.end(), unitLeaves.begin(), unitLeaves.end());
    }
    return leaves;
}

void wireEvenly(Topology& topology, const std::vector<NodeId>& lower,
                const std::vector<NodeId>& upper, int uplinksPerLower, Gbps speed) {
    const int parallel = uplinksPerLower / static_cast<int>(upper.size());
    for (const NodeId down : lower)
        for (const NodeId up : upper)
            topology.addLink(Link{down, up, speed, parallel, LinkMedium::Optics,
                                  defaultLengthMeters(LinkMedium::Optics)});
}

void checkPlanes(const GeneratorParams& p, int rails) {
    if (!p.planes || *p.planes == 1)
        return;
    if (!p.railOptimized)
        throw GeneratorError("planes", "planes split a rail-optimized fabric by rail; a "
                                       "top-of-rack fabric has one plane (set railOptimized, "
                                       "or planes to 1)");
    if (rails % *p.planes != 0)
        throw GeneratorError(
            "planes", std::to_string(*p.planes) + " planes cannot share " + std::to_string(rails) +
                          " rails equally; use a divisor of " + std::to_string(rails));
}

} // namespace fabriclab::model::generator
