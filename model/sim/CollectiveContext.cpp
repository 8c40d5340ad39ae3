// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/CollectiveContext.hpp"

#include "model/sim/NcclExecution.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace fabriclab::sim::detail {

using model::CollectiveAlgorithm;
using model::CollectiveOp;

int nicOfGpu(const Context& c, int gpu) {
    return gpu * c.rails / c.gpus;
}

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

double scaleUpStep(const Context& c, double bytes) {
    return c.gpus > 1 ? bytes / c.scaleUpBps + c.scaleUpAlpha : 0.0;
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
/// in-network reduction moves the data across each server's NICs 2 (n - 1) / n times on a
/// ring of n GPUs, or as often as the busiest server of NCCL's double binary tree does (once
/// on 2 servers, 1.5 times on 3, twice beyond: nccl::treeNetworkLoad), whichever is less;
/// with the switches reducing (SHARP), each server sends its data once and receives it once.
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
        return inNetwork
                   ? bytes
                   : bytes * std::min(2 * (ranks - 1) / ranks, nccl::treeNetworkLoad(c.servers));
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

namespace {

/// Flows whose hash keys one pattern draws at most, and the most draws: see ecmpDrawCount.
constexpr double kEcmpDrawFlows = 65536;
constexpr int kMaxEcmpDraws = 32;
/// A large odd step keeps every draw's keys apart from the rails' own 0, 1, 2, ...
constexpr std::uint64_t kSaltStep = 0x9E3779B97F4A7C15ULL;

} // namespace

std::string saltedKind(const Context& c, std::string_view kind) {
    std::string name(kind);
    if (c.flowSalt != 0)
        name += ", keys +" + std::to_string(c.flowSalt);
    return name;
}

int ecmpDrawCount(const Context& c, double flows) {
    // Adaptive routing does not hash; one server, or a fabric with one path between any
    // two NICs (a single switch), gives the hash nothing to choose.
    if (c.network.spreadsFlows() || c.servers < 2 || !c.network.hasEqualCostChoice())
        return 1;
    return std::clamp(static_cast<int>(kEcmpDrawFlows / std::max(1.0, flows)), 1, kMaxEcmpDraws);
}

CollectiveResult overEcmpDraws(const Context& c, double flows,
                               const std::function<CollectiveResult(const Context&)>& timeDraw) {
    const int draws = ecmpDrawCount(c, flows);
    if (draws == 1)
        return timeDraw(c);
    std::vector<CollectiveResult> results;
    results.reserve(static_cast<std::size_t>(draws));
    Context draw = c;
    draw.simulation.recordLinks = false;
    for (int d = 0; d < draws; ++d) {
        draw.flowSalt = static_cast<std::uint64_t>(d) * kSaltStep;
        results.push_back(timeDraw(draw));
        results.back().flowSalt = draw.flowSalt;
    }
    double total = 0;
    for (const CollectiveResult& r : results)
        total += r.seconds;
    std::vector<const CollectiveResult*> bySeconds;
    for (const CollectiveResult& r : results)
        bySeconds.push_back(&r);
    std::sort(bySeconds.begin(), bySeconds.end(),
              [](const CollectiveResult* a, const CollectiveResult* b) {
                  return a->seconds < b->seconds;
              });
    CollectiveResult result = *bySeconds[bySeconds.size() / 2];
    if (c.simulation.recordLinks) {
        Context recorded = c;
        recorded.flowSalt = result.flowSalt;
        result = timeDraw(recorded);
        result.flowSalt = recorded.flowSalt;
    }
    result.ecmpDraws = draws;
    result.fastestSeconds = bySeconds.front()->seconds;
    result.slowestSeconds = bySeconds.back()->seconds;
    // Held between the extremes: draws that all time alike must not report a mean a rounding
    // off from each of them.
    result.seconds = std::clamp(total / draws, result.fastestSeconds, result.slowestSeconds);
    return result;
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

} // namespace fabriclab::sim::detail
