// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/GpuSpec.hpp"

#include <optional>
#include <string_view>
#include <vector>

/// NCCL's own cost model: for a collective of S bytes it times every enabled (algorithm,
/// protocol) pair as latency + S / bandwidth and runs the fastest. FabricLab picks the same
/// way, so a design gets the algorithm a real job would get at each message size.
/// Constants and formulas follow NCCL 2.30.7 (src/graph/tuning.cc, src/enqueue.cc), as read
/// in docs/reference/nccl-cost-model.md; section numbers below refer to that note.
namespace fabriclab::sim::nccl {

/// NCCL's algorithm ids, in the order its selection scans them (ties go to the earlier).
enum class Algorithm { Tree, Ring, CollNetDirect, CollNetChain, Nvls, NvlsTree, Pat };
/// NCCL's protocols, in scan order: LL (8 B data + 8 B flag), LL128 (120 of 128 B),
/// Simple (bulk copies).
enum class Protocol { LL, LL128, Simple };
/// The collectives NCCL's tuning model costs (send/recv and all-to-all are not).
enum class Function { AllReduce, AllGather, ReduceScatter, Broadcast };

inline constexpr int kAlgorithms = 7;
inline constexpr int kProtocols = 3;

std::string_view toString(Algorithm algorithm);
std::string_view toString(Protocol protocol);

/// What NCCL's topology search leaves for one algorithm: channels and the bandwidth of one
/// channel inside the node and between nodes (GB/s). No channels: the algorithm has no graph.
struct Graph {
    int channels = 0;
    double bwIntra = 0;
    double bwInter = 0;
};

/// Everything NCCL's tuning reads about the communicator (section 1).
struct System {
    model::GpuArchitecture architecture = model::GpuArchitecture::Hopper;
    int nodes = 1;
    int ranksPerNode = 1;
    bool nvlinkIntra = true;     ///< intra-node paths are NVLink (else PCIe)
    bool amdCpu = false;         ///< AMD hosts pay more per network post
    double latencyInterUs = 0;   ///< network latency beyond what NCCL's NET row assumes
    bool collNetEnabled = false; ///< NCCL_COLLNET_ENABLE with a SHARP plugin (off by default)
    bool nvlsSupported = false;  ///< NVSwitch multicast (Hopper and later)
    bool nvSwitch = true;        ///< CollNetDirect needs an NVSwitch
    Graph ring;
    Graph tree;
    Graph collNet;
    Graph nvls;     ///< NVLink SHARP (with IB SHARP across nodes)
    Graph nvlsTree; ///< NVLink SHARP inside, a tree between nodes
    int ranks() const { return nodes * ranksPerNode; }
};

/// The time NCCL's model gives one (algorithm, protocol) pair.
struct Cost {
    Algorithm algorithm = Algorithm::Ring;
    Protocol protocol = Protocol::Simple;
    double latencyUs = 0;
    double algBwGBps = 0; ///< bytes / (time - latency), after per-size corrections
    double timeUs = 0;
    /// NVLS inside one NVLink domain: the rate its pipeline streams at once full, NCCL's
    /// NVLink term without the cap its choice applies (tuning.cc takes the smaller of it and
    /// the graph's bwInter); 0 for every other pair.
    double streamAlgBwGBps = 0;
};

/// Which pairs may run: NCCL_ALGO / NCCL_PROTO. Empty lists allow everything.
struct Allowed {
    std::vector<Algorithm> algorithms;
    std::vector<Protocol> protocols;

    bool permits(Algorithm algorithm, Protocol protocol) const;
};

/// Send/recv (and so all-to-all), which NCCL's table does not cost: LL up to 16 KiB per
/// peer (NCCL_P2P_LL_THRESHOLD), Simple above (docs/reference/nccl-cost-model.md §4.4).
Protocol p2pProtocol(double bytesPerPeer);
/// Start-up of one network send with that protocol, us: the ring's base latency plus one
/// NET hop, the path's own latency excluded (the flow simulator adds it).
double p2pLatencyUs(Protocol protocol);

/// The latency and bandwidth tables NCCL fills once per communicator (ncclTopoTuneModel).
class TuningTable {
public:
    explicit TuningTable(const System& system);

    /// NCCL's time for `bytes` with this pair (ncclTopoGetAlgoTime), or nothing where the
    /// pair is unavailable (zero bandwidth).
    std::optional<Cost> cost(Function function, Algorithm algorithm, Protocol protocol,
                             double bytes) const;

    /// The pair NCCL would run: the lowest time among the allowed pairs, the earlier pair
    /// on ties. Nothing when no allowed pair is available.
    std::optional<Cost> select(Function function, double bytes, const Allowed& allowed = {}) const;

    double latencyUs(Function function, Algorithm algorithm, Protocol protocol) const;
    double bandwidthGBps(Function function, Algorithm algorithm, Protocol protocol) const;
    const System& system() const { return m_system; }

private:
    System m_system;
    double m_latency[4][kAlgorithms][kProtocols] = {};
    double m_bandwidth[4][kAlgorithms][kProtocols] = {};
};

} // namespace fabriclab::sim::nccl
