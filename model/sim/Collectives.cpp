// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/Collectives.hpp"

#include "model/sim/AwsOfiTuner.hpp"
#include "model/sim/CollectiveContext.hpp"
#include "model/sim/NcclExecution.hpp"
#include "model/sim/NcclGraphs.hpp"
#include "model/sim/PointToPoint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fabriclab::sim {

using namespace detail;

namespace {

using model::CollectiveAlgorithm;
using model::CollectiveOp;

/// Per-channel samples cost channels x samples floats; keep them to a few tens of MB
/// on the largest fabrics, where a playback needs the shape more than every event.
constexpr std::size_t kRecordedFloats = 4'000'000;

/// NCCL's NET latencies were measured on InfiniBand, where an 8-byte message between two
/// servers on one switch takes about 0.9 us (article 000, MPI latency on IB NDR;
/// docs/reference/published-figures.md). Fabrics and paths slower than that add the difference, as
/// NCCL adds a NIC's latency.
constexpr double kNcclNetReferenceUs = 0.9;
/// Ring neighbours whose paths are timed for that difference (evenly spread over the ring).
constexpr int kLatencySamples = 64;

double extraNetworkLatencyUs(const Context& c) {
    if (c.servers < 2)
        return 0;
    const auto& servers = c.group.servers;
    const int stride = std::max(1, c.servers / kLatencySamples);
    double slowest = 0;
    // Single probes, not a pattern: routed as an empty pattern's, whatever was routed last.
    c.network.expectFlows({});
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

/// One ring step on every NIC with the draw's flow keys: what caps NCCL's channels on this
/// fabric (ncclSystem), simulated once per network, group and draw when a cache is given.
SimulationResult ringPhase(const Context& c, double bytes) {
    if (c.servers < 2)
        return {};
    const double chunk = bytes / (c.servers * c.gpus);
    return simulatePairs(c, saltedKind(c, "ring"), ringPairs(c.servers), chunk / c.rails);
}

/// The communicator NCCL would build over the group, with the fabric's ring rate from the
/// ring step `ring` (ringPhase) capping its channels.
nccl::System ncclSystem(const Context& c, double bytes, bool sharpAsked,
                        const SimulationResult& ring) {
    double fabricGBps = std::numeric_limits<double>::infinity();
    if (c.servers > 1 && ring.dataSeconds > 0) {
        const double chunk = bytes / (c.servers * c.gpus);
        fabricGBps = model::rateOf(model::Bytes(chunk), model::Seconds(ring.dataSeconds)).value;
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
    if (c.network.fabric().ncclTuner != model::NcclTuner::AwsOfiNccl)
        return std::nullopt;
    // The plugin knows its instance by type, so it is read from the servers as built: a
    // failed or degraded NIC does not change the instance, nor does a group on part of it.
    const auto platformOfServer = [&](model::NodeId server) {
        const auto& props = c.network.topology().node(server).server;
        return nccl::aws::platformOf(c.group.gpu.id, props.nics, props.nicSpeed.value);
    };
    const auto platform = platformOfServer(c.group.servers.front());
    if (!platform)
        return std::nullopt;
    for (const auto server : c.group.servers)
        if (platformOfServer(server) != platform)
            return std::nullopt; // a mix of instances: no one polygon set applies
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
CollectiveResult ncclDraw(const Context& c, const model::CollectiveSpec& spec,
                          SimulationResult phase) {
    const double bytes = static_cast<double>(spec.bytes);
    const bool sharpAsked = wantsInNetworkReduction(spec.algorithm, c.servers);
    CollectiveResult result;
    result.phase = std::move(phase);
    const nccl::TuningTable table(ncclSystem(c, bytes, sharpAsked, result.phase));
    const nccl::Function function = ncclFunction(spec.op);
    std::optional<nccl::Cost> cost = tunerCost(c, spec, table, function);
    if (cost)
        result.chosenBy = std::string(toString(c.network.fabric().ncclTuner));
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
    const nccl::Graph& graph =
        cost->algorithm == nccl::Algorithm::Tree ? system.tree : system.nvlsTree;
    const double modelled =
        model::microseconds(
            nccl::executionTimeUs(*cost, function, bytes, c.servers, c.servers * c.gpus,
                                  graph.channels * graph.bwInter,
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

/// All-reduce, all-gather, reduce-scatter and broadcast: the pair NCCL's cost model picks
/// (or the fabric's tuner plugin), timed as published runs measure it (NcclExecution). Under
/// static ECMP, the mean over several draws of flow keys (overEcmpDraws); the reported pair,
/// phase and playback are those of the median draw.
CollectiveResult ncclCollective(const Context& c, const model::CollectiveSpec& spec) {
    // Refused before anything is simulated.
    if (wantsInNetworkReduction(spec.algorithm, c.servers) &&
        !c.network.fabric().inNetworkReduction)
        throw std::invalid_argument(
            "fabric " + c.network.fabric().id +
            " has no in-network reduction (SHARP); use auto, ring, tree or hierarchical");
    const double bytes = static_cast<double>(spec.bytes);
    // NCCL's pick and its time follow from the ring step alone: draws whose keys load the
    // fabric alike (most, where rails stay under their leaves) reuse one timing.
    std::vector<CollectiveResult> timed;
    const auto timeDraw = [&](const Context& draw) {
        SimulationResult phase = ringPhase(draw, bytes);
        const auto alike = std::find_if(timed.begin(), timed.end(), [&](const auto& r) {
            return r.phase.dataSeconds == phase.dataSeconds && r.phase.seconds == phase.seconds;
        });
        if (draw.simulation.recordLinks || alike == timed.end()) {
            timed.push_back(ncclDraw(draw, spec, std::move(phase)));
            return timed.back();
        }
        CollectiveResult result = *alike;
        result.phase = std::move(phase);
        return result;
    };
    return overEcmpDraws(c, static_cast<double>(c.servers) * c.rails, timeDraw);
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
    const double bytes = static_cast<double>(spec.bytes);
    // Sends and receives are timed over draws of flow keys, as NCCL's collectives are.
    if (spec.op == CollectiveOp::SendRecv) {
        if (algorithm != CollectiveAlgorithm::Auto)
            refuse(algorithm, spec.op, "auto: NCCL runs sends and receives as they are");
        return overEcmpDraws(c, sendRecvFlows(c),
                             [&](const Context& draw) { return sendRecv(draw, bytes); });
    }
    if (spec.op == CollectiveOp::AllToAll) {
        bool pxn = false;
        switch (algorithm) {
        case CollectiveAlgorithm::Direct:
            break;
        case CollectiveAlgorithm::Pxn:
            pxn = true;
            break;
        case CollectiveAlgorithm::Auto:
            // NCCL enables PXN by default where servers have a NIC per rail.
            pxn = c.rails > 1 && c.servers > 1;
            break;
        default:
            refuse(algorithm, spec.op, "auto, direct or pxn");
        }
        return overEcmpDraws(c, allToAllFlows(c, pxn),
                             [&](const Context& draw) { return allToAll(draw, bytes, pxn); });
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
