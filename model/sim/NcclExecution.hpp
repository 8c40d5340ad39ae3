// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/catalog/GpuSpec.hpp"
#include "model/sim/NcclTuning.hpp"

/// What NCCL's choice takes when it runs, as opposed to what NCCL's cost model predicts when
/// it chooses. NCCL still picks by its model (NcclTuning); FabricLab times the pick as
/// published runs measure it. Six departures are measured, each calibrated on one published
/// figure or curve (a `fit` case in resources/validation/nccl-tests.json) and checked on all the
/// others:
/// - NVLS-tree between servers ramps up far more slowly than the model's latency + size /
///   bandwidth: 2 x 8 H100 on NDR reach 270 GB/s busbw at 64 MiB where the model says 401,
///   and 2 x 8 B200 on the same NICs are no faster at 16 MiB. Once full it streams at 0.92
///   of the model's bandwidth, as NVLS does inside one server: NVLink SHARP limits both.
/// - NVLS fills its pipeline far more slowly than the model's latency + size / bandwidth, and
///   the more GPUs share the NVLink domain, the longer: a 64-GPU NVL72 rack reaches 743
///   GB/s busbw at 1 GiB where the model (at the plateau) says 929.
/// - Ring LL128 pays far more per network step than the model's 4 us: all-gather on 2 to 32
///   p5 servers at 32-64 MiB runs at half the model's busbw, and the gap grows with servers;
///   it closes as each rank's piece grows past 1 MiB. EFA's plugin pays more per step than
///   NCCL's own InfiniBand transport (Fabric::ringLl128StepUs).
/// - Tree LL128 between servers moves its data at about half the model's bandwidth: 4 x 8
///   H100 on NDR take 151 us for a 4 MiB all-reduce where the model says 111.
/// - All-gather on Hopper between servers (ring Simple) levels off at about 0.85 of the rate
///   its all-reduce rings reach on the same NICs.
/// - All-to-all inside an NVLink 5 domain (grouped sends, no ring) reaches 0.95 of the NVLink
///   rate NCCL's rings count.
/// One departure is worked out rather than measured: tree Simple all-reduce on three or more
/// servers streams at what the servers' NICs move (treeNetworkLoad), where NCCL's model caps
/// each tree channel far lower (24 GB/s on Blackwell) to steer its choice towards ring.
namespace fabriclab::sim::nccl {

struct ExecutionCosts {
    /// NVLS-tree, and NVLS between servers: share of the model's bandwidth NVLink SHARP
    /// sustains once full (469 of 509 GB/s on 2 x 8 H100, fit case
    /// `nvls-tree-2-nodes-ndr-8g`). Inside one NVLink domain NVLS streams at NCCL's own
    /// NVLink term instead (Cost::streamAlgBwGBps), which its searched graph already holds
    /// to the measured plateaus.
    double nvlsPlateau = 0.92;
    /// NVLS: the NVLink SHARP pipeline's fill, paid on top of the stream by every NVLS
    /// collective (fit on all-reduce), us: up to `nvlsFillUsPerRank` per GPU of the NVLink domain,
    /// reached as each GPU's shard of the data grows past `nvlsFillBytesPerRank`:
    ///     fill = nvlsFillUsPerRank x G x S / (S + nvlsFillBytesPerRank x G)
    /// for S bytes on a domain of G GPUs. It grows with the domain: a 64-GPU NVL72 rack takes
    /// 2.8 ms for 1 GiB where NCCL's model (at the plateau) says 2.3, and 8 H100 take 118 us
    /// for 16 MiB where it says 88. Least squares over one curve (fit cases
    /// `oci-gb300-1-rack-allreduce-*`, 4 MiB to 16 GiB; scripts/fit-nvls-fill.py). Between
    /// servers NVLS-tree pays the larger of this fill and its network fill.
    double nvlsFillUsPerRank = 4.0;
    double nvlsFillBytesPerRank = 0.4e6;
    /// NVLS-tree: until `nvlsTreeFillBytes` have entered, each byte's time on the servers'
    /// NICs is paid this much again: the network stage does not yet overlap the NVLink
    /// reduction and multicast. It is a cost of the network, not of NVLink: B200 and H100 on
    /// the same 8 x 400G NICs take the same time at 16 MiB (fit cases
    /// `nvls-tree-2-nodes-ndr-16m`, `-64m`: 0.7 of the 250 GB/s stream = 1.07 of 384 GB/s
    /// of NICs, and `lambda-b200-2-nodes-16m`).
    double nvlsTreeFillPenalty = 1.07;
    double nvlsTreeFillBytes = 48.0 * 1024 * 1024;
    /// Ring LL128: time each network step takes beyond NCCL's table, us, while each rank's
    /// piece is at most `ringLl128HiddenFromBytes`; above, the step's data hides all but
    /// that share of it. The step is the fabric's (Fabric::ringLl128StepUs: 33 on NCCL's own
    /// transport; 45 on EFA, fit cases `p5-allgather-8-nodes-*`: 51 and 41 us per step at
    /// 512 KiB and 1 MiB pieces, 11 at 4 MiB = 45 x 1/4); the knee is EFA's fit.
    double ringLl128NetworkStepUs = model::kNcclNetRingLl128StepUs;
    double ringLl128HiddenFromBytes = 1024.0 * 1024;
    /// Tree LL128: share of the model's bandwidth it reaches between servers, the latency
    /// unchanged (fit case `h100-ndr-4-nodes-4m`: (111 - 66) / (151 - 66) = 0.53).
    double treeLl128Share = 0.53;
    /// All-gather with ring Simple between servers: share of the model's bandwidth it
    /// reaches, the latency unchanged. 1 but on Hopper (executionCostsFor).
    double allGatherRingShare = 1.0;
    /// All-to-all's sends inside one NVLink domain: share of the scale-up rate NCCL's rings
    /// count (GpuSpec scaleUpGBps x scaleUpEfficiency) they reach. 1 but on Blackwell
    /// (executionCostsFor): two GB300 trays, 8 GPUs of one NVL72 rack, move 16 GiB at 685
    /// GB/s busbw where the rings' rate is 722 (fit case `oci-gb300-2-trays-alltoall-16g`:
    /// 685.06 / 721.8 = 0.949); no Hopper or Ampere figure departs from 1.
    double scaleUpAllToAllShare = 1.0;
    /// Tree Simple between servers: share of the NICs' rate the tree's kernels reach, NCCL's
    /// own tree efficiency (tuning.cc, docs/reference/nccl-cost-model.md table 2.4).
    double treeEfficiency = 0.92;
};

/// The most bytes one server's NICs move each way, per byte all-reduced, over NCCL's double
/// binary tree across `nodes` servers (src/graph/trees.cc): a server sends and receives half
/// the data once per neighbour it has in each of the two trees, so the busiest carries
/// (its neighbours in both trees) / 2. 1 for two servers, 1.5 for three, 2 from four on.
double treeNetworkLoad(int nodes);

/// The execution costs of a GPU architecture on a fabric. Hopper's all-gather levels off
/// near 0.85 of the per-NIC rate its all-reduce rings reach, over InfiniBand, RoCE and EFA
/// alike (fit case `skypilot-a3ultra-h200-allgather-8g`: 326 of 383 GB/s); A100 and B200
/// runs reach the full rate, so they keep 1. The ring LL128 step is the fabric's.
ExecutionCosts executionCostsFor(model::GpuArchitecture architecture, const model::Fabric& fabric);

/// The chunk NCCL cuts a `piece`-byte send to a remote peer into, for the chunk setting
/// NCCL_P2P_NET_CHUNKSIZE: a quarter of it for pieces below one setting, half below eight,
/// the whole setting above (src/enqueue.cc, NCCL 2.21-2.27).
double p2pChunkBytes(double chunkSetting, double piece);

/// Software time a GPU's all-to-all spends beyond its transfers, seconds, when each of its
/// `remotePeers` peers on other servers gets `piece` bytes: the plugin's start-up, its cost
/// per peer, and its cost per chunk, which one proxy thread per GPU pays one chunk after
/// another (Fabric::p2p).
double p2pOverheadSeconds(const model::P2pExecution& p2p, double piece, int remotePeers);

/// The time NCCL's chosen pair takes for `bytes` of `function` on `nodes` servers and
/// `ranks` GPUs in all, us. `networkGBps` is what each server's NICs carry for the chosen
/// algorithm's graph (its channels x their network share, after the fabric's own limits);
/// NVLS-tree and tree read it.
double executionTimeUs(const Cost& chosen, Function function, double bytes, int nodes, int ranks,
                       double networkGBps, const ExecutionCosts& costs = {});

} // namespace fabriclab::sim::nccl
