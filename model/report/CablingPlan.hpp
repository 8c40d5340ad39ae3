// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/catalog/PriceCatalog.hpp"
#include "model/topology/Topology.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// One end of a cable: the device's name and the port as its vendor numbers it.
struct CableEnd {
    std::string device;
    std::string port;
};

/// One physical cable of the fabric, as the people who build the racks read it. Words that
/// repeat on every cable are views of fixed text: a 131K-GPU plan has 393,216 cables.
struct PlannedCable {
    long long number = 0;  ///< 1, 2, ... in plan order
    std::string_view tier; ///< servers (server to leaf), leaf-spine, spine-core, other
    CableEnd a;
    CableEnd b;
    double gbps = 0;
    std::string_view medium;      ///< DAC, AOC, or transceiver + fibre
    double lengthMeters = 0;      ///< the run as drawn
    std::string_view lengthClass; ///< rack, row, hall or building
    std::string partId; ///< the cable the bill of materials counts for it (its row names it)
};

/// Every cable once, ends numbered as the switches number their ports, deterministic for a
/// design: links in the order the design lists them, each bundle's cables in turn, each
/// device's ports taken from the first. Switch ports: InfiniBand ports by number (1, 2, ...,
/// as ibnetdiscover lists them); Ethernet ports as Cumulus and SONiC name them, swpN, and
/// swpNsM for the M-th link of cage N where the switch's cages are split (a 64 x 800G switch
/// cabled at 400G). Server ports: nicK, K from 0, one port per NIC. Cables and media are the
/// ones model::estimateCost prices, so the plan and the bill count the same cables.
struct CablingPlan {
    std::vector<PlannedCable> cables;
    /// Devices cabled past their ports (a drawing over its radix): the plan still numbers
    /// the extra cables, and says so here.
    std::vector<std::string> notes;
};

/// Throws std::invalid_argument when the fabric's parts have no price.
CablingPlan cablingPlan(const Topology& topology, const Fabric& fabric, const PriceCatalog& prices);

/// RFC 4180 CSV, one record per cable.
std::string cablingCsv(const CablingPlan& plan);
/// {"cables": [...], "notes": [...]}.
nlohmann::ordered_json cablingJson(const CablingPlan& plan);

/// Cables of one kind: the plan counted by tier, speed, medium, length class and part, as
/// a report summarises it for whoever orders the spools.
struct CableCount {
    std::string_view tier;
    double gbps = 0;
    std::string_view medium;
    std::string_view lengthClass;
    std::string partId;
    long long count = 0;
};

/// The plan's cables counted by kind, in the order each kind first appears in the plan.
std::vector<CableCount> cablingSummary(const CablingPlan& plan);

/// The length class a run falls in, as a cabling crew plans its spools: rack (up to 3 m),
/// row (up to 30 m), hall (up to 100 m), building (longer).
std::string_view lengthClassOf(double meters);

} // namespace fabriclab::model
