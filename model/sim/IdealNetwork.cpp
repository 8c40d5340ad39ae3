// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/IdealNetwork.hpp"

#include <algorithm>

namespace fabriclab::sim {

namespace {

/// The fabric without what keeps it from line rate, and without its latencies: the ideal
/// must not depend on the fabric under evaluation, or a slow stack's latency would count
/// as held in the MFU (what the GPUs' own scale-up costs stays, on both sides).
model::Fabric idealFabric(model::Fabric fabric) {
    fabric.nicLatencyNs = 0;
    fabric.switchLatencyNs = 0;
    fabric.stepLatencyUs = 0;
    fabric.routing = model::Routing::Adaptive;
    fabric.lineEfficiency = 1;
    fabric.incastEfficiency = 1;
    fabric.protocolOverhead = 0;
    fabric.p2p = model::P2pExecution{};
    return fabric;
}

} // namespace

IdealNetwork::IdealNetwork(const FabricNetwork& actual) {
    const model::Topology& topology = actual.topology();
    int totalNics = 0;
    model::Gbps fastest{0};
    for (const model::NodeId server : actual.servers()) {
        const auto& props = topology.node(server).server;
        totalNics += std::max(props.nics, actual.nicCount(server));
        fastest = std::max(fastest, props.nicSpeed);
    }
    model::Node hub;
    hub.name = "ideal-switch";
    while (topology.findNode(hub.name)) // a server may carry any name
        hub.name += '+';
    hub.kind = model::NodeKind::Leaf;
    hub.sw = model::SwitchProps{std::max(1, totalNics), fastest};
    const model::NodeId hubId = m_topology.addNode(hub);
    for (const model::NodeId server : actual.servers()) {
        const model::Node& original = topology.node(server);
        model::Node copy;
        copy.name = original.name;
        copy.server = original.server;
        copy.server.portsPerNic = 1; // a multiplane NIC's whole speed on one ideal cable
        const model::NodeId id = m_topology.addNode(copy);
        const int nics = std::max(original.server.nics, actual.nicCount(server));
        if (nics > 0)
            m_topology.addLink(model::Link{id, hubId, original.server.nicSpeed, nics});
    }
    m_network = std::make_unique<FabricNetwork>(m_topology, idealFabric(actual.fabric()));
}

} // namespace fabriclab::sim
