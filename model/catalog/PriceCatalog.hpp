// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/Units.hpp"

#include <map>
#include <string>
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
    /// Switches and NICs: ports. Transceivers: links one module carries (2 for a twin-port
    /// OSFP running two 400G links from one 800G cage); absent means 1.
    int ports = 0;
    double gbps = 0;      ///< port, cable or per-link transceiver speed
    std::string medium;   ///< cables: "dac", "aoc" or "optics" (the fibre between transceivers)
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

/// The editable price list the bill of materials is priced from.
struct PriceCatalog {
    double amortizationMonths = 36;
    double hoursPerMonth = 730;
    double gpuHourUsd = 2.90; ///< GPU rental, for the cost to train
    std::map<std::string, PricedPart> switches;
    std::map<std::string, PricedPart> nics;
    std::map<std::string, PricedPart> cables;
    std::map<std::string, PricedPart> transceivers;
};

} // namespace fabriclab::model
