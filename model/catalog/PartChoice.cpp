// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/PartChoice.hpp"

namespace fabriclab::model {

const PricedPart& partRunning(const std::map<std::string, PricedPart>& parts, const PricedPart& own,
                              std::string_view transport, double gbps, bool onePerLink) {
    if (own.gbps >= gbps)
        return own;
    const PricedPart* best = nullptr;
    for (const auto& [id, p] : parts)
        if (p.gbps >= gbps && (p.transport.empty() || p.transport == transport) &&
            (!onePerLink || p.ports <= 1) && (!best || p.price < best->price))
            best = &p;
    return best ? *best : own;
}

SwitchPurchase switchPartFor(const std::map<std::string, PricedPart>& switches,
                             const PricedPart& own, std::string_view transport, double gbps,
                             int radix) {
    if (radix <= 0 || own.portModes.empty())
        return {&partRunning(switches, own, transport, gbps), 1};
    if (portsAt(own, gbps) >= radix)
        return {&own, 1};
    const auto sameTransport = [&](const PricedPart& p) {
        return p.transport.empty() || p.transport == transport;
    };
    const PricedPart* best = nullptr;
    const PricedPart* widest = &own;
    for (const auto& [id, p] : switches) {
        if (!sameTransport(p))
            continue;
        const int ports = portsAt(p, gbps);
        if (ports >= radix && (!best || p.price < best->price))
            best = &p;
        if (ports > portsAt(*widest, gbps))
            widest = &p;
    }
    if (best)
        return {best, 1};
    const int ports = portsAt(*widest, gbps);
    if (ports <= 0)
        return {&partRunning(switches, own, transport, gbps), 1};
    return {widest, (radix + ports - 1) / ports};
}

const PricedPart* switchFor(const Fabric& fabric, const PriceCatalog& prices,
                            std::string_view switchId, Gbps linkSpeed) {
    const auto own = prices.switches.find(std::string(switchId));
    if (own == prices.switches.end())
        return nullptr;
    return &partRunning(prices.switches, own->second, fabric.transport, linkSpeed.value);
}

int switchRadixAt(const Fabric& fabric, const PriceCatalog& prices, std::string_view switchId,
                  Gbps linkSpeed) {
    const PricedPart* part = switchFor(fabric, prices, switchId, linkSpeed);
    const int ports = part ? portsAt(*part, linkSpeed.value) : 0;
    return ports > 0 ? ports : fabric.switchRadix;
}

} // namespace fabriclab::model
