// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/catalog/PriceCatalog.hpp"

#include <map>
#include <string>
#include <string_view>

namespace fabriclab::model {

/// The part of `parts` a fabric of `transport` buys for links of `gbps`: the fabric's `own`
/// where it runs that fast, else the cheapest part of the same transport (or of none stated)
/// that does; `own` when none does. An 800G Spectrum-X server takes an 800G NIC, a RoCE
/// fabric at 800G a 51.2 Tb/s switch, and an 800G switch end a single 800G module rather
/// than the twin-port 2 x 400G one the fabric names for 400G (`onePerLink` keeps to parts
/// that serve one link each).
const PricedPart& partRunning(const std::map<std::string, PricedPart>& parts, const PricedPart& own,
                              std::string_view transport, double gbps, bool onePerLink = false);

/// How a tier buys one switch of the topology: `count` of `part` (1 but where no part in the
/// list has the switch's ports at its speed).
struct SwitchPurchase {
    const PricedPart* part = nullptr;
    int count = 1;
};

/// The switch a tier buys for a switch of `radix` ports at `gbps`: `own` where it offers that
/// many ports at that speed (its port modes), else the cheapest switch of the same transport
/// that does, so a RoCE leaf drawn with 128 x 400G is bought as a 51.2 Tb/s switch split in
/// two, not as a 64-port Tomahawk-4 class box. Where no switch in the list has that many
/// ports, as many of the one with the most ports at that speed as the radix needs (a
/// 256 x 400G InfiniBand leaf costs at least two 144-port Quantum-X800s): never fewer
/// ports than the topology draws. A part without port modes (a user's, with no port count)
/// is bought by speed alone, as partRunning does.
SwitchPurchase switchPartFor(const std::map<std::string, PricedPart>& switches,
                             const PricedPart& own, std::string_view transport, double gbps,
                             int radix);

/// The switch a fabric's tier (`switchId`, as FabricHardware names it) is built from for
/// links of `linkSpeed`; null when the price list does not know the part.
const PricedPart* switchFor(const Fabric& fabric, const PriceCatalog& prices,
                            std::string_view switchId, Gbps linkSpeed);

/// Ports that switch offers at `linkSpeed`, from its port modes in the price list: a
/// Spectrum-4 SN5600 is 64 x 800G, or 128 x 400G with its ports split, so a generator asked
/// for 800G NICs on Spectrum-X gets 64-port leaves, not the 128 the fabric states for its own
/// 400G. Where the list does not know the part, or nothing in it runs that fast, the
/// fabric's own radix stands.
int switchRadixAt(const Fabric& fabric, const PriceCatalog& prices, std::string_view switchId,
                  Gbps linkSpeed);

} // namespace fabriclab::model
