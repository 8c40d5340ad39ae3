// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/Units.hpp"

#include <map>
#include <string>

namespace fabriclab::model {

/// One purchasable part: a switch, a NIC, a cable or a transceiver.
struct PricedPart {
    std::string id;
    std::string name;
    Usd price{0};
    Watts power{0};
    int ports = 0;      ///< switches and NICs
    double gbps = 0;    ///< port or cable speed
    std::string medium; ///< cables: "dac", "aoc" or "optics"
};

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
