// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/Collectives.hpp"

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
    int rails = 0;           ///< NICs per server the collective spreads over
    double scaleUpBps = 0;   ///< achievable scale-up bytes/s per GPU per direction
    double scaleUpAlpha = 0; ///< seconds per step inside a server
    double stepAlpha = 0;    ///< NCCL's protocol seconds per network step
    SimulationOptions simulation;
    PhaseCache* cache = nullptr;
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
/// `kind` names the pattern for the phase cache.
SimulationResult simulatePairs(const Context& c, std::string_view kind,
                               const std::vector<std::pair<int, int>>& pairs, double bytesPerRail) {
    return simulatePhase(c, kind, bytesPerRail, [&](double bytes) {
        std::vector<Transfer> transfers;
        transfers.reserve(pairs.size() * static_cast<std::size_t>(c.rails));
        for (int rail = 0; rail < c.rails; ++rail)
            for (const auto& [from, to] : pairs)
                transfers.push_back(
                    Transfer{{c.group.servers[static_cast<std::size_t>(from)], rail},
                             {c.group.servers[static_cast<std::size_t>(to)], rail},
                             bytes,
                             {},
                             static_cast<std::uint64_t>(rail),
                             c.stepAlpha});
        return transfers;
    });
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

/// Start-up latency of one network step of a ring: NIC, switches and wire between two
/// neighbouring servers, plus NCCL's protocol latency.
double networkStepLatency(const Context& c) {
    if (c.servers < 2)
        return 0;
    const auto& servers = c.group.servers;
    return c.network.latencySeconds(c.network.route({servers[0], 0}, {servers[1], 0}, 0)) +
           c.stepAlpha;
}

/// A ring over all n = servers x gpus ranks, `stepsPerRank` steps of bytes/n each,
/// NCCL-style: one ring per rail, each crossing every server once; the other hops run on
/// scale-up. Time follows NCCL's model, bandwidth plus latency: every step moves a chunk
/// at the pace of the slower of the fabric (simulated once, reused for every step) and
/// scale-up; the network latency is paid at each of the ring's server crossings and the
/// scale-up latency at the other steps.
CollectiveResult flatRing(const Context& c, double bytes, int stepsPerRank) {
    const int n = c.servers * c.gpus;
    const double chunk = bytes / n;
    CollectiveResult result;
    result.algorithm = CollectiveAlgorithm::Ring;
    // In each ring a server holds g consecutive ranks: g - 1 hops on scale-up, one on
    // the fabric. With one ring per rail a GPU sends (g - 1)/g of its chunk on scale-up.
    double stepData =
        c.gpus > 1 ? chunk * (c.servers > 1 ? (c.gpus - 1.0) / c.gpus : 1.0) / c.scaleUpBps : 0.0;
    if (c.servers > 1) {
        result.phase = simulatePairs(c, "ring", ringPairs(c.servers), chunk / c.rails);
        stepData = std::max(stepData, result.phase.dataSeconds);
    }
    result.phaseRepeats = stepsPerRank;
    const int crossings = stepsPerRank / (n - 1) * (c.servers - 1);
    result.seconds = stepsPerRank * stepData + crossings * networkStepLatency(c) +
                     (stepsPerRank - crossings) * c.scaleUpAlpha;
    return result;
}

/// Reduce-scatter inside each server, a ring per rail across servers on the shard,
/// all-gather inside each server (NCCL's hierarchical / per-rail scheme). NCCL pipelines
/// the stages chunk by chunk, so the slower stage sets the pace.
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
    result.seconds = std::max(2 * intra, inter) + (c.gpus > 1 ? 2 * c.scaleUpAlpha : 0.0);
    return result;
}

/// NCCL's double binary tree across servers: two trees, each carrying half the data,
/// reduce up and broadcast down pipelined, so both directions run at once.
CollectiveResult doubleTree(const Context& c, double bytes) {
    CollectiveResult result;
    result.algorithm = CollectiveAlgorithm::Tree;
    std::vector<std::pair<int, int>> pairs;
    const int n = c.servers;
    for (int i = 1; i < n; ++i) {
        const int parent = (i - 1) / 2;
        pairs.emplace_back(i, parent);                 // tree A, reduce
        pairs.emplace_back(parent, i);                 // tree A, broadcast
        pairs.emplace_back(n - 1 - i, n - 1 - parent); // tree B mirrors A
        pairs.emplace_back(n - 1 - parent, n - 1 - i);
    }
    result.phase = simulatePairs(c, "tree", pairs, bytes / 2 / c.rails);
    // Pipelining hides all but the fill and drain of a tree of this depth: one hop's
    // latency per level on the way up and on the way down.
    const int depth = static_cast<int>(std::ceil(std::log2(n + 1.0)));
    const double fill = 2.0 * (depth - 1) * networkStepLatency(c);
    // Inside a server NCCL chains the GPUs: each sends its data once towards the NIC
    // while reducing and receives it once while broadcasting, one per direction.
    const double intra = c.gpus > 1 ? bytes / c.scaleUpBps : 0.0;
    result.seconds = std::max(result.phase.seconds + fill, intra);
    return result;
}

/// In-network reduction (SHARP): each rail sends its shard up once and receives the
/// result once; the switches add. Scale-up reduce-scatter and all-gather around it.
CollectiveResult sharp(const Context& c, double bytes) {
    if (!c.network.fabric().inNetworkReduction)
        throw std::invalid_argument(
            "fabric " + c.network.fabric().id +
            " has no in-network reduction (SHARP); use auto, ring, tree or hierarchical");
    CollectiveResult result;
    result.algorithm = CollectiveAlgorithm::Sharp;
    const double intra = (c.gpus - 1) * scaleUpStep(c, bytes / c.gpus);
    // Every NIC is busy once in each direction with its rail's share.
    double slowest = std::numeric_limits<double>::infinity();
    for (const auto server : c.group.servers)
        for (int rail = 0; rail < c.rails; ++rail)
            slowest = std::min(slowest, c.network.nicGoodputGbps({server, rail}));
    const auto& fabric = c.network.fabric();
    const double treeLatency =
        2 * (fabric.nicLatencyNs + 3 * fabric.switchLatencyNs) * 1e-9 + c.stepAlpha;
    // Scale-up stages and the network stage are pipelined, as in hierarchical().
    result.seconds = std::max(2 * intra, bytes / c.rails / (slowest * 1e9 / 8)) + treeLatency;
    return result;
}

/// Every rank sends bytes/n to every other rank. Direct: each pair is its own flow.
/// PXN: data for a GPU on another rail first crosses scale-up to the local GPU on the
/// destination's rail, so the fabric only carries same-rail traffic.
CollectiveResult allToAll(const Context& c, double bytes, bool pxn) {
    CollectiveResult result;
    result.algorithm = pxn ? CollectiveAlgorithm::Pxn : CollectiveAlgorithm::Direct;
    const int n = c.servers * c.gpus;
    const double piece = bytes / n;
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
    const auto build = [&](double bytesEach) {
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
                                                     bytesEach,
                                                     {},
                                                     static_cast<std::uint64_t>(rail),
                                                     c.stepAlpha});
                    continue;
                }
                for (int a = 0; a < c.gpus; ++a)
                    for (int b = 0; b < c.gpus; ++b)
                        transfers.push_back(Transfer{{from, nicOfGpu(c, a)},
                                                     {to, nicOfGpu(c, b)},
                                                     bytesEach,
                                                     {},
                                                     static_cast<std::uint64_t>(a * c.gpus + b),
                                                     c.stepAlpha});
            }
        return transfers;
    };
    if (c.servers > 1)
        result.phase =
            simulatePhase(c, pxn ? "all-to-all pxn" : "all-to-all direct", perTransfer, build);
    double intra = (c.gpus - 1) * piece / c.scaleUpBps;
    if (pxn)
        intra += bytes * (c.servers - 1) / c.servers * (c.gpus - 1) / c.gpus / c.scaleUpBps;
    result.seconds = std::max(result.phase.seconds, intra + (c.gpus > 1 ? c.scaleUpAlpha : 0.0));
    return result;
}

/// Pipelined chain: every server forwards to the next at once, plus the pipeline fill.
CollectiveResult broadcast(const Context& c, double bytes) {
    CollectiveResult result;
    result.algorithm = CollectiveAlgorithm::Ring;
    const double intra = c.gpus > 1 ? bytes / c.scaleUpBps + (c.gpus - 1) * c.scaleUpAlpha : 0.0;
    if (c.servers == 1) {
        result.seconds = intra;
        return result;
    }
    std::vector<std::pair<int, int>> chain;
    for (int i = 0; i + 1 < c.servers; ++i)
        chain.emplace_back(i, i + 1);
    result.phase = simulatePairs(c, "chain", chain, bytes / c.rails);
    const double hop = c.network.latencySeconds(
                           c.network.route({c.group.servers[0], 0}, {c.group.servers[1], 0}, 0)) +
                       c.stepAlpha;
    result.seconds = std::max(result.phase.seconds + (c.servers - 2) * hop, intra);
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
    const double alpha = network.fabric().stepLatencyUs * 1e-6;
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

CollectiveResult fastest(std::vector<CollectiveResult> candidates) {
    return *std::min_element(candidates.begin(), candidates.end(),
                             [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
}

[[noreturn]] void refuse(CollectiveAlgorithm algorithm, CollectiveOp op, const char* fits) {
    throw std::invalid_argument("algorithm " + std::string(model::toString(algorithm)) +
                                " does not apply to " + std::string(model::toString(op)) +
                                " (use " + fits + ")");
}

CollectiveResult dispatch(const Context& c, const model::CollectiveSpec& spec) {
    const double bytes = static_cast<double>(spec.bytes);
    const int n = c.servers * c.gpus;
    const auto algorithm = spec.algorithm;
    switch (spec.op) {
    case CollectiveOp::AllReduce:
        switch (algorithm) {
        case CollectiveAlgorithm::Ring:
            return flatRing(c, bytes, 2 * (n - 1));
        case CollectiveAlgorithm::Hierarchical:
            return hierarchical(c, bytes);
        case CollectiveAlgorithm::Tree:
            return c.servers > 1 ? doubleTree(c, bytes) : flatRing(c, bytes, 2 * (n - 1));
        case CollectiveAlgorithm::Sharp:
            return sharp(c, bytes);
        case CollectiveAlgorithm::Auto: {
            // NCCL's own choices: ring, tree, and in-network reduction where the fabric has
            // it. The per-rail hierarchical scheme runs only when asked for.
            std::vector<CollectiveResult> options{flatRing(c, bytes, 2 * (n - 1))};
            if (c.servers > 1) {
                options.push_back(doubleTree(c, bytes));
                if (c.network.fabric().inNetworkReduction)
                    options.push_back(sharp(c, bytes));
            }
            return fastest(std::move(options));
        }
        default:
            refuse(algorithm, spec.op, "auto, ring, hierarchical, tree or sharp");
        }
    case CollectiveOp::AllGather:
    case CollectiveOp::ReduceScatter:
        if (algorithm != CollectiveAlgorithm::Auto && algorithm != CollectiveAlgorithm::Ring)
            refuse(algorithm, spec.op, "auto or ring");
        return flatRing(c, bytes, n - 1);
    case CollectiveOp::Broadcast:
        if (algorithm != CollectiveAlgorithm::Auto && algorithm != CollectiveAlgorithm::Ring)
            refuse(algorithm, spec.op, "auto or ring");
        return broadcast(c, bytes);
    case CollectiveOp::AllToAll:
        switch (algorithm) {
        case CollectiveAlgorithm::Direct:
            return allToAll(c, bytes, false);
        case CollectiveAlgorithm::Pxn:
            return allToAll(c, bytes, true);
        case CollectiveAlgorithm::Auto:
            // NCCL enables PXN by default where servers have a NIC per rail.
            return allToAll(c, bytes, c.rails > 1 && c.servers > 1);
        default:
            refuse(algorithm, spec.op, "auto, direct or pxn");
        }
    }
    throw std::invalid_argument("unknown collective");
}

} // namespace

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
    Context c{network, group, stop, 0, 0, 0, 0, 0, 0, {}, cache};
    c.servers = static_cast<int>(group.servers.size());
    c.gpus = group.gpusPerServer;
    c.rails = c.gpus;
    for (const auto server : group.servers) {
        const int nics = network.nicCount(server);
        if (nics == 0 && c.servers > 1)
            throw std::invalid_argument("server " + network.topology().node(server).name +
                                        " has no NIC connected to the fabric");
        c.rails = std::min(c.rails, std::max(1, nics));
    }
    c.scaleUpBps = group.gpu.scaleUpGBps * group.gpu.scaleUpEfficiency * 1e9;
    c.scaleUpAlpha = group.gpu.scaleUpStepLatencyUs * 1e-6;
    c.stepAlpha = network.fabric().stepLatencyUs * 1e-6;
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
    result.algBwGBps = result.bytes / result.seconds / 1e9;
    result.busBwGBps = result.algBwGBps * busBandwidthFactor(spec.op, result.ranks);
    return result;
}

} // namespace fabriclab::sim
