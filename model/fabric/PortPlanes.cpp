// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/PortPlanes.hpp"

#include "model/design/DesignLimits.hpp"
#include "model/fabric/GeneratorError.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace fabriclab::model::generator {
namespace {

// The slowest port FabricLab prices and draws.
constexpr double kMinPortGbps = 1;

} // namespace

Topology buildPortPlanes(const GeneratorParams& params,
                         const std::function<Topology(const GeneratorParams&)>& buildPlane) {
    const int ports = params.portsPerNic.value_or(1);
    if (ports < 1 || ports > limits::kMaxPortsPerNic)
        throw GeneratorError("portsPerNic", "portsPerNic must be between 1 and " +
                                                std::to_string(limits::kMaxPortsPerNic) + ", got " +
                                                std::to_string(ports));
    if (ports == 1)
        return buildPlane(params);
    if (params.planes && *params.planes > 1)
        throw GeneratorError("planes", "with " + std::to_string(ports) +
                                           " ports per NIC each port is already a plane "
                                           "holding every rail; leave planes out (or set it "
                                           "to 1)");
    if (params.nicSpeed.value / ports < kMinPortGbps)
        throw GeneratorError("portsPerNic", "a " + std::to_string(params.nicSpeed.value) +
                                                " Gb/s NIC cannot be split into " +
                                                std::to_string(ports) + " ports");
    GeneratorParams one = params;
    one.portsPerNic.reset();
    one.planes.reset();
    one.nicSpeed = Gbps(params.nicSpeed.value / ports);
    const Topology plane = buildPlane(one);

    // Servers first, then each plane's switches and cables in turn, so every server's
    // cables list plane 0's before plane 1's: port p of NIC i is cable p x nics + i.
    Topology topology;
    std::map<NodeId, NodeId> serverIds;
    for (const auto& [id, node] : plane.nodes()) {
        if (node.kind != NodeKind::Server)
            continue;
        Node server = node;
        server.server.portsPerNic = ports;
        server.server.nicSpeed = params.nicSpeed;
        serverIds.emplace(id, topology.addNode(std::move(server)));
    }
    std::map<NodeKind, int> named;
    for (int p = 0; p < ports; ++p) {
        std::map<NodeId, NodeId> ids = serverIds;
        for (const auto& [id, node] : plane.nodes()) {
            if (node.kind == NodeKind::Server)
                continue;
            Node copy = node;
            copy.name = std::string(toString(node.kind)) + "-" + std::to_string(++named[node.kind]);
            copy.placement.plane = p;
            // A spine of no rail plane is drawn in its NIC-port plane's block of spines.
            if (node.kind == NodeKind::Spine && copy.placement.group < 0)
                copy.placement.group = p;
            ids.emplace(id, topology.addNode(std::move(copy)));
        }
        for (const auto& [id, link] : plane.links()) {
            Link copy = link;
            copy.a = ids.at(link.a);
            copy.b = ids.at(link.b);
            topology.addLink(copy);
        }
    }
    return topology;
}

Gbps carryNicsTo(GeneratorParams& params, const Fabric& fabric) {
    const int ports = std::max(1, params.portsPerNic.value_or(1));
    if (ports == 1)
        params.nicSpeed = fabric.portSpeed;
    return Gbps(params.nicSpeed.value / ports);
}

} // namespace fabriclab::model::generator
