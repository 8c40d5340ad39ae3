// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/GpuSpec.hpp"
#include "model/design/CollectiveSpec.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/FlowSimulator.hpp"

#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::sim {

/// Who takes part in a collective: `gpusPerServer` GPUs on each of `servers` (in ring
/// order), and the scale-up figures of those GPUs.
struct CollectiveGroup {
    std::vector<model::NodeId> servers;
    int gpusPerServer = 8;
    model::GpuSpec gpu; ///< scale-up bandwidth, efficiency and step latency
    /// SHARP enabled for the job (NCCL_COLLNET_ENABLE=1); used where the fabric has it.
    bool inNetworkReduction = false;
    int ranks() const { return static_cast<int>(servers.size()) * gpusPerServer; }
};

/// The first `servers` servers of the network (all by default) with the GPUs every one of
/// them has, as a job spread over them would run.
CollectiveGroup groupOfServers(const FabricNetwork& network, const model::GpuSpec& gpu,
                               std::size_t servers = static_cast<std::size_t>(-1));

/// NICs per server a collective over the group spreads over: every NIC the servers have
/// in common, the server's share of them for a group on part of its GPUs. Throws
/// std::invalid_argument for a server of a multi-server group without a NIC.
int collectiveRails(const FabricNetwork& network, const CollectiveGroup& group);

struct CollectiveResult;
/// The transfers the collective's fabric phase ran (a ring step on every rail, or an
/// all-to-all's exchange), built as runCollective built them for `result`, one byte each.
std::vector<Transfer> phaseTransfers(const FabricNetwork& network, const CollectiveGroup& group,
                                     const CollectiveResult& result);

/// Timing of one collective, reported as nccl-tests reports it:
/// algbw = size / time; busbw = algbw x 2(n-1)/n for all-reduce, x (n-1)/n for
/// all-gather, reduce-scatter and all-to-all, x 1 for broadcast.
struct CollectiveResult {
    model::CollectiveOp op = model::CollectiveOp::AllReduce;
    model::CollectiveAlgorithm algorithm = model::CollectiveAlgorithm::Ring; ///< as run
    model::CollectiveProtocol protocol = model::CollectiveProtocol::Simple;  ///< as run
    /// Who picked algorithm and protocol: "nccl" (its cost model, or NCCL_ALGO/NCCL_PROTO),
    /// or the tuner plugin the fabric's jobs load ("aws-ofi-nccl"). All-to-all and the
    /// hierarchical scheme, which NCCL's model does not cost, say "nccl" too: NCCL runs them
    /// as the grouped sends FabricLab simulates.
    std::string chosenBy = "nccl";
    double bytes = 0;
    int ranks = 0;
    double seconds = 0;
    double algBwGBps = 0;
    double busBwGBps = 0;
    /// Static ECMP hashes each flow onto one cable, so one set of hash keys can be lucky or
    /// unlucky. NCCL's collectives on such a fabric are timed over `ecmpDraws` sets of flow
    /// keys: `seconds` is their mean, and these the slowest and fastest draws. One draw on
    /// adaptive fabrics, single servers and fabrics with one path between any two NICs (a
    /// single switch), whose times do not depend on hashes.
    int ecmpDraws = 1;
    double fastestSeconds = 0;
    double slowestSeconds = 0;
    double busBwMinGBps = 0; ///< busbw of the slowest draw
    double busBwMaxGBps = 0; ///< busbw of the fastest draw
    /// What the reported draw added to its flows' hash keys, so its phase can be rebuilt.
    std::uint64_t flowSalt = 0;
    SimulationResult phase; ///< the simulated fabric phase, for playback
    /// How many times the collective runs that phase (a ring's 2(n-1) steps); the phase
    /// is simulated once and its time reused.
    int phaseRepeats = 1;
};

/// Fabric phases already simulated for one network and group, by kind (ring step, tree,
/// all-to-all, ...). Every transfer of a phase carries the same bytes and starts at once,
/// so the phase scales exactly with its size (scaleSizes): a sweep over message sizes
/// simulates each kind once. Use one cache per network and group, from one thread.
class PhaseCache {
public:
    /// The phase `kind` with `bytes` per transfer: simulated by `simulate(bytes)` the first
    /// time, scaled from then on. Link utilization scales unchanged (rates do not depend
    /// on sizes), so a phase recorded for playback serves later sweeps too; one cached
    /// without links is simulated again (and replaced) when `withLinks` asks for them.
    SimulationResult phase(std::string_view kind, double bytes,
                           const std::function<SimulationResult(double)>& simulate,
                           bool withLinks = false);

private:
    struct Entry {
        double bytes = 0;
        SimulationResult result;
        bool links = false; ///< per-link samples were recorded
    };
    std::map<std::string, Entry, std::less<>> m_phases;
};

/// Runs a collective as NCCL would. The fabric's part goes through the flow simulator: one
/// step of rings on every NIC of every server, whose rate (after oversubscription, ECMP
/// collisions and failures) caps NCCL's channels. NCCL's cost model (NcclTuning.hpp) then
/// times every algorithm and protocol it would consider and `auto` runs the fastest, as
/// NCCL does, unless the fabric's jobs load a tuner plugin whose table covers the
/// collective (AwsOfiTuner.hpp); a named algorithm or protocol restricts the choice as
/// NCCL_ALGO and NCCL_PROTO do. The pick is then timed as published runs measure it
/// (NcclExecution.hpp). In-network reduction is considered only where the group enables it.
/// All-to-all, which NCCL's model does not cost, is simulated flow by flow (PXN on
/// multi-NIC servers). Repeated identical steps are simulated once, so a 16K-GPU
/// all-reduce costs one phase.
/// Throws std::invalid_argument for an algorithm that does not fit (SHARP without
/// in-network reduction, PXN for a reduction) or a group of fewer than one GPU.
/// `recordLinks` keeps per-channel utilization in the phase's timeline, for playback.
/// `cache`, when given, reuses phases across calls on the same network and group.
CollectiveResult runCollective(const FabricNetwork& network, const CollectiveGroup& group,
                               const model::CollectiveSpec& spec, std::stop_token stop = {},
                               bool recordLinks = false, PhaseCache* cache = nullptr);

/// One step of rings across servers: on every rail, each server sends `bytesPerRail`
/// to the next server of its ring, all rings at once. The building block of ring-based
/// collectives and of data-parallel gradient exchange.
SimulationResult simulateRings(const FabricNetwork& network,
                               const std::vector<std::vector<model::NodeId>>& rings, int rails,
                               double bytesPerRail, std::stop_token stop = {});

/// busbw / algbw for an operation over n ranks, as nccl-tests defines it.
double busBandwidthFactor(model::CollectiveOp op, int ranks);

} // namespace fabriclab::sim
