// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/NcclGraphs.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace fabriclab::sim::nccl {
namespace {

using model::GpuArchitecture;

// Per-channel speeds NCCL's search tries, GB/s, highest first (NCCL 2.30.7
// src/graph/search.cc; docs/reference/nccl-cost-model.md §2.8).
constexpr double kIntraPreSm90[] = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
constexpr double kIntraSm90[] = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
constexpr double kIntraSm100[] = {90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18};
constexpr double kInterPreSm90[] = {48, 30, 28, 24, 20, 18,  15,  12,   10,  9,
                                    7,  6,  5,  4,  3,  2.4, 1.2, 0.24, 0.12};
constexpr double kInterSm90[] = {48, 45, 42, 40, 30,  24,  22,   20,  17.5,
                                 15, 12, 6,  3,  2.4, 1.2, 0.24, 0.12};
constexpr double kInterSm100[] = {96, 86,   80, 48, 45.1, 42, 40,  30,  24,   22,
                                  20, 17.5, 15, 12, 6,    3,  2.4, 1.2, 0.24, 0.12};

constexpr int kMaxSearchedChannels = 32; ///< MAXCHANNELS / 2
/// NVLS channels: 16 on Hopper; Blackwell 24 on one node, 32 across nodes (table 2.6).
int nvlsChannels(GpuArchitecture a, int nodes) {
    if (a == GpuArchitecture::Blackwell)
        return nodes > 1 ? 32 : 24;
    return 16;
}

std::span<const double> intraSpeeds(GpuArchitecture a) {
    if (a == GpuArchitecture::Blackwell)
        return kIntraSm100;
    if (a == GpuArchitecture::Hopper)
        return kIntraSm90;
    return kIntraPreSm90;
}

std::span<const double> interSpeeds(GpuArchitecture a) {
    if (a == GpuArchitecture::Blackwell)
        return kInterSm100;
    if (a == GpuArchitecture::Hopper)
        return kInterSm90;
    return kInterPreSm90;
}

/// The highest listed speed not above `limit` (the lowest listed when none is).
double floorSpeed(std::span<const double> speeds, double limit) {
    for (const double s : speeds)
        if (s <= limit)
            return s;
    return speeds.back();
}

/// NVLS inside one NVLink domain, as NCCL's search leaves it (search.cc, NCCL 2.30.7): one
/// channel per GPU, each headed by its GPU, up to NCCL_MAX_NVLS_ARITY (32). Every channel
/// crosses every GPU's NVLink once and its head's twice, so a channel gets the highest
/// listed speed with (channels + 1) x speed within the link; the search's second pass then
/// raises bwInter a listed step at a time while below twice bwIntra. The runtime's CTAs
/// (nvlsChannels) are a different count the cost model never reads.
Graph searchNvlsOneNode(const NodeHardware& h) {
    constexpr int kMaxNvlsArity = 32;
    const auto speeds = intraSpeeds(h.architecture);
    Graph g;
    g.channels = std::min(kMaxNvlsArity, h.gpus);
    g.bwIntra = floorSpeed(speeds, h.scaleUpGBps / (g.channels + 1));
    g.bwInter = g.bwIntra;
    for (auto it = std::find(speeds.begin(), speeds.end(), g.bwIntra);
         it != speeds.begin() && g.bwInter < 2 * g.bwIntra;)
        g.bwInter = *--it;
    return g;
}

/// NICs as NCCL uses them: with more NICs than GPUs, those near one GPU act as one (NCCL's
/// NIC fusion, or the EFA plugin's multi-rail leader), so channels stay one per GPU.
struct Nics {
    int count = 0;
    double pathGBps = 0; ///< per (fused) NIC, including its PCIe link
};

Nics usableNics(const NodeHardware& h) {
    Nics nics;
    if (h.nics > h.gpus && h.gpus > 0) {
        const double perGpu = static_cast<double>(h.nics) / h.gpus;
        nics.count = h.gpus;
        nics.pathGBps = std::min(h.nicGBps * perGpu, h.pcieGBps);
    } else {
        nics.count = h.nics;
        nics.pathGBps = std::min(h.nicGBps, h.pcieGBps);
    }
    return nics;
}

/// Ring and tree channels across nodes: each enters and leaves the node through a NIC and
/// crosses the GPUs of the node on NVLink, where a GPU forwards all but its own channels.
Graph searchInter(const NodeHardware& h) {
    const Nics nics = usableNics(h);
    Graph best;
    for (const double s : interSpeeds(h.architecture)) {
        if (s > nics.pathGBps)
            continue;
        int channels = nics.count * static_cast<int>(std::floor(nics.pathGBps / s + 1e-9));
        if (h.gpus > 1) {
            const double forwarded = s * (h.gpus - 1.0) / h.gpus;
            channels = std::min(channels, static_cast<int>(std::floor(h.scaleUpGBps / forwarded)));
        }
        channels = std::min(channels, kMaxSearchedChannels);
        if (channels * s > best.channels * best.bwInter + 1e-9)
            best = Graph{channels, s, s};
    }
    return best;
}

/// Ring channels inside one node: as many as NVLink carries at the top speed, then doubled
/// at half speed (ncclTopoDupChannels).
Graph searchIntra(const NodeHardware& h) {
    Graph best;
    for (const double s : intraSpeeds(h.architecture)) {
        const int channels =
            std::min(kMaxSearchedChannels, static_cast<int>(std::floor(h.scaleUpGBps / s + 1e-9)));
        if (channels * s > best.channels * best.bwIntra + 1e-9)
            best = Graph{channels, s, s};
    }
    const bool hopperOrLater = h.architecture >= GpuArchitecture::Hopper;
    if (best.bwIntra >= 25 && !(hopperOrLater && best.bwIntra < 50 && best.channels > 4) &&
        2 * best.channels <= kMaxSearchedChannels)
        best = Graph{2 * best.channels, best.bwIntra / 2, best.bwInter / 2};
    return best;
}

} // namespace

System searchGraphs(const Communicator& c) {
    const NodeHardware& h = c.node;
    System s;
    s.architecture = h.architecture;
    s.nodes = std::max(1, c.nodes);
    s.ranksPerNode = std::max(1, h.gpus);
    s.nvlinkIntra = true;
    s.latencyInterUs = c.latencyInterUs;
    s.collNetEnabled = c.collNet;
    s.nvSwitch = h.nvSwitch;
    s.nvlsSupported = h.nvlsMulticast;

    if (s.nodes == 1) {
        s.ring = searchIntra(h);
        s.tree = s.ring;
    } else {
        Graph searched = searchInter(h);
        if (searched.channels > 0) {
            // The fabric may carry less than the NICs' line rate: channels share what it does.
            const double perChannel = std::min(searched.bwInter, c.fabricGBps / searched.channels);
            searched.bwInter = perChannel;
            searched.bwIntra = perChannel;
        }
        s.ring = searched;
        s.tree = searched;
        s.collNet = searched;
        if (searched.channels > 0) {
            // Tree-shaped graphs (two-node trees, CollNet): the search raises bwIntra up to
            // twice bwInter, as far as NVLink has room when the node has GPUs to cross.
            double raised = 2 * searched.bwInter;
            if (h.gpus > 1)
                raised = std::min(raised, floorSpeed(intraSpeeds(h.architecture),
                                                     h.scaleUpGBps / searched.channels));
            if (s.nodes <= 2)
                s.tree.bwIntra = raised;
            s.collNet.bwIntra = raised;
        }
    }
    if (h.nvlsMulticast && h.gpus >= 2 && s.nodes == 1) {
        s.nvls = searchNvlsOneNode(h);
    } else if (h.nvlsMulticast && h.gpus >= 2) {
        // Between servers FabricLab keeps the runtime's channel count, whose timing the
        // NVLS-tree fits were made with: NCCL's own search there (one head per NIC-local GPU)
        // gives 2 x 8 B200 on 8 x 400G 497 GB/s where they measure 677-696.
        const int channels = nvlsChannels(h.architecture, s.nodes);
        Graph nvls{channels, floorSpeed(intraSpeeds(h.architecture), h.scaleUpGBps / channels), 0};
        const Nics nics = usableNics(h);
        const double nicShare = nics.count * nics.pathGBps / channels;
        nvls.bwInter =
            std::min(floorSpeed(interSpeeds(h.architecture), nicShare), c.fabricGBps / channels);
        s.nvlsTree = nvls;
        // With SHARP in the switches each byte crosses a NIC once each way, where the bus
        // bandwidth counts it twice: the search allows bwInter up to twice bwIntra.
        nvls.bwInter = std::min(2 * nvls.bwInter, 2 * nvls.bwIntra);
        s.nvls = nvls;
    }
    return s;
}

} // namespace fabriclab::sim::nccl
