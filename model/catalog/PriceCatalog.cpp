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

const PricedPart* PriceCatalog::findPart(std::string_view id) const {
    for (const auto* parts : {&switches, &nics, &cables, &transceivers})
        if (const auto it = parts->find(std::string(id)); it != parts->end())
            return &it->second;
    return nullptr;
}

const GpuCost* OwnershipPrices::findGpu(std::string_view gpuId) const {
    const auto it = gpus.find(gpuId);
    return it == gpus.end() ? nullptr : &it->second;
}

const CloudRental* OwnershipPrices::findCloudRental(std::string_view fabricId,
                                                    std::string_view gpuId) const {
    for (const CloudRental& rental : cloudRentals)
        if (rental.fabricId == fabricId && rental.gpuId == gpuId)
            return &rental;
    return nullptr;
}

} // namespace fabriclab::model
