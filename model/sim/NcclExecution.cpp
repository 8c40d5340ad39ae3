// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/NcclExecution.hpp"

#include <algorithm>
#include <cmath>

namespace fabriclab::sim::nccl {
namespace {

/// Ring steps that cross the network, as NCCL's model counts them: a piece crosses N - 1
/// server boundaries in one pass, and all-reduce makes two passes (reduce-scatter, then
/// all-gather).
double ringNetworkSteps(Function function, int nodes) {
    return (function == Function::AllReduce ? 2.0 : 1.0) * (nodes - 1);
}

/// The NVLink SHARP pipeline's fill for `bytes` on a domain of `domainGpus` GPUs, us
/// (ExecutionCosts::nvlsFillUsPerRank).
double nvlsFillUs(const ExecutionCosts& costs, double bytes, int domainGpus) {
    const double gpus = std::max(1, domainGpus);
    return costs.nvlsFillUsPerRank * gpus * bytes / (bytes + costs.nvlsFillBytesPerRank * gpus);
}

/// Servers a node of NCCL's binary tree over `nodes` ranks links to: its parent and its
/// children (ncclGetBtree: rank 0 is the root with one child; a rank's lowest set bit
/// places it).
int btreeNeighbours(int nodes, int rank) {
    int bit = 1;
    while (bit < nodes && !(bit & rank))
        bit <<= 1;
    if (rank == 0)
        return nodes > 1 ? 1 : 0;
    int neighbours = 1; // the parent
    const int lowbit = bit >> 1;
    if (lowbit == 0)
        return neighbours;
    ++neighbours; // rank - lowbit is always a rank
    for (int step = lowbit; step > 0; step >>= 1)
        if (rank + step < nodes)
            return neighbours + 1;
    return neighbours;
}

} // namespace

double treeNetworkLoad(int nodes) {
    // From four servers on the answer is 2, without walking a million ranks: a rank has at
    // most three neighbours in a tree, three only as an even rank with children, and the
    // second tree maps an even rank to an odd one, a leaf of one neighbour (rank 0, the
    // root, has one); rank 2 has three from four servers on.
    if (nodes >= 4)
        return 2.0;
    int busiest = 0;
    for (int rank = 0; rank < nodes; ++rank) {
        // The second tree mirrors the first for an even count and shifts it by one for an
        // odd one (ncclGetDtree), so a rank plays another rank's part of the first tree.
        const int second = nodes % 2 == 0 ? nodes - 1 - rank : (rank - 1 + nodes) % nodes;
        busiest = std::max(busiest, btreeNeighbours(nodes, rank) + btreeNeighbours(nodes, second));
    }
    return busiest / 2.0;
}

double executionTimeUs(const Cost& chosen, Function function, double bytes, int nodes, int ranks,
                       double networkGBps, const ExecutionCosts& costs) {
    const int domainGpus = ranks / std::max(1, nodes);
    // Inside one NVLink domain NVLS streams at NCCL's NVLink term (8 B200 830-845 GB/s, 8
    // H100 476-480, a 64-GPU GB300 rack 930: each within 2.5% of it); between servers, with
    // the switches' SHARP, at the plateau's share of the model.
    if (chosen.algorithm == Algorithm::Nvls && chosen.streamAlgBwGBps > 0)
        return chosen.latencyUs + bytes / (1000.0 * chosen.streamAlgBwGBps) +
               nvlsFillUs(costs, bytes, domainGpus);
    if (chosen.algorithm == Algorithm::Nvls)
        return chosen.latencyUs + (chosen.timeUs - chosen.latencyUs) / costs.nvlsPlateau +
               nvlsFillUs(costs, bytes, domainGpus);
    if (nodes < 2)
        return chosen.timeUs;
    if (chosen.algorithm == Algorithm::NvlsTree && chosen.algBwGBps > 0 && networkGBps > 0) {
        // Bytes per microsecond the pipeline streams once it is full, and the NICs' rate
        // that the bytes filling it wait on.
        const double streaming = 1000.0 * chosen.algBwGBps * costs.nvlsPlateau;
        const double filling = std::min(bytes, costs.nvlsTreeFillBytes);
        const double networkFill = costs.nvlsTreeFillPenalty * filling / (1000.0 * networkGBps);
        return chosen.latencyUs + bytes / streaming +
               std::max(networkFill, nvlsFillUs(costs, bytes, domainGpus));
    }
    if (chosen.algorithm == Algorithm::Tree && chosen.protocol == Protocol::Simple &&
        function == Function::AllReduce && nodes >= 3 && networkGBps > 0) {
        // NCCL caps each tree channel to steer its choice; the kernels are held by the NICs:
        // three GB200 trays of 4 x 400G all-reduce 16 GiB at 234 GB/s busbw by tree, where
        // NCCL's model says 88 (docs/reference/rack-scale-domains.md §3, rows 7-10).
        const double streaming = costs.treeEfficiency * networkGBps / treeNetworkLoad(nodes);
        return chosen.latencyUs + bytes / (1000.0 * std::max(streaming, chosen.algBwGBps));
    }
    if (chosen.algorithm == Algorithm::Tree && chosen.protocol == Protocol::LL128)
        return chosen.latencyUs + (chosen.timeUs - chosen.latencyUs) / costs.treeLl128Share;
    if (chosen.algorithm == Algorithm::Ring && chosen.protocol == Protocol::Simple &&
        function == Function::AllGather)
        return chosen.latencyUs + (chosen.timeUs - chosen.latencyUs) / costs.allGatherRingShare;
    if (chosen.algorithm == Algorithm::Ring && chosen.protocol == Protocol::LL128) {
        // Each rank's piece of the data; beyond the knee the step's cost hides behind it.
        const double piece = bytes / std::max(1, ranks);
        const double exposed =
            piece > costs.ringLl128HiddenFromBytes ? costs.ringLl128HiddenFromBytes / piece : 1.0;
        return chosen.timeUs +
               costs.ringLl128NetworkStepUs * exposed * ringNetworkSteps(function, nodes);
    }
    return chosen.timeUs;
}

ExecutionCosts executionCostsFor(model::GpuArchitecture architecture, const model::Fabric& fabric) {
    ExecutionCosts costs;
    costs.ringLl128NetworkStepUs = fabric.ringLl128StepUs;
    if (architecture == model::GpuArchitecture::Hopper)
        costs.allGatherRingShare = 0.85;
    if (architecture == model::GpuArchitecture::Blackwell)
        costs.scaleUpAllToAllShare = 0.95;
    return costs;
}

double p2pChunkBytes(double chunkSetting, double piece) {
    if (piece < chunkSetting)
        return chunkSetting / 4;
    if (piece < 8 * chunkSetting)
        return chunkSetting / 2;
    return chunkSetting;
}

double p2pOverheadSeconds(const model::P2pExecution& p2p, double piece, int remotePeers) {
    if (remotePeers <= 0)
        return 0;
    const double chunksPerPeer =
        std::max(1.0, std::ceil(piece / p2pChunkBytes(p2p.chunkBytes, piece)));
    const double us = p2p.startUs + remotePeers * (p2p.peerUs + chunksPerPeer * p2p.chunkUs);
    return us * 1e-6;
}

} // namespace fabriclab::sim::nccl
