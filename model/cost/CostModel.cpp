// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/cost/CostModel.hpp"

#include "model/catalog/PartChoice.hpp"
#include "model/core/TextFormat.hpp"

#include <cstdint>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

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

bool reaches(const PricedPart& p, double meters) {
    return p.maxMeters <= 0 || meters <= p.maxMeters;
}

/// The cable a link of `medium` buys: the fabric's own part when it is of that medium, fast
/// enough and long enough; else the cheapest catalog cable that is; null when none is.
const PricedPart* cableFor(const PriceCatalog& prices, const PricedPart* preferred,
                           LinkMedium medium, double gbps, double meters) {
    const std::string_view wanted = toString(medium);
    const auto fits = [&](const PricedPart& p) {
        return p.medium == wanted && p.gbps >= gbps && reaches(p, meters);
    };
    if (preferred && fits(*preferred))
        return preferred;
    const PricedPart* best = nullptr;
    for (const auto& [id, p] : prices.cables)
        if (fits(p) && (!best || p.price < best->price))
            best = &p;
    return best;
}

/// A link's cable as bought (see CablePurchase), from the fabric's server cable and fibre.
CablePurchase buyCable(const PriceCatalog& prices, const PricedPart& serverCable,
                       const PricedPart& fibre, const Link& link, bool serverLink) {
    CablePurchase bought{link.medium, nullptr, false, false};
    const double gbps = link.speed.value;
    // A run longer than copper or an AOC reaches is bought as the next medium up.
    for (;;) {
        const PricedPart* preferred = bought.medium == LinkMedium::Optics ? &fibre
                                      : serverLink                        ? &serverCable
                                                                          : nullptr;
        bought.cable = cableFor(prices, preferred, bought.medium, gbps, link.lengthMeters);
        if (bought.cable || bought.medium == LinkMedium::Optics)
            break;
        // Copper too short is the design's own slip, worth a word; an AOC run at a speed
        // no AOC is made for (XDR) is simply built from transceivers and fibre.
        if (bought.medium == LinkMedium::Dac)
            bought.copperTooShort = true;
        bought.medium = bought.medium == LinkMedium::Dac ? LinkMedium::Aoc : LinkMedium::Optics;
    }
    if (!bought.cable) {
        // No fibre reaches: keep the fabric's own and say so rather than refuse the bill.
        bought.fibreTooShort = true;
        bought.cable = &fibre;
    }
    return bought;
}

/// The transceiver a NIC end of an optical link plugs in: single-link modules of its speed.
const PricedPart* nicTransceiverFor(const PriceCatalog& prices, double gbps) {
    const PricedPart* best = nullptr;
    for (const auto& [id, p] : prices.transceivers)
        if (p.ports <= 1 && p.gbps >= gbps && (!best || p.price < best->price))
            best = &p;
    return best;
}

/// The module a switch end of a `gbps` fibre plugs in on a switch bought as `sw`: where that
/// switch runs its cages split (a 51.2 Tb/s switch's 800G cage carrying two 400G links), a
/// module carrying as many links (a twin-port 2 x 400G OSFP); otherwise the fabric's own
/// module where it runs that fast, else one per link that does.
const PricedPart& switchOpticFor(const PriceCatalog& prices, const PricedPart& fabricOptic,
                                 const PricedPart* sw, std::string_view transport, double gbps) {
    const int linksPerCage = sw && gbps > 0 ? static_cast<int>(sw->gbps / gbps + 1e-9) : 1;
    if (linksPerCage >= 2 && fabricOptic.ports != linksPerCage) {
        const PricedPart* best = nullptr;
        for (const auto& [id, p] : prices.transceivers)
            if (p.ports == linksPerCage && p.gbps >= gbps && (!best || p.price < best->price))
                best = &p;
        if (best)
            return *best;
    }
    return partRunning(prices.transceivers, fabricOptic, transport, gbps, /*onePerLink=*/true);
}

CostTier costTierOf(LinkTier tier) {
    switch (tier) {
    case LinkTier::Server:
        return CostTier::Servers;
    case LinkTier::LeafSpine:
        return CostTier::LeafSpine;
    case LinkTier::SpineCore:
        return CostTier::SpineCore;
    case LinkTier::Other:
        return CostTier::Other;
    }
    return CostTier::Other;
}

/// A part's class as purchasing groups them: cables by medium, transceivers apart.
std::string partClassOf(CostCategory category, const PricedPart& p) {
    if (category == CostCategory::Switches)
        return "switch";
    if (category == CostCategory::Nics)
        return "NIC";
    return p.medium == "dac"      ? "DAC"
           : p.medium == "aoc"    ? "AOC"
           : p.medium == "optics" ? "fibre"
                                  : "transceiver";
}

void addLine(std::vector<BomLine>& bom, CostCategory category, CostTier tier,
             const std::string& item, const PricedPart& p, long long quantity) {
    if (quantity > 0)
        bom.push_back(BomLine{category, tier, item + ": " + p.name, p.id, quantity, p.price,
                              p.power, item, p.name, partClassOf(category, p), p.priceSource,
                              p.powerSource});
}

} // namespace

SwitchPurchase switchPurchaseFor(const Node& node, const Fabric& fabric,
                                 const PriceCatalog& prices) {
    const auto& hw = fabric.hardware;
    const std::string& id = node.kind == NodeKind::Leaf    ? hw.switchId
                            : node.kind == NodeKind::Spine ? hw.spineSwitch()
                                                           : hw.coreSwitch();
    return switchPartFor(prices.switches, part(prices.switches, id, "switch"), fabric.transport,
                         node.sw.portSpeed.value, node.sw.radix);
}

CablePurchase cablePurchaseFor(const Topology& topology, const Link& link, const Fabric& fabric,
                               const PriceCatalog& prices) {
    const auto& hw = fabric.hardware;
    const bool serverLink = topology.node(link.a).kind == NodeKind::Server ||
                            topology.node(link.b).kind == NodeKind::Server;
    return buyCable(prices, part(prices.cables, hw.serverCableId, "cable"),
                    part(prices.cables, hw.switchCableId, "cable"), link, serverLink);
}

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

namespace {

// estimateCost's stages, in the order it runs them.

/// The fabric's own parts, looked up once (each throws naming a part the prices lack).
struct FabricParts {
    const PricedPart& nic;
    const PricedPart& serverCable;
    const PricedPart& fibre;
    const PricedPart& switchOptic;
};

FabricParts fabricParts(const Fabric& fabric, const PriceCatalog& prices) {
    const auto& hw = fabric.hardware;
    const PricedPart& nic = part(prices.nics, hw.nicId, "NIC");
    const PricedPart& serverCable = part(prices.cables, hw.serverCableId, "cable");
    const PricedPart& fibre = part(prices.cables, hw.switchCableId, "cable");
    const PricedPart& switchOptic = part(prices.transceivers, hw.transceiverId, "transceiver");
    return {nic, serverCable, fibre, switchOptic};
}

/// Switches and NICs bought, per tier and part id (a stable order for the bill): each
/// tier's own switch, or a faster or larger one where its links or its ports outrun it;
/// the fabric's NIC, or a faster one.
struct HardwareBought {
    struct Line {
        const PricedPart* part;
        long long quantity;
    };
    std::map<std::pair<CostTier, std::string>, Line> lines;
    long long nics = 0;
    std::unordered_map<std::uint32_t, const PricedPart*> switchOf; ///< node -> part
};

HardwareBought buyHardware(const Topology& topology, const Fabric& fabric,
                           const PriceCatalog& prices, const PricedPart& nicPart) {
    HardwareBought bought;
    const auto buy = [&](CostTier tier, const PricedPart& p, long long quantity) {
        auto& line =
            bought.lines.try_emplace({tier, p.id}, HardwareBought::Line{&p, 0}).first->second;
        line.quantity += quantity;
    };
    for (const auto& [id, node] : topology.nodes()) {
        if (node.kind == NodeKind::Server) {
            bought.nics += node.server.nics;
            buy(CostTier::Servers,
                partRunning(prices.nics, nicPart, fabric.transport, node.server.nicSpeed.value),
                node.server.nics);
            continue;
        }
        const bool leaf = node.kind == NodeKind::Leaf;
        const bool spine = node.kind == NodeKind::Spine;
        const CostTier tier = leaf ? CostTier::Leaf : spine ? CostTier::Spine : CostTier::Core;
        const SwitchPurchase purchase = switchPurchaseFor(node, fabric, prices);
        buy(tier, *purchase.part, purchase.count);
        bought.switchOf[id.value] = purchase.part;
    }
    return bought;
}

/// Each tier with its own part: a fabric may use larger switches above the leaves.
void billHardware(std::vector<BomLine>& bom, const HardwareBought& hardware) {
    using enum CostCategory;
    for (const CostTier tier : {CostTier::Leaf, CostTier::Spine, CostTier::Core, CostTier::Servers})
        for (const auto& [key, line] : hardware.lines)
            if (key.first == tier)
                addLine(bom, tier == CostTier::Servers ? Nics : Switches, tier,
                        std::string(tier == CostTier::Servers
                                        ? "server NIC"
                                        : std::string(toString(tier)) + " switch"),
                        *line.part, line.quantity);
}

struct Tally {
    CostTier tier;
    LinkMedium medium; // Optics here stands for NIC-side transceivers
    const PricedPart* part;
    long long quantity;
};

void tally(std::vector<Tally>& tallies, CostTier tier, LinkMedium medium, const PricedPart* p,
           long long quantity) {
    for (Tally& t : tallies)
        if (t.tier == tier && t.medium == medium && t.part == p) {
            t.quantity += quantity;
            return;
        }
    tallies.push_back(Tally{tier, medium, p, quantity});
}

/// Every link by its medium and length: copper within its reach, an active optical cable
/// with its ends built in, or a fibre with a transceiver at each end. Switch ends of
/// fibres are counted per switch and tier, since a twin-port module serves two links from
/// one cage and a switch buys whole modules. Tallies, not text: a 16K-GPU fabric has tens
/// of thousands of links, and a string per link would only churn the allocator while the
/// simulator runs beside us.
struct CablesBought {
    std::vector<Tally> cables;
    std::vector<Tally> nicOptics;
    /// (switch, tier, module) -> fibre ends
    std::map<std::tuple<std::uint32_t, int, std::string>, long long> switchEnds;
    std::set<std::pair<double, double>> shortCopper; ///< (Gb/s, metres)
    std::set<double> unreachedFibre;                 ///< metres
};

CablesBought buyCables(const Topology& topology, const Fabric& fabric, const PriceCatalog& prices,
                       const FabricParts& parts, const HardwareBought& hardware) {
    CablesBought out;
    for (const auto& [id, link] : topology.links()) {
        const CostTier tier = costTierOf(topology.tierOf(link));
        const double gbps = link.speed.value;
        const CablePurchase bought =
            buyCable(prices, parts.serverCable, parts.fibre, link, tier == CostTier::Servers);
        const LinkMedium medium = bought.medium;
        if (bought.copperTooShort)
            out.shortCopper.emplace(gbps, link.lengthMeters);
        if (bought.fibreTooShort)
            out.unreachedFibre.insert(link.lengthMeters);
        tally(out.cables, tier, medium, bought.cable, link.count);
        if (medium != LinkMedium::Optics)
            continue;
        for (const NodeId end : {link.a, link.b}) {
            if (topology.node(end).kind == NodeKind::Server) {
                const PricedPart* optic = nicTransceiverFor(prices, gbps);
                if (!optic)
                    throw std::invalid_argument("the price catalog has no transceiver for a " +
                                                fixed(gbps, 0) + "G NIC port");
                tally(out.nicOptics, tier, LinkMedium::Optics, optic, link.count);
            } else {
                const auto found = hardware.switchOf.find(end.value);
                const PricedPart& optic =
                    switchOpticFor(prices, parts.switchOptic,
                                   found == hardware.switchOf.end() ? nullptr : found->second,
                                   fabric.transport, gbps);
                out.switchEnds[{end.value, static_cast<int>(tier), optic.id}] += link.count;
            }
        }
    }
    return out;
}

std::string placeOf(CostTier tier) {
    return tier == CostTier::Servers ? std::string("server-to-leaf") : std::string(toString(tier));
}

void billCables(std::vector<BomLine>& bom, const CablesBought& bought) {
    using enum CostCategory;
    for (const Tally& t : bought.cables)
        addLine(bom, Cables, t.tier,
                placeOf(t.tier) + (t.medium == LinkMedium::Dac   ? " copper cable"
                                   : t.medium == LinkMedium::Aoc ? " active optical cable"
                                                                 : " fibre"),
                *t.part, t.quantity);
    for (const Tally& t : bought.nicOptics)
        addLine(bom, Cables, t.tier, "NIC-side transceiver", *t.part, t.quantity);
}

/// A switch buys whole modules: ends per switch, rounded up per module kind.
void billSwitchOptics(std::vector<BomLine>& bom, const PriceCatalog& prices,
                      const CablesBought& bought) {
    std::map<std::pair<int, std::string>, long long> switchModules;
    for (const auto& [key, ends] : bought.switchEnds) {
        const auto& [sw, tier, id] = key;
        const int linksPerModule = std::max(1, prices.transceivers.at(id).ports);
        switchModules[{tier, id}] += (ends + linksPerModule - 1) / linksPerModule;
    }
    for (const auto& [key, modules] : switchModules) {
        const auto& [tier, id] = key;
        const PricedPart* optic = &prices.transceivers.at(id);
        const int linksPerModule = std::max(1, optic->ports);
        const std::string moduleText =
            linksPerModule > 1 ? " switch-side transceiver (" + std::to_string(linksPerModule) +
                                     " links per module)"
                               : std::string(" switch-side transceiver (one per fibre end)");
        addLine(bom, CostCategory::Cables, static_cast<CostTier>(tier),
                placeOf(static_cast<CostTier>(tier)) + moduleText, *optic, modules);
    }
}

/// What the prices could not match exactly, in words.
void notePricing(std::vector<std::string>& notes, const CablesBought& bought,
                 const PricedPart& fibre) {
    for (const auto& [gbps, meters] : bought.shortCopper)
        notes.push_back("no copper cable in the price catalog runs " + fixed(gbps, 0) + "G over " +
                        fixed(meters, 1) + " m; priced as the next medium up");
    for (const double meters : bought.unreachedFibre)
        notes.push_back("no fibre in the price catalog reaches " + fixed(meters, 1) +
                        " m; priced at " + fibre.name);
}

/// The bill's totals, and capex per GPU-hour, GPU and endpoint.
void totalUp(CostReport& report, const Topology& topology, const PriceCatalog& prices,
             const CostOptions& options, long long nics) {
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
    report.perGpu = gpus > 0 ? report.capex.value / gpus : 0.0;
    report.perEndpoint = nics > 0 ? report.capex.value / static_cast<double>(nics) : 0.0;
}

} // namespace

CostReport estimateCost(const Topology& topology, const Fabric& fabric, const PriceCatalog& prices,
                        const CostOptions& options) {
    const FabricParts parts = fabricParts(fabric, prices);
    const HardwareBought hardware = buyHardware(topology, fabric, prices, parts.nic);
    CostReport report;
    billHardware(report.bom, hardware);
    const CablesBought cables = buyCables(topology, fabric, prices, parts, hardware);
    billCables(report.bom, cables);
    billSwitchOptics(report.bom, prices, cables);
    notePricing(report.notes, cables, parts.fibre);
    totalUp(report, topology, prices, options, hardware.nics);
    return report;
}

} // namespace fabriclab::model
