// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/catalog/PartChoice.hpp"
#include "model/catalog/PriceCatalog.hpp"
#include "model/core/Units.hpp"
#include "model/topology/Topology.hpp"

#include <optional>
#include <string>
#include <vector>

namespace fabriclab::model {

enum class CostCategory { Switches, Nics, Cables };

/// Where in the fabric money goes: NICs and server cables at the servers, switches at
/// their tier, fibres and their transceivers between the tiers they join (Other for
/// pairs drawn by hand, such as leaf to core).
enum class CostTier { Servers, Leaf, Spine, Core, LeafSpine, SpineCore, Other };
inline constexpr int kCostTierCount = 7;

/// One priced line of the bill of materials.
struct BomLine {
    CostCategory category = CostCategory::Switches;
    CostTier tier = CostTier::Servers;
    std::string item;   ///< what it is, e.g. "leaf switch: NVIDIA Quantum-2 QM9700"
    std::string partId; ///< price catalog id
    long long quantity = 0;
    Usd unitPrice{0};
    Watts unitPower{0};
    std::string role;        ///< what it does where, e.g. "leaf switch", "spine fibre"
    std::string partName;    ///< the catalog's name of the part
    std::string partClass;   ///< switch, NIC, DAC, AOC, fibre or transceiver
    std::string priceSource; ///< the catalog's source of the unit price
    std::string powerSource; ///< the catalog's source of the unit power

    Usd total() const { return unitPrice * static_cast<double>(quantity); }
    Watts power() const { return unitPower * static_cast<double>(quantity); }
};

/// Capital cost of the fabric (not the GPUs) and what it adds per GPU-hour.
struct CostReport {
    std::vector<BomLine> bom;
    Usd switches{0};
    Usd nics{0};
    Usd cables{0}; ///< cables and transceivers
    Usd capex{0};
    Watts power{0}; ///< typical draw of switches, NICs and optics
    double amortizationMonths = 36;
    double perGpuHour = 0;  ///< capex spread over every GPU for the amortization period, USD
    double perGpu = 0;      ///< capex per GPU, USD
    double perEndpoint = 0; ///< capex per server NIC port on the fabric, USD
    /// Where the bill had to substitute a part (a run longer than copper reaches, say).
    std::vector<std::string> notes;
};

struct CostOptions {
    std::optional<double> amortizationMonths; ///< the price catalog's default when absent
};

/// Bill of materials: every switch at its tier's part (FabricHardware); one NIC per server NIC;
/// every cable by its link's medium and length: copper (the fabric's server cable, or the
/// cheapest catalog DAC that reaches), an active optical cable, or a fibre with a NIC-side
/// transceiver at a server end and the fabric's switch-side module at a switch end (a
/// twin-port module serving two links). A run longer than its medium reaches is priced as
/// the next medium up, with a note. Throws std::invalid_argument when a part has no price.
CostReport estimateCost(const Topology& topology, const Fabric& fabric, const PriceCatalog& prices,
                        const CostOptions& options = {});

/// The switch `node` (a leaf, spine or core) is bought as: its tier's part from the fabric's
/// hardware, or a larger or faster one where its ports outrun it (model::switchPartFor), as
/// estimateCost buys it, so a cabling plan names the ports of the switch the bill counts.
/// Throws std::invalid_argument when the fabric's switch has no price.
SwitchPurchase switchPurchaseFor(const Node& node, const Fabric& fabric,
                                 const PriceCatalog& prices);

/// How one link is bought: its medium after any step up (copper too short for the run is
/// bought as an active optical cable, an AOC too short as fibre) and the cable part, as
/// estimateCost prices it, so a cabling plan names the very part the bill counts.
struct CablePurchase {
    LinkMedium medium = LinkMedium::Dac;
    const PricedPart* cable = nullptr;
    bool copperTooShort = false; ///< the drawn copper does not reach; stepped up
    bool fibreTooShort = false;  ///< no fibre in the catalog reaches; the fabric's own stands
};
/// Throws std::invalid_argument when the fabric's cable parts have no price.
CablePurchase cablePurchaseFor(const Topology& topology, const Link& link, const Fabric& fabric,
                               const PriceCatalog& prices);

std::string_view toString(CostCategory category);
std::string_view toString(CostTier tier);

} // namespace fabriclab::model
