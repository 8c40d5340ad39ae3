// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/PriceCatalog.hpp"

namespace fabriclab::model {

int portsAt(const PricedPart& part, double gbps) {
    const PortMode* best = nullptr;
    for (const PortMode& mode : part.portModes)
        if (mode.gbps >= gbps && (!best || mode.gbps < best->gbps))
            best = &mode;
    return best ? best->ports : 0;
}

} // namespace fabriclab::model
