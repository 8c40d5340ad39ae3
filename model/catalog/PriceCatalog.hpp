// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/Units.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// One way to run a switch's ports: a 51.2 Tb/s switch is 64 x 800G, or split into
/// 128 x 400G.
struct PortMode {
    double gbps = 0;
    int ports = 0;
};

/// One purchasable part: a switch, a NIC, a cable or a transceiver.
struct PricedPart {
    std::string id;
    std::string name;
    Usd price{0};
    Watts power{0};
    std::string priceSource; ///< where the price comes from (empty in a bare price list)
    std::string powerSource; ///< where the power figure comes from
    /// Switches and NICs: ports. Transceivers: links one module carries (2 for a twin-port
    /// OSFP running two 400G links from one 800G cage); absent means 1.
    int ports = 0;
    double gbps = 0;    ///< port, cable or per-link transceiver speed
    std::string medium; ///< cables: "dac", "aoc" or "optics" (the fibre between transceivers)
    /// Switches and NICs: "infiniband" or "ethernet"; empty for either (a VPI adapter).
    std::string transport;
    double maxMeters = 0; ///< cables: longest run the part reaches; 0 for no stated limit
    /// Switches: every port speed the part runs at (port splitting); the first is its
    /// native one (ports, gbps above).
    std::vector<PortMode> portModes;
};

/// Ports a switch offers at `gbps`: those of its slowest mode at least that fast (a faster
/// port runs slower links); 0 when no mode is fast enough.
int portsAt(const PricedPart& part, double gbps);

/// A catalog number and where it comes from, for figures a report lists as its assumptions.
struct Sourced {
    double value = 0;
    std::string source;
};

/// What owning or renting one GPU of a kind costs, beyond the fabric.
struct GpuCost {
    std::string gpuId;
    Sourced serverUsdPerGpu;     ///< the GPU server's price, per GPU
    Sourced serverWattsPerGpu;   ///< the server's draw at full load, per GPU
    Sourced rentalUsdPerGpuHour; ///< renting one such GPU on demand
};

/// A cloud's own fabric rented with its servers: EFA only comes with AWS instances.
struct CloudRental {
    std::string fabricId;
    std::string gpuId;
    std::string offer; ///< the instance, e.g. "AWS p5.48xlarge, on demand"
    Sourced usdPerGpuHour;
};

/// The prices behind the cost of ownership: the facility, and every GPU kind's server and
/// rental.
struct OwnershipPrices {
    Sourced pue{1.0, ""}; ///< facility power / IT power
    Sourced electricityUsdPerKwh;
    std::map<std::string, GpuCost, std::less<>> gpus; ///< by GPU catalog id
    std::vector<CloudRental> cloudRentals;

    const GpuCost* findGpu(std::string_view gpuId) const;
    const CloudRental* findCloudRental(std::string_view fabricId, std::string_view gpuId) const;
};

/// The editable price list the bill of materials is priced from.
struct PriceCatalog {
    /// The list's name as its document gives it ("id"), and the fingerprint of its content:
    /// outputs name both, so a figure can be traced to the prices it was costed with.
    std::string id = "unnamed";
    std::string hash;
    double amortizationMonths = 36;
    double hoursPerMonth = 730;
    /// Fallback GPU rental price for a GPU the ownership prices do not list (a design's
    /// inline GPU), USD per GPU-hour.
    double gpuHourUsd = 2.90;
    OwnershipPrices ownership;
    std::map<std::string, PricedPart> switches;
    std::map<std::string, PricedPart> nics;
    std::map<std::string, PricedPart> cables;
    std::map<std::string, PricedPart> transceivers;

    /// A part of any kind by its id; null when the list has none.
    const PricedPart* findPart(std::string_view id) const;
};

} // namespace fabriclab::model
