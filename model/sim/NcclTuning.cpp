// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/NcclTuning.hpp"

#include "model/core/EnumNames.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace fabriclab::sim::nccl {
namespace {

using model::GpuArchitecture;

constexpr std::array<std::pair<Algorithm, std::string_view>, kAlgorithms> kAlgorithmNames{{
    {Algorithm::Tree, "tree"},
    {Algorithm::Ring, "ring"},
    {Algorithm::CollNetDirect, "collnet-direct"},
    {Algorithm::CollNetChain, "collnet-chain"},
    {Algorithm::Nvls, "nvls"},
    {Algorithm::NvlsTree, "nvls-tree"},
    {Algorithm::Pat, "pat"},
}};
constexpr std::array<std::pair<Protocol, std::string_view>, kProtocols> kProtocolNames{{
    {Protocol::LL, "LL"},
    {Protocol::LL128, "LL128"},
    {Protocol::Simple, "Simple"},
}};

// ---- NCCL's constants (NCCL 2.30.7, src/graph/tuning.cc; docs/reference/nccl-cost-model.md §2) ----

enum HwClass { NvLinkHw, PciHw, NetHw };
using PerAlgoProto = double[kAlgorithms][kProtocols];

/// baseLatencies, us (table 2.2).
constexpr PerAlgoProto kBaseLatency = {
    {6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {8.0, 8.0, 8.0},
};

/// hwLatencies per link class, us per hop (table 2.3).
constexpr PerAlgoProto kHwLatency[3] = {
    {{0.6, 1.25, 4.0},
     {0.6, 1.9, 3.4},
     {0, 0, 3.7},
     {0, 0, 2.8},
     {0, 0, 25},
     {0, 0, 25},
     {0, 0, 4.0}},
    {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}, {0, 0, 4.0}},
    {{5.0, 8.5, 14},
     {2.7, 4.0, 14.0},
     {0, 0, 31},
     {0, 0, 30},
     {0, 0, 18},
     {0, 0, 20.9},
     {0, 0, 14}},
};

/// Per-channel caps, GB/s, by architecture and node count (1, 2, 3+) (table 2.4).
using PerArchNodes = double[4][3];
constexpr PerArchNodes kPerChMaxRingLL128 = {
    {20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 36.7}, {40, 40, 40}};
constexpr PerArchNodes kPerChMaxTreeLL128 = {
    {20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};
constexpr PerArchNodes kPerChMaxTree = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
constexpr PerArchNodes kPerChMaxNvlsTree = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0, 57.7, 45.5}, {0, 96.0, 80.0}};

/// llMaxBws: total LL bandwidth, by architecture on one node, by CPU vendor across nodes.
constexpr double kLlMaxSingleNode[4] = {39.0, 87.7, 141.0, 282.0};
constexpr double kLlMaxIntel[2] = {39.0, 20.4}; ///< 2 nodes, 3+ nodes
constexpr double kLlMaxAmd[2] = {22.5, 19.0};

constexpr double kNvlsEfficiency[4] = {0, 0, 0.85, 0.74}; ///< table 2.6

/// treeCorrectionFactor by protocol and bucket floor(log2(S / 64)) (table 2.7).
constexpr int kCorrectionBuckets = 23;
constexpr double kTreeCorrection[kProtocols][kCorrectionBuckets] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6, .5,
     .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6, .6,
     .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9},
};

constexpr double kLlPayload = 0.5;         ///< LL: 4 B of data per 8 B
constexpr double kLl128Payload = 0.92;     ///< LL128 ring (120 of 128 B, less flags)
constexpr double kTreeEfficiency = 0.92;   ///< every tree protocol
constexpr double kTreeLlDivisor = 3.8;     ///< tree LL
constexpr double kPatEfficiency = 0.75;    ///< PAT
constexpr double kCollNetSm90 = 0.85;      ///< CollNetDirect all-reduce on SM90+
constexpr double kCollNetInterShare = 0.9; ///< CollNetDirect all-gather / reduce-scatter
constexpr double kCollNetPeerUs = 0.4;     ///< CollNetDirect per-peer serialisation
constexpr double kPatPerRankUs = 2.8;      ///< PAT latency per rank
constexpr double kPatNetDivisor = 3.5;     ///< PAT network latency per log2 N step
constexpr int kLocalRanksForCollNet = 8;   ///< CollNet heads per node

int archIndex(GpuArchitecture a) {
    return static_cast<int>(a);
}

int nodeIndex(int nodes) {
    return nodes <= 1 ? 0 : (nodes == 2 ? 1 : 2);
}

int log2Floor(int value) {
    int result = 0;
    while (value > 1) {
        value /= 2;
        ++result;
    }
    return result;
}

const Graph& graphOf(const System& s, Algorithm a) {
    switch (a) {
    case Algorithm::Tree:
        return s.tree;
    case Algorithm::CollNetDirect:
    case Algorithm::CollNetChain:
        return s.collNet;
    case Algorithm::Nvls:
        return s.nvls;
    case Algorithm::NvlsTree:
        return s.nvlsTree;
    case Algorithm::Ring:
    case Algorithm::Pat:
        break;
    }
    return s.ring;
}

/// Which (function, algorithm, protocol) triples NCCL enables (table 2.9 and its conditions).
bool enabled(const System& s, Function f, Algorithm a, Protocol p) {
    const int ppn = s.ranksPerNode;
    if (p == Protocol::LL128 && !s.nvlinkIntra)
        return false; // LL128 needs NVLink inside the node
    if (a != Algorithm::Ring && a != Algorithm::Tree && p != Protocol::Simple)
        return false; // CollNet, NVLS and PAT run Simple only
    if (graphOf(s, a).channels < 1)
        return false;
    const bool collNet = s.collNetEnabled && s.nodes >= 2 && ppn <= kLocalRanksForCollNet;
    const bool nvls = s.nvlsSupported && ppn >= 2 && graphOf(s, a).channels >= 2;
    switch (f) {
    case Function::Broadcast:
        return a == Algorithm::Ring;
    case Function::AllGather:
    case Function::ReduceScatter:
        switch (a) {
        case Algorithm::Ring:
            return true;
        case Algorithm::CollNetDirect:
            return collNet && s.nvSwitch;
        case Algorithm::Nvls:
            return nvls && (s.nodes == 1 || collNet);
        case Algorithm::Pat:
            return ppn == 1;
        default:
            return false;
        }
    case Function::AllReduce:
        switch (a) {
        case Algorithm::Tree:
        case Algorithm::Ring:
            return true;
        case Algorithm::CollNetDirect:
            return collNet && s.nvSwitch;
        case Algorithm::CollNetChain:
            return collNet;
        case Algorithm::Nvls:
            return nvls && (s.nodes == 1 || collNet); // multi-node NVLS is NVLink + IB SHARP
        case Algorithm::NvlsTree:
            return nvls && s.nodes > 1;
        case Algorithm::Pat:
            return false;
        }
    }
    return false;
}

/// Latency of one call, us (section 1.3).
double latencyOf(const System& s, Function f, Algorithm a, Protocol p) {
    const int ai = static_cast<int>(a);
    const int pi = static_cast<int>(p);
    const int n = s.ranks();
    const int nodes = s.nodes;
    const int ppn = s.ranksPerNode;
    const double base = kBaseLatency[ai][pi];
    const double intraLat = kHwLatency[s.nvlinkIntra ? NvLinkHw : PciHw][ai][pi];
    // With one rank per node every hop is a network hop: NCCL uses the tree's NET row.
    double interLat =
        kHwLatency[NetHw][ppn == 1 ? static_cast<int>(Algorithm::Tree) : ai][pi] + s.latencyInterUs;
    if (p == Protocol::Simple)
        interLat += s.latencyInterUs; // flush
    const int logNodes = log2Floor(nodes);
    switch (a) {
    case Algorithm::Ring: {
        if (f == Function::Broadcast) {
            // Channels are not assumed identical: one hop per rank, the tree's entry for Simple.
            const int row = p == Protocol::Simple ? static_cast<int>(Algorithm::Tree) : ai;
            const double hop = nodes > 1 ? kHwLatency[NetHw][row][pi] + s.latencyInterUs
                                         : kHwLatency[s.nvlinkIntra ? NvLinkHw : PciHw][row][pi];
            return base + n * hop;
        }
        const bool allReduce = f == Function::AllReduce;
        const int steps = allReduce ? 2 * (n - 1) : n - 1;
        const int interSteps = nodes > 1 ? (allReduce ? 2 * (nodes - 1) : nodes - 1) : 0;
        double netOverhead = 0;
        if (nodes > 1)
            netOverhead = (s.amdCpu ? 2.0 : 1.0) * (p == Protocol::Simple ? 3.0 : 1.0);
        const double intra = std::max(intraLat, netOverhead);
        return base + (steps - interSteps) * intra + interSteps * interLat;
    }
    case Algorithm::Tree:
        return base + 2 * ((ppn - 1) * intraLat + logNodes * interLat);
    case Algorithm::CollNetDirect:
        return base + 2 * (std::min(1, ppn - 1) * intraLat + kCollNetPeerUs * (ppn - 1)) + interLat;
    case Algorithm::CollNetChain:
        return base + 2 * (ppn - 1) * intraLat + interLat;
    case Algorithm::Nvls:
        return base + intraLat + (nodes > 1 ? interLat : 0.0);
    case Algorithm::NvlsTree:
        return base + intraLat + 2 * logNodes * interLat;
    case Algorithm::Pat:
        return base + logNodes * interLat / kPatNetDivisor + kPatPerRankUs * n;
    }
    return base;
}

double llMaxBw(const System& s) {
    if (s.nodes <= 1)
        return kLlMaxSingleNode[archIndex(s.architecture)];
    const double* row = s.amdCpu ? kLlMaxAmd : kLlMaxIntel;
    return row[s.nodes == 2 ? 0 : 1];
}

/// NVLS's bus bandwidth per channel through NVLink SHARP (tuning.cc, NCCL 2.28.3 on): the
/// graph's bwIntra at the architecture's NVLS efficiency, less one channel's share, doubled
/// for all-reduce (it pipelines its reduce and its broadcast).
double nvlsIntraPerChannel(const System& s, Function f, Algorithm a) {
    const Graph& g = graphOf(s, a);
    const double nCh = g.channels;
    const double ppn = s.ranksPerNode;
    const double intra = g.bwIntra * kNvlsEfficiency[archIndex(s.architecture)] * (nCh - 1) / nCh;
    return intra * (f == Function::AllReduce ? 2.0 : (ppn - 1.0) / ppn);
}

/// Bus bandwidth to algorithm bandwidth for NVLS (section 1.5): the gathers and scatters are
/// costed on the whole array, the rest as all-reduce's 2(n-1)/n of it.
double nvlsAlgBandwidth(const System& s, Function f, double busBw) {
    const int n = s.ranks();
    if (f == Function::AllGather || f == Function::ReduceScatter)
        return busBw;
    return busBw * n / (2.0 * (n - 1));
}

/// Algorithm bandwidth of one pair, GB/s, before per-size corrections (sections 1.4, 1.5).
double bandwidthOf(const System& s, Function f, Algorithm a, Protocol p) {
    const Graph& g = graphOf(s, a);
    const int arch = archIndex(s.architecture);
    const int nodes = nodeIndex(s.nodes);
    const int ppn = s.ranksPerNode;
    const int n = s.ranks();
    const double nCh = g.channels;
    const bool collNet = a == Algorithm::CollNetDirect || a == Algorithm::CollNetChain;
    double bw = (s.nodes <= 2 || collNet) ? g.bwIntra : g.bwInter;
    if (a == Algorithm::Nvls || a == Algorithm::NvlsTree) {
        const double intra = nvlsIntraPerChannel(s, f, a);
        // On one node too: bwInter is the search's second speed (NcclGraphs), and the cap it
        // sets is what makes ring win for a few GPUs (tuning.cc, NCCL 2.30.7).
        const double inter = g.bwInter * (a == Algorithm::NvlsTree && s.nodes <= 2 ? 2.0 : 1.0);
        bw = std::min(intra, inter);
        if (a == Algorithm::NvlsTree)
            bw = std::min(bw, kPerChMaxNvlsTree[arch][nodes]);
    }
    double busBw = nCh * bw;
    switch (a) {
    case Algorithm::Ring:
        if (p == Protocol::LL)
            busBw = std::min(llMaxBw(s), kLlPayload * busBw);
        else if (p == Protocol::LL128)
            busBw = std::min(kLl128Payload * busBw, nCh * kPerChMaxRingLL128[arch][nodes]);
        break;
    case Algorithm::Tree:
        if (f != Function::AllReduce)
            return 0;
        busBw = std::min(kTreeEfficiency * busBw, nCh * kPerChMaxTree[arch][nodes]);
        if (p == Protocol::LL)
            busBw = std::min(busBw / kTreeLlDivisor, llMaxBw(s));
        else if (p == Protocol::LL128)
            busBw = std::min(busBw * (s.nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0),
                             nCh * kPerChMaxTreeLL128[arch][nodes]);
        break;
    case Algorithm::Pat:
        busBw *= kPatEfficiency;
        break;
    case Algorithm::CollNetDirect:
        if (f != Function::AllReduce) {
            busBw = ppn * std::min(g.bwIntra, kCollNetInterShare * g.bwInter);
        } else {
            const double r = std::max(1.0, ppn / nCh); // GPUs per NIC
            busBw /= r - (r - 1) / 2;
            if (arch >= archIndex(GpuArchitecture::Hopper))
                busBw *= kCollNetSm90;
        }
        break;
    case Algorithm::CollNetChain:
    case Algorithm::Nvls:
    case Algorithm::NvlsTree:
        break;
    }
    // Bus bandwidth to algorithm bandwidth (section 1.5).
    const bool gatherOrScatter = f == Function::AllGather || f == Function::ReduceScatter;
    if (a == Algorithm::Ring) {
        const double steps = f == Function::AllReduce ? 2.0 * (n - 1)
                             : gatherOrScatter        ? n - 1.0
                                                      : n;
        return busBw * n / steps;
    }
    if (gatherOrScatter)
        return busBw; // PAT, NVLS and CollNetDirect cost the whole array directly
    if (a == Algorithm::Nvls || a == Algorithm::NvlsTree)
        return nvlsAlgBandwidth(s, f, busBw);
    return busBw * 0.5; // tree and CollNet move the data up, then down
}

} // namespace

std::string_view toString(Algorithm algorithm) {
    return model::enumName(kAlgorithmNames, algorithm);
}

std::string_view toString(Protocol protocol) {
    return model::enumName(kProtocolNames, protocol);
}

Protocol p2pProtocol(double bytesPerPeer) {
    constexpr double kP2pLlThreshold = 16384; // NCCL_P2P_LL_THRESHOLD
    return bytesPerPeer <= kP2pLlThreshold ? Protocol::LL : Protocol::Simple;
}

double p2pLatencyUs(Protocol protocol) {
    const int ring = static_cast<int>(Algorithm::Ring);
    const int p = static_cast<int>(protocol);
    return kBaseLatency[ring][p] + kHwLatency[NetHw][ring][p];
}

TuningTable::TuningTable(const System& system) : m_system(system) {
    for (int f = 0; f < 4; ++f)
        for (int a = 0; a < kAlgorithms; ++a)
            for (int p = 0; p < kProtocols; ++p) {
                const auto fn = static_cast<Function>(f);
                const auto algo = static_cast<Algorithm>(a);
                const auto proto = static_cast<Protocol>(p);
                if (!enabled(system, fn, algo, proto))
                    continue;
                m_latency[f][a][p] = latencyOf(system, fn, algo, proto);
                m_bandwidth[f][a][p] = std::max(0.0, bandwidthOf(system, fn, algo, proto));
            }
}

double TuningTable::latencyUs(Function f, Algorithm a, Protocol p) const {
    return m_latency[static_cast<int>(f)][static_cast<int>(a)][static_cast<int>(p)];
}

double TuningTable::bandwidthGBps(Function f, Algorithm a, Protocol p) const {
    return m_bandwidth[static_cast<int>(f)][static_cast<int>(a)][static_cast<int>(p)];
}

std::optional<Cost> TuningTable::cost(Function f, Algorithm a, Protocol p, double bytes) const {
    double bw = bandwidthGBps(f, a, p);
    if (!(bw > 0))
        return std::nullopt;
    double latency = latencyUs(f, a, p);
    const int bucket = bytes >= 64 ? log2Floor(static_cast<int>(std::min(
                                         bytes / 64, double(std::numeric_limits<int>::max()))))
                                   : -1;
    if (a == Algorithm::Tree && f == Function::AllReduce && bucket >= 0 &&
        bucket < kCorrectionBuckets)
        bw *= kTreeCorrection[static_cast<int>(p)][bucket];
    if (a == Algorithm::Ring && p == Protocol::Simple && f == Function::AllReduce &&
        m_system.nodes > 1) {
        // The ring "plateau": once every rank's slice of a runtime channel is a full 64 B
        // line. Runtime channels are twice the searched ones (ncclTopoPostset).
        const double runtimeChannels = 2.0 * m_system.ring.channels;
        if (bytes / (runtimeChannels * m_system.ranks()) >= 64)
            latency *=
                archIndex(m_system.architecture) >= archIndex(GpuArchitecture::Ampere) ? 1.4 : 1.9;
    }
    Cost cost{a, p, latency, bw, latency + bytes / (1000.0 * bw)};
    if (a == Algorithm::Nvls && m_system.nodes == 1)
        cost.streamAlgBwGBps = nvlsAlgBandwidth(
            m_system, f, graphOf(m_system, a).channels * nvlsIntraPerChannel(m_system, f, a));
    return cost;
}

bool Allowed::permits(Algorithm algorithm, Protocol protocol) const {
    const auto listed = [](const auto& list, auto value) {
        return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
    };
    return listed(algorithms, algorithm) && listed(protocols, protocol);
}

std::optional<Cost> TuningTable::select(Function f, double bytes, const Allowed& allowed) const {
    std::optional<Cost> best;
    for (int a = 0; a < kAlgorithms; ++a)
        for (int p = 0; p < kProtocols; ++p) {
            const auto algo = static_cast<Algorithm>(a);
            const auto proto = static_cast<Protocol>(p);
            if (!allowed.permits(algo, proto))
                continue;
            const auto c = cost(f, algo, proto, bytes);
            if (c && (!best || c->timeUs < best->timeUs))
                best = c;
        }
    return best;
}

} // namespace fabriclab::sim::nccl
