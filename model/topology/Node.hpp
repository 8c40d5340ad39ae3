// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/Units.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fabriclab::model {

/// Stable identity of a node inside one Topology. Never reused after removal, so undo
/// commands and views can hold it across edits.
struct NodeId {
    std::uint32_t value{};
    friend constexpr auto operator<=>(NodeId, NodeId) = default;
};

enum class NodeKind { Server, Leaf, Spine, Core };

/// Lower-case name used in files and messages ("server", "leaf", "spine", "core").
std::string_view toString(NodeKind kind);
std::optional<NodeKind> nodeKindFromString(std::string_view text);
inline bool isSwitch(NodeKind kind) {
    return kind != NodeKind::Server;
}

/// What a GPU server brings to the fabric. A server is one scale-up domain.
struct ServerProps {
    int gpus = 8;             ///< GPUs in the scale-up domain (NVLink or similar)
    int nics = 8;             ///< fabric NICs, one per rail
    Gbps nicSpeed{400};       ///< line rate of each NIC
    double scaleUpGBps = 450; ///< scale-up bandwidth per GPU per direction, GB/s
    /// Ports of each NIC, each cabled into its own plane at nicSpeed / portsPerNic; a flow
    /// is sprayed evenly over them (ConnectX-8 multiplane, MRC). The server's cables are
    /// plane by plane: port p of NIC i is cable p x nics + i.
    int portsPerNic = 1;

    /// The most cables the server takes: a cable per NIC port.
    int cablePorts() const { return nics * portsPerNic; }
};

/// What a switch offers: how many ports and how fast each is.
struct SwitchProps {
    int radix = 64;      ///< ports at portSpeed
    Gbps portSpeed{400}; ///< line rate of each port
};

/// Where a generator placed a node; -1 where it does not apply (custom drawings).
/// Used for natural bisection splits, rail colouring and collapsing racks in views.
struct Placement {
    int pod = -1;   ///< three-tier pod index
    int group = -1; ///< scalable unit / rail group (rail-optimized) or leaf block; a spine's plane
    int rail = -1;  ///< rail index of a rail leaf
    int plane = -1; ///< the NIC-port plane a switch belongs to (servers with portsPerNic > 1)
};

struct Node {
    std::string name; ///< the id users see and files store ("leaf-1")
    NodeKind kind = NodeKind::Server;
    double x = 0; ///< canvas position, scene units
    double y = 0;
    ServerProps server; ///< meaningful for servers only
    SwitchProps sw;     ///< meaningful for switches only
    Placement placement;
};

} // namespace fabriclab::model
