// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/Collectives.hpp"

#include "model/sim/AwsOfiTuner.hpp"
#include "model/sim/NcclExecution.hpp"
#include "model/sim/NcclGraphs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fabriclab::sim {
namespace {

using model::CollectiveAlgorithm;
using model::CollectiveOp;

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

/// Per-channel samples cost channels x samples floats; keep them to a few tens of MB
/// on the largest fabrics, where a playback needs the shape more than every event.
constexpr std::size_t kRecordedFloats = 4'000'000;

/// About 1.5 GB of routes and solver state; the 1,024-GPU all-to-all (1 M flows) fits.
constexpr double kMaxAllToAllFlows = 4'200'000;

int nicOfGpu(const Context& c, int gpu) {
    return gpu * c.rails / c.gpus;
}

/// One transfer per rail from every `from` server to its `to` server, all at once.
std::vector<Transfer> pairTransfers(const Context& c, const std::vector<std::pair<int, int>>& pairs,
                                    double bytes) {
    std::vector<Transfer> transfers;
    transfers.reserve(pairs.size() * static_cast<std::size_t>(c.rails));
    for (int rail = 0; rail < c.rails; ++rail)
        for (const auto& [from, to] : pairs)
            transfers.push_back(Transfer{{c.group.servers[static_cast<std::size_t>(from)], rail},
                                         {c.group.servers[static_cast<std::size_t>(to)], rail},
                                         bytes,
                                         {},
                                         static_cast<std::uint64_t>(rail) + c.flowSalt,
                                         c.stepAlpha});
    return transfers;
}

/// Every server to every other: one transfer per rail with PXN (the server's share moves
/// to the NIC of its rail first), else one per pair of GPUs from NIC to NIC.
std::vector<Transfer> allToAllTransfers(const Context& c, bool pxn, double bytes) {
    std::vector<Transfer> transfers;
    for (int s = 0; s < c.servers; ++s)
        for (int t = 0; t < c.servers; ++t) {
            if (s == t)
                continue;
            const auto from = c.group.servers[static_cast<std::size_t>(s)];
            const auto to = c.group.servers[static_cast<std::size_t>(t)];
            if (pxn) {
                for (int rail = 0; rail < c.rails; ++rail)
                    transfers.push_back(Transfer{{from, rail},
                                                 {to, rail},
                                                 bytes,
                                                 {},
                                                 static_cast<std::uint64_t>(rail),
                                                 c.stepAlpha});
                continue;
            }
            for (int a = 0; a < c.gpus; ++a)
                for (int b = 0; b < c.gpus; ++b)
                    transfers.push_back(Transfer{{from, nicOfGpu(c, a)},
                                                 {to, nicOfGpu(c, b)},
                                                 bytes,
                                                 {},
                                                 static_cast<std::uint64_t>(a * c.gpus + b),
                                                 c.stepAlpha});
        }
    return transfers;
}

/// pairTransfers, simulated. `kind` names the pattern for the phase cache.
SimulationResult simulatePairs(const Context& c, std::string_view kind,
                               const std::vector<std::pair<int, int>>& pairs, double bytesPerRail) {
    return simulatePhase(c, kind, bytesPerRail,
                         [&](double bytes) { return pairTransfers(c, pairs, bytes); });
}

std::vector<std::pair<int, int>> ringPairs(int servers) {
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < servers; ++i)
        pairs.emplace_back(i, (i + 1) % servers);
    return pairs;
}

/// Time of one step inside a server in which every GPU moves `bytes` over scale-up.
double scaleUpStep(const Context& c, double bytes) {
    return c.gpus > 1 ? bytes / c.scaleUpBps + c.scaleUpAlpha : 0.0;
}

/// NCCL's NET latencies were measured on InfiniBand, where an 8-byte message between two
/// servers on one switch takes about 0.9 us (article 000, MPI latency on IB NDR; figures.md).
/// Fabrics and paths slower than that add the difference, as NCCL adds a NIC's latency.
constexpr double kNcclNetReferenceUs = 0.9;
/// Ring neighbours whose paths are timed for that difference (evenly spread over the ring).
constexpr int kLatencySamples = 64;

double extraNetworkLatencyUs(const Context& c) {
    if (c.servers < 2)
        return 0;
    const auto& servers = c.group.servers;
    const int stride = std::max(1, c.servers / kLatencySamples);
    double slowest = 0;
    for (int i = 0; i < c.servers; i += stride) {
        const auto from = servers[static_cast<std::size_t>(i)];
        const auto to = servers[static_cast<std::size_t>((i + 1) % c.servers)];
        slowest =
            std::max(slowest, c.network.latency(c.network.route({from, 0}, {to, 0}, 0)).value);
    }
    return std::max(0.0, model::inMicroseconds(model::Seconds(slowest)) - kNcclNetReferenceUs);
}

/// One server as NCCL sees it: the group's GPUs and every NIC the servers have in common.
nccl::NodeHardware nodeHardware(const Context& c) {
    const model::GpuSpec& gpu = c.group.gpu;
    nccl::NodeHardware h;
    h.architecture = gpu.architecture;
    h.gpus = c.gpus;
    h.scaleUpGBps = gpu.scaleUpGBps * gpu.scaleUpEfficiency;
    h.nvSwitch = gpu.nvSwitch;
    h.nvlsMulticast = gpu.nvlsMulticast && gpu.nvSwitch;
    h.nics = c.rails;
    const auto& fabric = c.network.fabric();
    const double goodputShare = fabric.goodputShare();
    h.nicGBps =
        model::toGBps(c.network.nicGoodput({c.group.servers.front(), 0}) / goodputShare).value;
    h.pcieGBps = gpu.pcieGBps;
    return h;
}

/// The fastest the slowest server of the group moves data onto or off the fabric, bytes/s:
/// its NICs' goodput, and no more than its GPUs' links to them carry (NCCL's PCIe figure,
/// which its own graph search holds every channel to).
double serverNetworkBps(const Context& c) {
    double slowest = std::numeric_limits<double>::infinity();
    for (const auto server : c.group.servers) {
        model::Gbps nics{0};
        for (int rail = 0; rail < c.rails; ++rail)
            nics = nics + c.network.nicGoodput({server, rail});
        slowest = std::min(slowest, model::bytesPerSecond(nics));
    }
    return std::min(slowest, c.gpus * model::bytesPerSecond(model::GBps(c.group.gpu.pcieGBps)));
}

/// Bytes each server must at least move across its NICs in one direction for `bytes` of
/// `op` (nccl-tests' size) over the group. All-gather receives, and reduce-scatter sends,
/// every other server's share; broadcast delivers everything; in an all-to-all each of the
/// server's GPUs sends every other server its share of its own `bytes`. All-reduce without
/// in-network reduction crosses each server boundary 2 (n - 1) / n times on 3 or more
/// servers, as NCCL's rings and trees do (at 2 servers the tree sends it once); with the
/// switches reducing (SHARP), each server sends its data once and receives it once.
double nicBytesAtLeast(const Context& c, CollectiveOp op, double bytes, bool inNetwork) {
    const double otherServers = (c.servers - 1.0) / c.servers;
    const double ranks = static_cast<double>(c.servers) * c.gpus;
    switch (op) {
    case CollectiveOp::AllGather:
    case CollectiveOp::ReduceScatter:
        return bytes * otherServers;
    case CollectiveOp::Broadcast:
    case CollectiveOp::SendRecv: // from one GPU: sendRecv holds it to that GPU's NICs
        return bytes;
    case CollectiveOp::AllReduce:
        return (inNetwork || c.servers == 2) ? bytes : 2 * bytes * (ranks - 1) / ranks;
    case CollectiveOp::AllToAll:
        break;
    }
    return bytes * c.gpus * otherServers;
}

/// The least time `op` can take over the group's NICs (nicBytesAtLeast at serverNetworkBps):
/// a physical floor under NCCL's model and the measured departures from it, not a fit
/// (tst_DesignProperties holds every operation to it). None on one server.
double nicFloorSeconds(const Context& c, CollectiveOp op, double bytes, bool inNetwork) {
    return c.servers > 1 ? nicBytesAtLeast(c, op, bytes, inNetwork) / serverNetworkBps(c) : 0.0;
}

nccl::Function ncclFunction(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::AllGather:
        return nccl::Function::AllGather;
    case CollectiveOp::ReduceScatter:
        return nccl::Function::ReduceScatter;
    case CollectiveOp::Broadcast:
        return nccl::Function::Broadcast;
    case CollectiveOp::AllReduce:
    case CollectiveOp::AllToAll:
    case CollectiveOp::SendRecv:
        break;
    }
    return nccl::Function::AllReduce;
}

CollectiveAlgorithm asRun(nccl::Algorithm a) {
    switch (a) {
    case nccl::Algorithm::Tree:
        return CollectiveAlgorithm::Tree;
    case nccl::Algorithm::CollNetDirect:
        return CollectiveAlgorithm::CollNetDirect;
    case nccl::Algorithm::CollNetChain:
        return CollectiveAlgorithm::CollNetChain;
    case nccl::Algorithm::Nvls:
        return CollectiveAlgorithm::Nvls;
    case nccl::Algorithm::NvlsTree:
        return CollectiveAlgorithm::NvlsTree;
    case nccl::Algorithm::Pat:
        return CollectiveAlgorithm::Pat;
    case nccl::Algorithm::Ring:
        break;
    }
    return CollectiveAlgorithm::Ring;
}

model::CollectiveProtocol asRun(nccl::Protocol p) {
    switch (p) {
    case nccl::Protocol::LL:
        return model::CollectiveProtocol::LL;
    case nccl::Protocol::LL128:
        return model::CollectiveProtocol::LL128;
    case nccl::Protocol::Simple:
        break;
    }
    return model::CollectiveProtocol::Simple;
}

/// NCCL_ALGO and NCCL_PROTO for the spec; nothing listed means NCCL's own choice.
nccl::Allowed allowedFor(const model::CollectiveSpec& spec) {
    nccl::Allowed allowed;
    using A = nccl::Algorithm;
    switch (spec.algorithm) {
    case CollectiveAlgorithm::Ring:
        allowed.algorithms = {A::Ring};
        break;
    case CollectiveAlgorithm::Tree:
        allowed.algorithms = {A::Tree};
        break;
    case CollectiveAlgorithm::Sharp:
        allowed.algorithms = {A::CollNetDirect, A::CollNetChain, A::Nvls};
        break;
    case CollectiveAlgorithm::Nvls:
        allowed.algorithms = {A::Nvls};
        break;
    case CollectiveAlgorithm::NvlsTree:
        allowed.algorithms = {A::NvlsTree};
        break;
    case CollectiveAlgorithm::CollNetDirect:
        allowed.algorithms = {A::CollNetDirect};
        break;
    case CollectiveAlgorithm::CollNetChain:
        allowed.algorithms = {A::CollNetChain};
        break;
    case CollectiveAlgorithm::Pat:
        allowed.algorithms = {A::Pat};
        break;
    case CollectiveAlgorithm::Auto:
    case CollectiveAlgorithm::Hierarchical:
    case CollectiveAlgorithm::Direct:
    case CollectiveAlgorithm::Pxn:
        break;
    }
    switch (spec.protocol) {
    case model::CollectiveProtocol::LL:
        allowed.protocols = {nccl::Protocol::LL};
        break;
    case model::CollectiveProtocol::LL128:
        allowed.protocols = {nccl::Protocol::LL128};
        break;
    case model::CollectiveProtocol::Simple:
        allowed.protocols = {nccl::Protocol::Simple};
        break;
    case model::CollectiveProtocol::Auto:
        break;
    }
    return allowed;
}

/// Asking for an algorithm that reduces in the switches turns SHARP on for that run, as
/// NCCL_ALGO with NCCL_COLLNET_ENABLE=1 would: CollNet, and NVLS, which between servers is
/// NVLink SHARP with the switches' SHARP (inside one server it needs no switch).
bool wantsInNetworkReduction(CollectiveAlgorithm a, int servers) {
    return a == CollectiveAlgorithm::Sharp || a == CollectiveAlgorithm::CollNetDirect ||
           a == CollectiveAlgorithm::CollNetChain ||
           (a == CollectiveAlgorithm::Nvls && servers > 1);
}

/// The communicator NCCL would build over the group, with the fabric's ring rate from the
/// flow simulator (one ring step on every NIC, simulated once per network and group).
nccl::System ncclSystem(const Context& c, double bytes, bool sharpAsked, CollectiveResult& result) {
    double fabricGBps = std::numeric_limits<double>::infinity();
    if (c.servers > 1) {
        const double chunk = bytes / (c.servers * c.gpus);
        const std::string kind =
            c.flowSalt == 0 ? std::string("ring") : "ring, keys +" + std::to_string(c.flowSalt);
        result.phase = simulatePairs(c, kind, ringPairs(c.servers), chunk / c.rails);
        if (result.phase.dataSeconds > 0)
            fabricGBps =
                model::rateOf(model::Bytes(chunk), model::Seconds(result.phase.dataSeconds)).value;
    }
    const bool reduction = c.network.fabric().inNetworkReduction;
    const bool collNet = reduction && (c.group.inNetworkReduction || sharpAsked);
    return nccl::searchGraphs(nccl::Communicator{nodeHardware(c), c.servers, fabricGBps,
                                                 extraNetworkLatencyUs(c), collNet});
}

/// The pair a tuner plugin sets in place of NCCL's choice, where the fabric's jobs load one
/// and one of its polygons holds the collective; nothing where NCCL's own choice stands.
std::optional<nccl::Cost> tunerCost(const Context& c, const model::CollectiveSpec& spec,
                                    const nccl::TuningTable& table, nccl::Function function) {
    if (c.network.fabric().ncclTuner != "aws-ofi-nccl")
        return std::nullopt;
    // The plugin knows its instance by type, so it is read from the servers as built: a
    // failed or degraded NIC does not change the instance, nor does a group on part of it.
    const auto& first = c.network.topology().node(c.group.servers.front()).server;
    for (const auto server : c.group.servers) {
        const auto& props = c.network.topology().node(server).server;
        if (props.nics != first.nics || props.nicSpeed.value != first.nicSpeed.value)
            return std::nullopt; // a mix of instances: no one polygon set applies
    }
    const auto platform = nccl::aws::platformOf(c.group.gpu.id, first.nics, first.nicSpeed.value);
    if (!platform)
        return std::nullopt;
    const double bytes = static_cast<double>(spec.bytes);
    // NCCL_ALGO and NCCL_PROTO take pairs out of the table the plugin reads (NCCL 2.22 and
    // later); it then picks among those left.
    const nccl::Allowed allowed = allowedFor(spec);
    const auto runnable = [&](nccl::Algorithm a, nccl::Protocol p) {
        return table.bandwidthGBps(function, a, p) > 0 && allowed.permits(a, p);
    };
    const auto pair = nccl::aws::pick(*platform, function, bytes, c.servers, c.gpus, runnable);
    if (!pair)
        return std::nullopt;
    return table.cost(function, pair->first, pair->second, bytes);
}

/// One draw of ncclCollective: the pair NCCL picks with the ring rate of this draw's flow keys.
CollectiveResult ncclDraw(const Context& c, const model::CollectiveSpec& spec) {
    const double bytes = static_cast<double>(spec.bytes);
    const bool sharpAsked = wantsInNetworkReduction(spec.algorithm, c.servers);
    if (sharpAsked && !c.network.fabric().inNetworkReduction)
        throw std::invalid_argument(
            "fabric " + c.network.fabric().id +
            " has no in-network reduction (SHARP); use auto, ring, tree or hierarchical");
    CollectiveResult result;
    const nccl::TuningTable table(ncclSystem(c, bytes, sharpAsked, result));
    const nccl::Function function = ncclFunction(spec.op);
    std::optional<nccl::Cost> cost = tunerCost(c, spec, table, function);
    if (cost)
        result.chosenBy = c.network.fabric().ncclTuner;
    else
        cost = table.select(function, bytes, allowedFor(spec));
    if (!cost)
        throw std::invalid_argument(
            "NCCL would not run " + std::string(model::toString(spec.algorithm)) + " with " +
            std::string(model::toString(spec.protocol)) + " for " +
            std::string(model::toString(spec.op)) + " on " + std::to_string(c.servers) +
            " servers of " + std::to_string(c.gpus) + " " + c.group.gpu.id +
            " (NVLS needs NVSwitch multicast, PAT one GPU per server, SHARP the design's "
            "in-network reduction)");
    result.algorithm = asRun(cost->algorithm);
    result.protocol = asRun(cost->protocol);
    const nccl::System& system = table.system();
    const double modelled =
        model::microseconds(
            nccl::executionTimeUs(*cost, function, bytes, c.servers, c.servers * c.gpus,
                                  system.nvlsTree.channels * system.nvlsTree.bwInter,
                                  nccl::executionCostsFor(system.architecture, c.network.fabric())))
            .value;
    // Multi-node NVLS is NVLink SHARP with the switches' SHARP; CollNet is SHARP.
    const bool inNetwork = cost->algorithm == nccl::Algorithm::CollNetDirect ||
                           cost->algorithm == nccl::Algorithm::CollNetChain ||
                           cost->algorithm == nccl::Algorithm::Nvls;
    result.seconds = std::max(modelled, nicFloorSeconds(c, spec.op, bytes, inNetwork));
    const int n = c.servers * c.gpus;
    const int ringSteps = spec.op == CollectiveOp::AllReduce ? 2 * (n - 1) : n - 1;
    if (cost->algorithm == nccl::Algorithm::Ring)
        result.phaseRepeats = ringSteps;
    else if (result.phase.seconds > 0)
        // Other algorithms load the same NICs and rails; the ring step stands for their
        // traffic in the playback, repeated to fill the collective's time.
        result.phaseRepeats = static_cast<int>(
            std::clamp(std::round(result.seconds / result.phase.seconds), 1.0, double(ringSteps)));
    return result;
}

/// Flows whose hash keys a ring step draws at most: the draws of ncclCollective shrink as a
/// step's flows grow, since many flows average the luck of any one hash (as the effective
/// bisection's draws do), from 8 on small fabrics to one past 64K flows.
constexpr double kEcmpDrawFlows = 65536;
constexpr int kMaxEcmpDraws = 32;

/// All-reduce, all-gather, reduce-scatter and broadcast: the pair NCCL's cost model picks
/// (or the fabric's tuner plugin), timed as published runs measure it (NcclExecution). Under
/// static ECMP, the mean over several draws of flow keys (CollectiveResult::ecmpDraws); the
/// reported pair, phase and playback are those of the median draw.
CollectiveResult ncclCollective(const Context& c, const model::CollectiveSpec& spec) {
    const double flows = static_cast<double>(c.servers) * c.rails;
    const int draws = c.network.adaptive() || c.servers < 2
                          ? 1
                          : std::clamp(static_cast<int>(kEcmpDrawFlows / flows), 1, kMaxEcmpDraws);
    std::vector<CollectiveResult> results;
    results.reserve(static_cast<std::size_t>(draws));
    Context draw = c;
    for (int d = 0; d < draws; ++d) {
        // A large odd step keeps every draw's keys apart from the rails' own 0, 1, 2, ...
        draw.flowSalt = static_cast<std::uint64_t>(d) * 0x9E3779B97F4A7C15ULL;
        results.push_back(ncclDraw(draw, spec));
        results.back().flowSalt = draw.flowSalt;
    }
    double total = 0;
    for (const CollectiveResult& r : results)
        total += r.seconds;
    std::vector<CollectiveResult*> bySeconds;
    for (CollectiveResult& r : results)
        bySeconds.push_back(&r);
    std::sort(bySeconds.begin(), bySeconds.end(),
              [](const CollectiveResult* a, const CollectiveResult* b) {
                  return a->seconds < b->seconds;
              });
    CollectiveResult result = std::move(*bySeconds[bySeconds.size() / 2]);
    result.ecmpDraws = draws;
    result.fastestSeconds = bySeconds.front()->seconds;
    result.slowestSeconds = bySeconds.back()->seconds;
    result.seconds = total / draws;
    return result;
}

/// Reduce-scatter inside each server, a ring per rail across servers on the shard,
/// all-gather inside each server (NCCL's hierarchical / per-rail scheme). NCCL pipelines
/// the stages chunk by chunk, so the slower stage sets the pace. On paper the per-rail rings
/// move 2(s-1)/s of the data per server where a flat ring moves 2(n-1)/n, but NCCL runs the
/// scheme through its ring and tree kernels, and without the switches reducing (SHARP) no
/// measured all-reduce at 3 or more servers beats the NICs' line rate; it is held to the
/// same NIC floor as NCCL's own algorithms.
CollectiveResult hierarchical(const Context& c, double bytes) {
    CollectiveResult result;
    result.algorithm = CollectiveAlgorithm::Hierarchical;
    const double intra = (c.gpus - 1) * scaleUpStep(c, bytes / c.gpus);
    double inter = 0;
    if (c.servers > 1) {
        result.phase = simulatePairs(c, "ring", ringPairs(c.servers), bytes / c.rails / c.servers);
        inter = 2.0 * (c.servers - 1) * result.phase.seconds;
        result.phaseRepeats = 2 * (c.servers - 1);
    }
    result.seconds = std::max(std::max(2 * intra, inter) + (c.gpus > 1 ? 2 * c.scaleUpAlpha : 0.0),
                              nicFloorSeconds(c, CollectiveOp::AllReduce, bytes, false));
    return result;
}

/// Every rank sends bytes/n to every other rank. Direct: each pair is its own flow.
/// PXN: data for a GPU on another rail first crosses scale-up to the local GPU on the
/// destination's rail, so the fabric only carries same-rail traffic.
CollectiveResult allToAll(const Context& group, double bytes, bool pxn) {
    CollectiveResult result;
    result.algorithm = pxn ? CollectiveAlgorithm::Pxn : CollectiveAlgorithm::Direct;
    const int n = group.servers * group.gpus;
    const double piece = bytes / n;
    // NCCL runs an all-to-all as grouped sends: LL for small pieces, Simple above, each
    // send paying that protocol's start-up on top of its path.
    const nccl::Protocol protocol = nccl::p2pProtocol(piece);
    result.protocol = asRun(protocol);
    Context c = group;
    c.stepAlpha = model::microseconds(nccl::p2pLatencyUs(protocol)).value;
    // Every pair of servers carries its own flows: past a few million the simulation
    // would need gigabytes. Refuse with the numbers rather than run out of memory.
    const double flows = static_cast<double>(c.servers) * (c.servers - 1) *
                         (pxn ? c.rails : static_cast<double>(c.gpus) * c.gpus);
    if (flows > kMaxAllToAllFlows)
        throw std::invalid_argument(
            "an all-to-all over " + std::to_string(n) + " GPUs needs " +
            std::to_string(static_cast<long long>(flows)) + " flows; FabricLab simulates up to " +
            std::to_string(static_cast<long long>(kMaxAllToAllFlows)) +
            " at once (time it over fewer GPUs, e.g. one expert-parallel group)");
    // Every transfer of a kind carries the same bytes: a whole server's share per rail
    // (PXN), or one GPU pair's piece (direct).
    const double perTransfer =
        pxn ? piece * c.gpus * (static_cast<double>(c.gpus) / c.rails) : piece;
    if (!pxn && c.servers > 1 && c.rails > 1) {
        // Direct sends cross rails; a fabric whose spines serve separate rail planes joins
        // different rails only through NVLink, which is what PXN uses.
        if (!c.network.reaches({c.group.servers[0], 0}, {c.group.servers[1], c.rails - 1}))
            throw std::invalid_argument(
                "a direct all-to-all sends from NIC 1 to NIC " + std::to_string(c.rails) +
                ", but no switch path joins those rails (the spines serve separate rail "
                "planes); use pxn or auto, which cross NVLink to the right rail first");
    }
    const auto build = [&](double bytesEach) { return allToAllTransfers(c, pxn, bytesEach); };
    if (c.servers > 1)
        result.phase = simulatePhase(c,
                                     std::string(pxn ? "all-to-all pxn " : "all-to-all direct ") +
                                         std::string(nccl::toString(protocol)),
                                     perTransfer, build);
    double intra = (c.gpus - 1) * piece / c.scaleUpBps;
    if (pxn)
        intra += bytes * (c.servers - 1) / c.servers * (c.gpus - 1) / c.gpus / c.scaleUpBps;
    // The network plugin's software time per call, peer and chunk comes on top of the
    // transfers: one proxy thread per GPU serves every peer.
    const double software = c.servers > 1 ? nccl::p2pOverheadSeconds(c.network.fabric().p2p, piece,
                                                                     (c.servers - 1) * c.gpus)
                                          : 0.0;
    // The flow simulation loads the NICs; the floor adds the GPUs' PCIe links that feed them,
    // so a server of few GPUs and many NICs is held to what its GPUs can feed, as the other
    // collectives are by NCCL's graph search.
    result.seconds = std::max({result.phase.seconds + software,
                               nicFloorSeconds(c, CollectiveOp::AllToAll, bytes, false),
                               intra + (c.gpus > 1 ? c.scaleUpAlpha : 0.0)});
    return result;
}

/// nccl-tests' sendrecv: every rank sends `bytes` to the next rank and receives as much
/// from the previous one, all at once. Inside a server that is one NVLink transfer per GPU;
/// between servers the last GPU of each server sends to the first GPU of the next. NCCL's
/// PXN moves the data over NVLink to the GPU next to the receiver's rail, and spreads the
/// peer's channels over that GPU's NICs, so the fabric carries same-rail flows on the NICs
/// of one GPU. The slowest of the two kinds of transfer sets the time.
CollectiveResult sendRecv(const Context& group, double bytes) {
    CollectiveResult result;
    result.algorithm = group.servers > 1 && group.rails > 1 ? CollectiveAlgorithm::Pxn
                                                            : CollectiveAlgorithm::Direct;
    const nccl::Protocol protocol = nccl::p2pProtocol(bytes);
    result.protocol = asRun(protocol);
    Context c = group;
    c.stepAlpha = model::microseconds(nccl::p2pLatencyUs(protocol)).value;
    c.rails = std::max(1, group.rails / group.gpus); // the NICs next to one GPU
    const double intra = c.gpus > 1 ? bytes / c.scaleUpBps + c.scaleUpAlpha : 0.0;
    double inter = 0;
    if (c.servers > 1) {
        result.phase = simulatePhase(
            c, std::string("sendrecv ") + std::string(nccl::toString(protocol)), bytes / c.rails,
            [&](double each) { return pairTransfers(c, ringPairs(c.servers), each); });
        // One GPU's NICs and its PCIe link to them, as NCCL's graph holds every channel.
        const double gpuNetworkBps =
            std::min(serverNetworkBps(group) * c.rails / group.rails,
                     model::bytesPerSecond(model::GBps(c.group.gpu.pcieGBps)));
        inter = std::max(result.phase.seconds +
                             nccl::p2pOverheadSeconds(c.network.fabric().p2p, bytes, 1),
                         bytes / gpuNetworkBps);
    }
    result.seconds = std::max(intra, inter);
    return result;
}

} // namespace

SimulationResult PhaseCache::phase(std::string_view kind, double bytes,
                                   const std::function<SimulationResult(double)>& simulate,
                                   bool withLinks) {
    const auto found = m_phases.find(kind);
    if (found != m_phases.end() && (found->second.links || !withLinks))
        return scaleSizes(found->second.result, bytes / found->second.bytes);
    SimulationResult result = simulate(bytes);
    if (result.independent && bytes > 0)
        m_phases.insert_or_assign(std::string(kind), Entry{bytes, result, withLinks});
    return result;
}

SimulationResult simulateRings(const FabricNetwork& network,
                               const std::vector<std::vector<model::NodeId>>& rings, int rails,
                               double bytesPerRail, std::stop_token stop) {
    std::vector<Transfer> transfers;
    const double alpha = model::microseconds(network.fabric().stepLatencyUs).value;
    for (int rail = 0; rail < rails; ++rail)
        for (const auto& ring : rings)
            for (std::size_t i = 0; ring.size() > 1 && i < ring.size(); ++i)
                transfers.push_back(Transfer{{ring[i], rail},
                                             {ring[(i + 1) % ring.size()], rail},
                                             bytesPerRail,
                                             {},
                                             static_cast<std::uint64_t>(rail),
                                             alpha});
    return FlowSimulator{}.run(network, transfers, stop);
}

namespace {

[[noreturn]] void refuse(CollectiveAlgorithm algorithm, CollectiveOp op, const char* fits) {
    throw std::invalid_argument("algorithm " + std::string(model::toString(algorithm)) +
                                " does not apply to " + std::string(model::toString(op)) +
                                " (use " + fits + ")");
}

/// What every algorithm reads about the group on this network.
Context contextFor(const FabricNetwork& network, const CollectiveGroup& group, std::stop_token stop,
                   PhaseCache* cache) {
    Context c{network, group, std::move(stop), 0, 0, 0, 0, 0, 0, {}, cache};
    c.servers = static_cast<int>(group.servers.size());
    c.gpus = group.gpusPerServer;
    c.rails = collectiveRails(network, group);
    c.scaleUpBps =
        model::bytesPerSecond(model::GBps(group.gpu.scaleUpGBps * group.gpu.scaleUpEfficiency));
    c.scaleUpAlpha = model::microseconds(group.gpu.scaleUpStepLatencyUs).value;
    c.stepAlpha = model::microseconds(network.fabric().stepLatencyUs).value;
    return c;
}

CollectiveResult dispatch(const Context& c, const model::CollectiveSpec& spec) {
    const auto algorithm = spec.algorithm;
    if (spec.op == CollectiveOp::SendRecv) {
        if (algorithm != CollectiveAlgorithm::Auto)
            refuse(algorithm, spec.op, "auto: NCCL runs sends and receives as they are");
        return sendRecv(c, static_cast<double>(spec.bytes));
    }
    if (spec.op == CollectiveOp::AllToAll) {
        switch (algorithm) {
        case CollectiveAlgorithm::Direct:
            return allToAll(c, static_cast<double>(spec.bytes), false);
        case CollectiveAlgorithm::Pxn:
            return allToAll(c, static_cast<double>(spec.bytes), true);
        case CollectiveAlgorithm::Auto:
            // NCCL enables PXN by default where servers have a NIC per rail.
            return allToAll(c, static_cast<double>(spec.bytes), c.rails > 1 && c.servers > 1);
        default:
            refuse(algorithm, spec.op, "auto, direct or pxn");
        }
    }
    if (algorithm == CollectiveAlgorithm::Direct || algorithm == CollectiveAlgorithm::Pxn)
        refuse(algorithm, spec.op, "auto or one of NCCL's algorithms");
    if (algorithm == CollectiveAlgorithm::Hierarchical) {
        if (spec.op != CollectiveOp::AllReduce)
            refuse(algorithm, spec.op, "auto or ring");
        return hierarchical(c, static_cast<double>(spec.bytes));
    }
    return ncclCollective(c, spec);
}

} // namespace

CollectiveGroup groupOfServers(const FabricNetwork& network, const model::GpuSpec& gpu,
                               std::size_t servers) {
    const auto& all = network.servers();
    CollectiveGroup group;
    group.servers.assign(all.begin(),
                         all.begin() + static_cast<std::ptrdiff_t>(std::min(servers, all.size())));
    group.gpu = gpu;
    group.gpusPerServer = std::numeric_limits<int>::max();
    for (const auto server : group.servers)
        group.gpusPerServer =
            std::min(group.gpusPerServer, network.topology().node(server).server.gpus);
    if (group.servers.empty())
        group.gpusPerServer = 0;
    return group;
}

int collectiveRails(const FabricNetwork& network, const CollectiveGroup& group) {
    // Every NIC the servers have in common carries traffic, also beyond one per GPU
    // (16 x 200G or 32 x 100G EFA for 8 GPUs). A group on part of a server's GPUs gets
    // the NICs next to them, as NCCL hands each GPU its local NICs: the server's share.
    int rails = std::numeric_limits<int>::max();
    for (const auto server : group.servers) {
        const int nics = network.nicCount(server);
        if (nics == 0 && group.servers.size() > 1)
            throw std::invalid_argument("server " + network.topology().node(server).name +
                                        " has no NIC connected to the fabric");
        const int serverGpus =
            std::max(group.gpusPerServer, network.topology().node(server).server.gpus);
        rails = std::min(rails, std::max(1, nics * group.gpusPerServer / serverGpus));
    }
    return rails;
}

std::vector<Transfer> phaseTransfers(const FabricNetwork& network, const CollectiveGroup& group,
                                     const CollectiveResult& result) {
    Context c = contextFor(network, group, {}, nullptr);
    c.flowSalt = result.flowSalt;
    if (result.op == CollectiveOp::SendRecv) {
        // sendRecv: one ring step across servers on the NICs next to one GPU.
        c.rails = std::max(1, c.rails / c.gpus);
        return c.servers > 1 ? pairTransfers(c, ringPairs(c.servers), 1.0)
                             : std::vector<Transfer>{};
    }
    if (result.algorithm == CollectiveAlgorithm::Pxn ||
        result.algorithm == CollectiveAlgorithm::Direct)
        return allToAllTransfers(c, result.algorithm == CollectiveAlgorithm::Pxn, 1.0);
    // Every other algorithm is timed on one ring step on every rail.
    return c.servers > 1 ? pairTransfers(c, ringPairs(c.servers), 1.0) : std::vector<Transfer>{};
}

double busBandwidthFactor(CollectiveOp op, int ranks) {
    const double n = ranks;
    switch (op) {
    case CollectiveOp::AllReduce:
        return 2 * (n - 1) / n;
    case CollectiveOp::AllGather:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::AllToAll:
        return (n - 1) / n;
    case CollectiveOp::Broadcast:
    case CollectiveOp::SendRecv:
        return 1;
    }
    return 1;
}

CollectiveResult runCollective(const FabricNetwork& network, const CollectiveGroup& group,
                               const model::CollectiveSpec& spec, std::stop_token stop,
                               bool recordLinks, PhaseCache* cache) {
    if (group.servers.empty() || group.gpusPerServer < 1)
        throw std::invalid_argument("a collective needs at least one server with at least one GPU");
    if (group.ranks() < 2)
        throw std::invalid_argument("a collective needs at least two GPUs; this group has " +
                                    std::to_string(group.ranks()));
    if (!(spec.bytes > 0))
        throw std::invalid_argument("a collective needs a positive size in bytes");
    Context c = contextFor(network, group, stop, cache);
    if (recordLinks) {
        c.simulation.recordLinks = true;
        c.simulation.maxSamples = std::clamp<std::size_t>(
            kRecordedFloats / std::max<std::size_t>(1, network.channelCount()), 8,
            c.simulation.maxSamples);
    }

    CollectiveResult result = dispatch(c, spec);
    result.op = spec.op;
    result.bytes = static_cast<double>(spec.bytes);
    result.ranks = group.ranks();
    if (!(result.seconds > 0) || !std::isfinite(result.seconds))
        throw std::invalid_argument("the collective could not be timed on this fabric");
    const auto busBw = [&](double seconds) {
        return model::rateOf(model::Bytes(result.bytes), model::Seconds(seconds)).value *
               busBandwidthFactor(spec.op, result.ranks);
    };
    result.algBwGBps =
        model::rateOf(model::Bytes(result.bytes), model::Seconds(result.seconds)).value;
    result.busBwGBps = busBw(result.seconds);
    if (result.ecmpDraws <= 1)
        result.fastestSeconds = result.slowestSeconds = result.seconds;
    result.busBwMinGBps = busBw(result.slowestSeconds);
    result.busBwMaxGBps = busBw(result.fastestSeconds);
    return result;
}

} // namespace fabriclab::sim
