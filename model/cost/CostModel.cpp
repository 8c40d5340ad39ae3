// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/cost/CostModel.hpp"

#include <stdexcept>

namespace fabriclab::model {
namespace {

const PricedPart& part(const std::map<std::string, PricedPart>& parts, const std::string& id,
                       const char* what) {
    const auto it = parts.find(id);
    if (it == parts.end())
        throw std::invalid_argument(std::string("the price catalog has no ") + what + " \"" + id +
                                    "\"");
    return it->second;
}

void addLine(CostReport& report, CostCategory category, CostTier tier, const std::string& item,
             const PricedPart& p, long long quantity) {
    if (quantity > 0)
        report.bom.push_back(
            BomLine{category, tier, item + ": " + p.name, p.id, quantity, p.price, p.power});
}

} // namespace

std::string_view toString(CostCategory category) {
    switch (category) {
    case CostCategory::Switches:
        return "switches";
    case CostCategory::Nics:
        return "nics";
    case CostCategory::Cables:
        return "cables";
    }
    return "?";
}

std::string_view toString(CostTier tier) {
    switch (tier) {
    case CostTier::Servers:
        return "servers";
    case CostTier::Leaf:
        return "leaf";
    case CostTier::Spine:
        return "spine";
    case CostTier::Core:
        return "core";
    case CostTier::LeafSpine:
        return "leaf-spine";
    case CostTier::SpineCore:
        return "spine-core";
    case CostTier::Other:
        return "other";
    }
    return "?";
}

CostReport estimateCost(const Topology& topology, const Fabric& fabric, const PriceCatalog& prices,
                        const CostOptions& options) {
    const auto& hw = fabric.hardware;
    const PricedPart& leafPart = part(prices.switches, hw.switchId, "switch");
    const PricedPart& spinePart = part(prices.switches, hw.spineSwitch(), "switch");
    const PricedPart& corePart = part(prices.switches, hw.coreSwitch(), "switch");
    const PricedPart& nicPart = part(prices.nics, hw.nicId, "NIC");
    const PricedPart& serverCable = part(prices.cables, hw.serverCableId, "cable");
    const PricedPart& fibre = part(prices.cables, hw.switchCableId, "cable");
    const PricedPart& transceiver = part(prices.transceivers, hw.transceiverId, "transceiver");

    long long nics = 0;
    for (const auto& [id, node] : topology.nodes())
        if (node.kind == NodeKind::Server)
            nics += node.server.nics;
    const CableCounts cables = topology.cableCounts();
    const long long serverCables = cables.server;
    const TierCounts tiers = topology.switchCounts();

    CostReport report;
    using enum CostCategory;
    // Each tier with its own part: a fabric may use larger switches above the leaves.
    addLine(report, Switches, CostTier::Leaf, "leaf switch", leafPart, tiers.leaf);
    addLine(report, Switches, CostTier::Spine, "spine switch", spinePart, tiers.spine);
    addLine(report, Switches, CostTier::Core, "core switch", corePart, tiers.core);
    addLine(report, Nics, CostTier::Servers, "server NIC", nicPart, nics);
    addLine(report, Cables, CostTier::Servers, "server-to-leaf cable", serverCable, serverCables);
    // Fibres by the tiers they join, so the bill shows where the optics money goes.
    const std::pair<CostTier, long long> fibres[] = {{CostTier::LeafSpine, cables.leafSpine},
                                                     {CostTier::SpineCore, cables.spineCore},
                                                     {CostTier::Other, cables.other}};
    for (const auto& [tier, count] : fibres) {
        const std::string where(toString(tier));
        addLine(report, Cables, tier, where + " fibre", fibre, count);
        addLine(report, Cables, tier, where + " transceiver (two per fibre)", transceiver,
                2 * count);
    }

    for (const BomLine& line : report.bom) {
        (line.category == CostCategory::Switches ? report.switches
         : line.category == CostCategory::Nics   ? report.nics
                                                 : report.cables) += line.total();
        report.power += line.power();
    }
    report.capex = report.switches + report.nics + report.cables;
    report.amortizationMonths = options.amortizationMonths.value_or(prices.amortizationMonths);
    if (!(report.amortizationMonths > 0))
        throw std::invalid_argument("amortization months must be positive");
    const int gpus = topology.gpuCount();
    const double gpuHours = report.amortizationMonths * prices.hoursPerMonth * gpus;
    report.perGpuHour = gpuHours > 0 ? report.capex.value / gpuHours : 0.0;
    return report;
}

} // namespace fabriclab::model
