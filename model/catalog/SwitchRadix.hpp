// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/catalog/PriceCatalog.hpp"

#include <string_view>

namespace fabriclab::model {

/// Ports the switch part `switchId` offers for links of `linkSpeed`, from its port modes in
/// the price list: a Spectrum-4 SN5600 is 64 x 800G, or 128 x 400G with its ports split, so
/// a generator asked for 800G NICs on Spectrum-X gets 64-port leaves, not the 128 the fabric
/// states for its own 400G. Where the list does not know the part, or none of its modes runs
/// that fast, the fabric's own radix stands (the design's switch is then beyond the list).
int switchRadixAt(const Fabric& fabric, const PriceCatalog& prices, std::string_view switchId,
                  Gbps linkSpeed);

} // namespace fabriclab::model
