// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/NcclTuning.hpp"

namespace fabriclab::sim::nccl {

/// One server as NCCL's topology detection sees it.
struct NodeHardware {
    model::GpuArchitecture architecture = model::GpuArchitecture::Hopper;
    int gpus = 8;
    double scaleUpGBps = 370.8; ///< per GPU per direction, as NCCL counts NVLink
    bool nvSwitch = true;
    bool nvlsMulticast = false;
    int nics = 8;
    double nicGBps = 50;  ///< line rate of one NIC
    double pcieGBps = 48; ///< the PCIe link between a NIC and its GPU
};

/// The communicator: `nodes` identical servers, every GPU a rank. `fabricGBps` is what the
/// fabric carries per server across all its NICs in a ring step (from the flow simulator:
/// oversubscription, ECMP collisions and failures lower it); NCCL's channels never get
/// more than their share of it. `latencyInterUs` is the fabric's latency beyond a one-switch
/// InfiniBand path, which NCCL's NET latencies already contain.
struct Communicator {
    NodeHardware node;
    int nodes = 1;
    double fabricGBps = 0;
    double latencyInterUs = 0;
    bool collNet = false; ///< SHARP enabled for the job and present in the fabric
};

/// NCCL's graph search, reduced to what sets its result on GPU servers (docs/reference/nccl-cost-model.md §1.7):
/// per-channel speeds come from NCCL's speed lists, channels are packed while NICs, PCIe
/// and NVLink have room, and the combination carrying the most wins. Returns the tuning
/// inputs with every graph filled in.
System searchGraphs(const Communicator& communicator);

} // namespace fabriclab::sim::nccl
