// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/PointToPoint.hpp"

#include "model/sim/NcclExecution.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fabriclab::sim::detail {

using model::CollectiveAlgorithm;
using model::CollectiveOp;

namespace {

/// About 1.5 GB of routes and solver state; the 1,024-GPU all-to-all (1 M flows) fits.
constexpr double kMaxAllToAllFlows = 4'200'000;

} // namespace

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
                                                 static_cast<std::uint64_t>(rail) + c.flowSalt,
                                                 c.stepAlpha});
                continue;
            }
            for (int a = 0; a < c.gpus; ++a)
                for (int b = 0; b < c.gpus; ++b)
                    transfers.push_back(
                        Transfer{{from, nicOfGpu(c, a)},
                                 {to, nicOfGpu(c, b)},
                                 bytes,
                                 {},
                                 static_cast<std::uint64_t>(a * c.gpus + b) + c.flowSalt,
                                 c.stepAlpha});
        }
    return transfers;
}

double allToAllFlows(const Context& c, bool pxn) {
    return static_cast<double>(c.servers) * (c.servers - 1) *
           (pxn ? c.rails : static_cast<double>(c.gpus) * c.gpus);
}

double sendRecvFlows(const Context& c) {
    return static_cast<double>(c.servers) * std::max(1, c.rails / c.gpus);
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
    const double flows = allToAllFlows(c, pxn);
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
                ", but no switch path joins those rails (rail switches without a spine, or "
                "spines serving separate rail planes); use pxn or auto, which cross NVLink to "
                "the right rail first");
    }
    const auto build = [&](double bytesEach) { return allToAllTransfers(c, pxn, bytesEach); };
    if (c.servers > 1)
        result.phase = simulatePhase(
            c,
            saltedKind(c, std::string(pxn ? "all-to-all pxn " : "all-to-all direct ") +
                              std::string(nccl::toString(protocol))),
            perTransfer, build);
    // Grouped sends reach a share of the NVLink rate NCCL's rings count (NcclExecution).
    const double scaleUpBps =
        c.scaleUpBps *
        nccl::executionCostsFor(c.group.gpu.architecture, c.network.fabric()).scaleUpAllToAllShare;
    double intra = (c.gpus - 1) * piece / scaleUpBps;
    if (pxn)
        intra += bytes * (c.servers - 1) / c.servers * (c.gpus - 1) / c.gpus / scaleUpBps;
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
            c, saltedKind(c, std::string("sendrecv ") + std::string(nccl::toString(protocol))),
            bytes / c.rails,
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

} // namespace fabriclab::sim::detail
