// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

#include <cstdint>
#include <vector>

namespace fabriclab::sim {

/// A NIC of a server: where a flow starts or ends.
struct Endpoint {
    model::NodeId server;
    int nic = 0;
    friend bool operator==(const Endpoint&, const Endpoint&) = default;
};

/// A flow's use of one channel: `fraction` of its rate passes through it.
struct PathElement {
    std::uint32_t channel;
    double fraction;
};

/// A route: the channels a flow loads and what it pays before its first byte arrives.
struct Route {
    std::vector<PathElement> elements;
    int switchHops = 0;    ///< switches crossed
    double wireMeters = 0; ///< cable length along the route
};

} // namespace fabriclab::sim
