// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/Collectives.hpp"
#include "model/sim/FabricNetwork.hpp"

#include <stop_token>
#include <vector>

/// Who loads a link: the flows of a collective's simulated phase that cross it, with the
/// rates max-min sharing gives them when the phase starts, and, under static ECMP, the
/// hash collisions on it (two or more flows on one cable while an equal-cost cable from
/// the same switch carries none). Worked out by the engine's own router and solver, so
/// what the explain panel shows is what the simulation ran.
namespace fabriclab::sim {

struct FlowOnLink {
    Endpoint from;
    Endpoint to;
    double rateGbps = 0;   ///< when the phase starts
    bool fromSideA = true; ///< crosses the link from its `a` end to its `b` end
    std::uint32_t channel = 0;
};

struct LinkExplanation {
    model::LinkId link;
    double capacityGbps = 0; ///< goodput of all the link's cables, one direction
    double loadAtoB = 0;     ///< utilization 0-1 of the direction a -> b at the start
    double loadBtoA = 0;
    std::vector<FlowOnLink> flows; ///< fastest first
    /// Static ECMP only: cable directions of this link with two or more flows while an
    /// equal-cost cable direction leaving the same switch carries none.
    int collisions = 0;
    /// The flows on the busiest of those cable directions.
    int flowsOnBusiestCable = 0;
    /// Equal-cost cable directions from the same switch that carry nothing.
    int idleSiblings = 0;
};

/// The flows of `transfers` on each of `links`, from one solve. Throws
/// std::invalid_argument for a link the network does not have.
std::vector<LinkExplanation> explainLinks(const FabricNetwork& network,
                                          const std::vector<Transfer>& transfers,
                                          const std::vector<model::LinkId>& links,
                                          std::stop_token stop = {});
/// The same for one link.
LinkExplanation explainLink(const FabricNetwork& network, const std::vector<Transfer>& transfers,
                            model::LinkId link, std::stop_token stop = {});

} // namespace fabriclab::sim
