// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/analysis/Connectivity.hpp"
#include "model/core/Units.hpp"
#include "model/topology/Topology.hpp"

#include <stop_token>
#include <string>
#include <vector>

namespace fabriclab::model {

/// Theoretical bisection of a fabric: the max-flow / min-cut between two halves of the
/// servers, for the worst of the natural halvings (rack or rail-group order, pods).
/// Covers the servers connected to the fabric (model::serverReach); the others are named
/// in `warnings`.
struct BisectionResult {
    Gbps minCut{0};                ///< worst direction of the worst split
    Gbps forward{0};               ///< that split, first half to second half
    Gbps backward{0};              ///< that split, second half to first half
    Gbps halfInjection{0};         ///< what the smaller half can inject
    double ratio = 0;              ///< minCut / halfInjection; 1.0 = non-blocking
    std::string split;             ///< which halving was the worst, for reports
    std::vector<NodeId> firstHalf; ///< servers of that halving, for simulated traffic
    std::vector<NodeId> secondHalf;
    /// One sentence per server left out ("server srv-7 is not connected to any switch;
    /// left out of the bisection"); empty when every server takes part.
    std::vector<std::string> warnings;
};

/// Servers do not forward transit traffic (no server sits on another pair's path), and
/// every link direction is its own capacity. Fewer than two connected servers: all zero
/// (with the warnings).
/// Polls `stop` between its max-flow runs (throws Cancelled).
BisectionResult theoreticalBisection(const Topology& topology, std::stop_token stop = {});
/// The same, given which servers reach the fabric (model::serverReach of `topology`) when
/// the caller has worked it out already: at 131K GPUs that is 60 ms.
BisectionResult theoreticalBisection(const Topology& topology, ServerReach reach,
                                     std::stop_token stop = {});

} // namespace fabriclab::model
