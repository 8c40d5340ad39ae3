// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/CollectiveSpec.hpp"
#include "model/sim/Collectives.hpp"
#include "model/sim/NcclTuning.hpp"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// What the engine's collectives share: the group's shape and per-step costs, and the
/// fabric phases every algorithm is built from. Engine-internal; Collectives.hpp is what
/// the rest of FabricLab calls.
namespace fabriclab::sim::detail {

/// What every algorithm needs: the group's shape and its per-step costs.
struct Context {
    const FabricNetwork& network;
    const CollectiveGroup& group;
    std::stop_token stop;
    int servers = 0;
    int gpus = 0;            ///< per server
    int rails = 0;           ///< NICs per server the collective spreads over (all of them)
    double scaleUpBps = 0;   ///< achievable scale-up bytes/s per GPU per direction
    double scaleUpAlpha = 0; ///< seconds per step inside a server
    double stepAlpha = 0;    ///< NCCL's protocol seconds per network step
    SimulationOptions simulation;
    PhaseCache* cache = nullptr;
    /// Added to every flow's hash key: another draw of static ECMP's choices.
    std::uint64_t flowSalt = 0;
};

/// Simulates `transfers()` (all carrying `bytes`), or scales the cached phase of `kind`.
template <typename Transfers>
SimulationResult simulatePhase(const Context& c, std::string_view kind, double bytes,
                               const Transfers& transfers) {
    const auto simulate = [&](double b) {
        return FlowSimulator{}.run(c.network, transfers(b), c.stop, c.simulation);
    };
    if (!c.cache)
        return simulate(bytes);
    SimulationResult phase = c.cache->phase(kind, bytes, simulate, c.simulation.recordLinks);
    if (!c.simulation.recordLinks)
        for (Sample& sample : phase.timeline) // recorded by an earlier caller; not wanted here
            std::vector<float>().swap(sample.linkUtilization);
    return phase;
}

int nicOfGpu(const Context& c, int gpu);

/// One transfer per rail from every `from` server to its `to` server, all at once.
std::vector<Transfer> pairTransfers(const Context& c, const std::vector<std::pair<int, int>>& pairs,
                                    double bytes);

/// pairTransfers, simulated. `kind` names the pattern for the phase cache.
SimulationResult simulatePairs(const Context& c, std::string_view kind,
                               const std::vector<std::pair<int, int>>& pairs, double bytesPerRail);

/// Each server to the next, the last to the first.
std::vector<std::pair<int, int>> ringPairs(int servers);

/// Time of one step inside a server in which every GPU moves `bytes` over scale-up.
double scaleUpStep(const Context& c, double bytes);

/// The fastest the slowest server of the group moves data onto or off the fabric, bytes/s:
/// its NICs' goodput, and no more than its GPUs' links to them carry.
double serverNetworkBps(const Context& c);

/// Bytes each server must at least move across its NICs in one direction for `bytes` of
/// `op` over the group (see the definition for each operation).
double nicBytesAtLeast(const Context& c, model::CollectiveOp op, double bytes, bool inNetwork);

/// The least time `op` can take over the group's NICs: a physical floor under every model.
double nicFloorSeconds(const Context& c, model::CollectiveOp op, double bytes, bool inNetwork);

/// `kind` as the phase cache keys it: each draw of flow keys is a phase of its own.
std::string saltedKind(const Context& c, std::string_view kind);

/// Draws of flow keys a pattern of `flows` flows is timed over: one on adaptive fabrics,
/// on one server and where routing has no equal-cost choice (FabricNetwork::
/// hasEqualCostChoice: a single switch); on static ECMP, fewer as the flows grow, since many flows
/// average the luck of any one hash (as the effective bisection's draws do), from 32 to one past
/// 64K.
int ecmpDrawCount(const Context& c, double flows);

/// Times `timeDraw` over ecmpDrawCount(c, flows) draws of flow keys (Context::flowSalt):
/// `seconds` is their mean, `fastestSeconds` and `slowestSeconds` the extremes, and the rest
/// of the result that of the median draw. The draws run without per-link samples; when `c`
/// records them, only the median draw is timed again with them, so 32 draws never hold 32
/// playbacks.
CollectiveResult overEcmpDraws(const Context& c, double flows,
                               const std::function<CollectiveResult(const Context&)>& timeDraw);

/// NCCL's algorithm and protocol as FabricLab names them.
model::CollectiveAlgorithm asRun(nccl::Algorithm a);
model::CollectiveProtocol asRun(nccl::Protocol p);

} // namespace fabriclab::sim::detail
