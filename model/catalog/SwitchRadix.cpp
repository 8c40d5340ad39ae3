// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/SwitchRadix.hpp"

namespace fabriclab::model {

int switchRadixAt(const Fabric& fabric, const PriceCatalog& prices, std::string_view switchId,
                  Gbps linkSpeed) {
    const auto part = prices.switches.find(std::string(switchId));
    if (part == prices.switches.end())
        return fabric.switchRadix;
    const int ports = portsAt(part->second, linkSpeed.value);
    return ports > 0 ? ports : fabric.switchRadix;
}

} // namespace fabriclab::model
