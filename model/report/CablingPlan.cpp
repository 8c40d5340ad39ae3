// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/CablingPlan.hpp"

#include "model/cost/CostModel.hpp"
#include "model/io/Csv.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

namespace fabriclab::model {
namespace {

/// How a device's ports are named, and which it gives out next.
struct PortCursor {
    int next = 0;        ///< ports handed out so far
    int ports = 0;       ///< ports it has at its link speed (radix, or NICs for a server)
    int split = 1;       ///< links per cage (Ethernet breakout)
    bool server = false; ///< nicK instead of a switch port
    int nics = 0;        ///< a server's NICs: with several ports each, cable p x nics + i
    int portsPerNic = 1; ///< is NIC i's port p, "nicIpP"
    bool ethernet = false;
};

std::string portName(const PortCursor& cursor, int index) {
    if (cursor.server && cursor.portsPerNic > 1 && cursor.nics > 0)
        return "nic" + std::to_string(index % cursor.nics) + "p" +
               std::to_string(index / cursor.nics);
    if (cursor.server)
        return "nic" + std::to_string(index);
    if (!cursor.ethernet)
        return std::to_string(index + 1);
    const int cage = index / cursor.split + 1;
    if (cursor.split <= 1)
        return "swp" + std::to_string(cage);
    return "swp" + std::to_string(cage) + "s" + std::to_string(index % cursor.split);
}

PortCursor cursorFor(const Node& node, const Fabric& fabric, const PriceCatalog& prices) {
    PortCursor cursor;
    cursor.ethernet = fabric.transport != "infiniband";
    if (node.kind == NodeKind::Server) {
        cursor.server = true;
        cursor.ports = node.server.cablePorts();
        cursor.nics = node.server.nics;
        cursor.portsPerNic = node.server.portsPerNic;
        return cursor;
    }
    cursor.ports = node.sw.radix;
    // A cage running slower links than it is built for carries several: 800G as 2 x 400G.
    if (const PricedPart* part = switchPurchaseFor(node, fabric, prices).part;
        part && !part->portModes.empty() && node.sw.portSpeed.value > 0) {
        const double native = part->portModes.front().gbps;
        cursor.split =
            std::max(1, static_cast<int>(std::floor(native / node.sw.portSpeed.value + 1e-9)));
    }
    return cursor;
}

std::string_view tierText(LinkTier tier) {
    switch (tier) {
    case LinkTier::Server:
        return "servers";
    case LinkTier::LeafSpine:
        return "leaf-spine";
    case LinkTier::SpineCore:
        return "spine-core";
    case LinkTier::Other:
        return "other";
    }
    return "other";
}

std::string_view mediumText(LinkMedium medium) {
    return medium == LinkMedium::Dac   ? "DAC"
           : medium == LinkMedium::Aoc ? "AOC"
                                       : "transceiver + fibre";
}

} // namespace

std::string_view lengthClassOf(double meters) {
    if (meters <= 3)
        return "rack";
    if (meters <= 30)
        return "row";
    if (meters <= 100)
        return "hall";
    return "building";
}

CablingPlan cablingPlan(const Topology& topology, const Fabric& fabric,
                        const PriceCatalog& prices) {
    CablingPlan plan;
    std::unordered_map<std::uint32_t, PortCursor> cursors;
    const auto take = [&](NodeId id) -> CableEnd {
        const Node& node = topology.node(id);
        auto [at, fresh] = cursors.try_emplace(id.value);
        if (fresh)
            at->second = cursorFor(node, fabric, prices);
        PortCursor& cursor = at->second;
        const int index = cursor.next++;
        if (index == cursor.ports)
            plan.notes.push_back(node.name + " has more cables than its " +
                                 std::to_string(cursor.ports) + " ports");
        return {node.name, portName(cursor, index)};
    };
    // A generated fabric has a handful of kinds of link: buy each kind once.
    std::map<std::tuple<LinkMedium, double, double, bool>, CablePurchase> purchases;
    long long number = 0;
    long long total = 0;
    for (const auto& [id, link] : topology.links())
        total += link.count;
    plan.cables.reserve(static_cast<std::size_t>(total));
    for (const auto& [id, link] : topology.links()) {
        const bool serverLink = topology.node(link.a).kind == NodeKind::Server ||
                                topology.node(link.b).kind == NodeKind::Server;
        auto [kind, fresh] =
            purchases.try_emplace({link.medium, link.speed.value, link.lengthMeters, serverLink});
        if (fresh)
            kind->second = cablePurchaseFor(topology, link, fabric, prices);
        const CablePurchase& bought = kind->second;
        const std::string_view tier = tierText(topology.tierOf(link));
        for (int cable = 0; cable < link.count; ++cable) {
            PlannedCable planned;
            planned.number = ++number;
            planned.tier = tier;
            planned.a = take(link.a);
            planned.b = take(link.b);
            planned.gbps = link.speed.value;
            planned.medium = mediumText(bought.medium);
            planned.lengthMeters = link.lengthMeters;
            planned.lengthClass = lengthClassOf(link.lengthMeters);
            planned.partId = bought.cable ? bought.cable->id : std::string();
            plan.cables.push_back(std::move(planned));
        }
    }
    return plan;
}

std::string cablingCsv(const CablingPlan& plan) {
    CsvWriter csv({"cable", "tier", "end A device", "end A port", "end B device", "end B port",
                   "speed Gb/s", "medium", "length m", "length class", "part id"});
    // About 110 bytes a record: one allocation for a 131K-GPU plan's 43 MB, not thirty.
    csv.reserve(plan.cables.size() * 110);
    for (const PlannedCable& c : plan.cables)
        csv.row({std::to_string(c.number), std::string(c.tier), c.a.device, c.a.port, c.b.device,
                 c.b.port, CsvWriter::number(c.gbps, 0), std::string(c.medium),
                 CsvWriter::number(c.lengthMeters, 2), std::string(c.lengthClass), c.partId});
    return csv.text();
}

nlohmann::ordered_json cablingJson(const CablingPlan& plan) {
    nlohmann::ordered_json cables = nlohmann::ordered_json::array();
    for (const PlannedCable& c : plan.cables)
        cables.push_back({{"cable", c.number},
                          {"tier", c.tier},
                          {"a", {{"device", c.a.device}, {"port", c.a.port}}},
                          {"b", {{"device", c.b.device}, {"port", c.b.port}}},
                          {"gbps", c.gbps},
                          {"medium", c.medium},
                          {"lengthMeters", c.lengthMeters},
                          {"lengthClass", c.lengthClass},
                          {"partId", c.partId}});
    return {{"cables", std::move(cables)}, {"warnings", plan.notes}};
}

std::vector<CableCount> cablingSummary(const CablingPlan& plan) {
    std::vector<CableCount> counts;
    // A handful of kinds: a linear look-up beats hashing 400,000 keys.
    for (const PlannedCable& cable : plan.cables) {
        auto it = std::find_if(counts.begin(), counts.end(), [&](const CableCount& c) {
            return c.tier == cable.tier && c.gbps == cable.gbps && c.medium == cable.medium &&
                   c.lengthClass == cable.lengthClass && c.partId == cable.partId;
        });
        if (it == counts.end())
            it = counts.insert(counts.end(), CableCount{cable.tier, cable.gbps, cable.medium,
                                                        cable.lengthClass, cable.partId, 0});
        ++it->count;
    }
    return counts;
}

} // namespace fabriclab::model
