// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/ServingWorkload.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/workload/ServingCompute.hpp"

#include <stop_token>
#include <string>
#include <vector>

namespace fabriclab::model {

/// What a serving design delivers on its fabric.
struct ServingEstimate {
    model::ServingCompute compute;
    int replicas = 0;        ///< replicas that both prefill and decode (not disaggregated)
    int prefillReplicas = 0; ///< disaggregated: replicas on the prefill servers
    int decodeReplicas = 0;  ///< disaggregated: replicas on the decode servers
    /// A request's KV cache, all layers, as it crosses from prefill to decode.
    double kvBytesPerRequest = 0;
    /// Disaggregated: every prefill replica handing one request's KV cache to a decode
    /// replica at once, simulated on the fabric; and the same bytes at the NICs' line rate.
    double kvTransferSeconds = 0;
    double kvTransferIdealSeconds = 0;
    /// Expert dispatch and combine of one decode layer, timed on the fabric, when a replica
    /// spans servers; 0 inside one server.
    double expertFabricSecondsPerLayer = 0;
    double ttftSeconds = 0; ///< time to first token: prefill, plus the KV hand-over
    /// Time per output token: a decode step, plus (sharing the replica) the prompts it
    /// prefills meanwhile, batch / output tokens of them a step.
    double tpotSeconds = 0;
    double capacityRequestsPerSecond = 0; ///< what the whole cluster serves at most
    double servedRequestsPerSecond = 0;   ///< the offered rate, up to the capacity
    double outputTokensPerSecondPerGpu = 0;
    int gpus = 0;
    /// True when the fabric carries serving traffic (the KV hand-over, or a replica across
    /// servers): only then does the fabric change these figures.
    bool usesFabric = false;
    std::vector<std::string> assumptions;
    std::vector<std::string> warnings; ///< does not fit, more requests than it serves
};

/// Replicas laid out server by server, as many as the servers hold; disaggregated, the
/// first `prefillServers` prefill and the rest decode, every prefill replica handing its
/// request to decode replica (i mod decode replicas), GPU by GPU over the NICs the GPUs
/// sit beside. Throws std::invalid_argument when the split cannot run on these servers.
ServingEstimate estimateServing(const sim::FabricNetwork& network,
                                const model::ServingWorkload& workload, std::stop_token stop = {});

} // namespace fabriclab::model
