// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

#include <vector>

namespace fabriclab::model {

/// Number of parts the switches fall into by their links to one another (servers left
/// out): 1 for a leaf-spine or fat-tree, one per plane where a rail-optimized fabric gives
/// groups of rails spines of their own (or a rail-only fabric of bare rail leaves), whose
/// rails meet over NVLink only. 0 without switches.
int switchPlanes(const Topology& topology);

/// The most ports per NIC of any server (ServerProps::portsPerNic): above 1, the switch
/// planes are NIC-port planes, each holding every rail, and a flow is sprayed over them.
int portsPerNic(const Topology& topology);

/// Which servers fabric-wide figures can cover. A stray server (placed and not cabled
/// yet, or cabled into a separate island) takes no part in traffic across the fabric;
/// rather than make the whole design's figures zero, they cover the connected part that
/// holds the most servers and name the others.
struct ServerReach {
    std::vector<NodeId> connected; ///< that part's servers, in topology order
    std::vector<NodeId> unlinked;  ///< servers without any cable
    std::vector<NodeId> cutOff;    ///< servers cabled into a part with fewer servers
};

/// Ties between equally large parts go to the part of the first server in topology
/// order, so the choice is stable across runs.
ServerReach serverReach(const Topology& topology);

} // namespace fabriclab::model
