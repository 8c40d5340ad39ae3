// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/FabricNetwork.hpp"
#include "model/topology/Topology.hpp"

#include <memory>

namespace fabriclab::sim {

/// The servers of a network on the best fabric they could have: one nonblocking switch,
/// every NIC the server is specified with at its full line rate, traffic spread evenly
/// (adaptive routing), no failed cable, no latency in NICs, switches or the transport's
/// steps, and no transport or network-plugin overhead. It is
/// what a published end-to-end MFU stands for: the run it was measured on hid or paid
/// its own (near-ideal) fabric traffic inside the figure, so a design is charged only for
/// what its fabric adds beyond this one. Servers keep their order, so the n-th server
/// here stands for the n-th server of the network it was built from.
class IdealNetwork {
public:
    explicit IdealNetwork(const FabricNetwork& actual);
    IdealNetwork(const IdealNetwork&) = delete; // the network points into the topology
    IdealNetwork& operator=(const IdealNetwork&) = delete;

    const FabricNetwork& network() const { return *m_network; }

private:
    model::Topology m_topology;
    std::unique_ptr<FabricNetwork> m_network;
};

} // namespace fabriclab::sim
