// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/workload/ServingEstimate.hpp"

#include "model/sim/Collectives.hpp"
#include "model/sim/FlowSimulator.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace fabriclab::model {

using sim::CollectiveGroup;
using sim::Endpoint;
using sim::FabricNetwork;
using sim::FlowSimulator;
using sim::runCollective;
using sim::Transfer;

namespace {

std::string fixed(double value, const char* format) {
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

void requireSplit(bool condition, const std::string& what) {
    if (!condition)
        throw std::invalid_argument("serving: " + what);
}

/// A replica's GPUs, server by server: replica r of those starting at `firstServer` covers
/// GPUs [r x per, (r + 1) x per) counted across the servers.
Endpoint gpuEndpoint(const FabricNetwork& network, std::size_t firstServer, long long gpu,
                     int gpusPerServer) {
    const auto& servers = network.servers();
    const model::NodeId server =
        servers[firstServer + static_cast<std::size_t>(gpu / gpusPerServer)];
    const int local = static_cast<int>(gpu % gpusPerServer);
    const int nics = std::max(1, network.nicCount(server));
    return Endpoint{server, local * nics / gpusPerServer};
}

/// Every prefill replica hands one request's KV cache to a decode replica at once: each of
/// the `shards` GPUs holding a distinct part sends it to the same GPU of the decode replica.
std::vector<Transfer> kvHandOver(const FabricNetwork& network, int prefillServers,
                                 int prefillReplicas, int decodeReplicas, long long perReplica,
                                 int shards, int gpusPerServer, double bytesPerShard) {
    std::vector<Transfer> transfers;
    for (int p = 0; p < prefillReplicas; ++p) {
        const int d = p % decodeReplicas;
        for (int g = 0; g < shards; ++g) {
            Transfer t;
            t.from = gpuEndpoint(network, 0, p * perReplica + g, gpusPerServer);
            t.to = gpuEndpoint(network, static_cast<std::size_t>(prefillServers),
                               d * perReplica + g, gpusPerServer);
            t.bytes = bytesPerShard;
            t.flowKey = static_cast<std::uint64_t>(p) * 4096 + static_cast<std::uint64_t>(g);
            transfers.push_back(t);
        }
    }
    return transfers;
}

} // namespace

ServingEstimate estimateServing(const FabricNetwork& network, const model::ServingWorkload& w,
                                std::stop_token stop) {
    const auto& topology = network.topology();
    const auto& servers = network.servers();
    requireSplit(!servers.empty(), "the design has no servers to serve on");
    const int gpusPerServer = topology.node(servers.front()).server.gpus;
    for (const auto server : servers)
        requireSplit(topology.node(server).server.gpus == gpusPerServer,
                     "every server needs the same number of GPUs");
    const long long perReplica = w.gpusPerReplica();
    requireSplit(w.tp <= gpusPerServer && gpusPerServer % w.tp == 0,
                 "tp " + std::to_string(w.tp) + " must divide the " +
                     std::to_string(gpusPerServer) + " GPUs of a server (tensor parallelism " +
                     "stays on the scale-up network)");
    requireSplit(perReplica <= gpusPerServer ? gpusPerServer % perReplica == 0
                                             : perReplica % gpusPerServer == 0,
                 "a replica of " + std::to_string(perReplica) +
                     " GPUs must fill whole servers or divide one");
    const int serverCount = static_cast<int>(servers.size());
    const int serversPerReplica =
        static_cast<int>(std::max<long long>(1, perReplica / gpusPerServer));
    const auto replicasOn = [&](int serverSpan) {
        return static_cast<int>(static_cast<long long>(serverSpan) * gpusPerServer / perReplica);
    };

    ServingEstimate e;
    e.gpus = serverCount * gpusPerServer;

    // Expert dispatch and combine across servers, on the fabric: an all-to-all of the
    // step's routed hidden states over the replica's servers.
    if (w.model.spec.experts > 1 && w.ep > 1 && serversPerReplica > 1) {
        requireSplit(serversPerReplica <= serverCount,
                     "a replica needs " + std::to_string(serversPerReplica) + " servers");
        CollectiveGroup group{
            std::vector<model::NodeId>(servers.begin(), servers.begin() + serversPerReplica),
            gpusPerServer, w.gpu.spec};
        const double perGpu = static_cast<double>(model::servingCompute(w).batch) / perReplica *
                              w.model.spec.expertsPerToken * w.model.spec.hiddenSize * 2;
        const model::CollectiveSpec spec{model::CollectiveOp::AllToAll,
                                         static_cast<long long>(std::max(1.0, perGpu)),
                                         model::CollectiveAlgorithm::Auto};
        e.expertFabricSecondsPerLayer = 2 * runCollective(network, group, spec, stop).seconds;
        e.usesFabric = true;
    }
    // Tensor-parallel all-reduces as NCCL runs them on the replica's GPUs of one server: its
    // pick and timing for the size (NVLS from 5 GPUs of an NVSwitch server, else ring).
    model::ServingCollectives collectives;
    collectives.expertSecondsPerLayer = e.expertFabricSecondsPerLayer;
    collectives.tensorParallelAllReduce = [&](double bytes) {
        const CollectiveGroup group{{servers.front()}, w.tp, w.gpu.spec};
        const model::CollectiveSpec spec{model::CollectiveOp::AllReduce,
                                         static_cast<long long>(std::max(1.0, bytes)),
                                         model::CollectiveAlgorithm::Auto};
        return runCollective(network, group, spec, stop).seconds;
    };
    e.compute = model::servingCompute(w, collectives);
    const auto& c = e.compute;
    e.kvBytesPerRequest = static_cast<double>(w.inputTokens) * c.kvBytesPerToken;

    double capacity = 0;
    if (w.disaggregated) {
        requireSplit(w.prefillServers >= serversPerReplica &&
                         serverCount - w.prefillServers >= serversPerReplica,
                     "disaggregated serving needs a replica's servers for prefill and as many "
                     "for decode (prefillServers " +
                         std::to_string(w.prefillServers) + " of " + std::to_string(serverCount) +
                         ")");
        e.prefillReplicas = replicasOn(w.prefillServers);
        e.decodeReplicas = replicasOn(serverCount - w.prefillServers);
        const double bytesPerShard = e.kvBytesPerRequest / c.kvShards;
        const auto transfers =
            kvHandOver(network, w.prefillServers, e.prefillReplicas, e.decodeReplicas, perReplica,
                       c.kvShards, gpusPerServer, bytesPerShard);
        e.kvTransferSeconds = FlowSimulator{}.run(network, transfers, stop).seconds;
        const double nicBytesPerSecond =
            model::bytesPerSecond(network.nicGoodput(transfers.front().from));
        e.kvTransferIdealSeconds = bytesPerShard / nicBytesPerSecond;
        e.usesFabric = true;
        e.ttftSeconds = c.prefillSeconds + e.kvTransferSeconds;
        e.tpotSeconds = c.decodeStepSeconds;
        // A prefill replica starts its next prompt while the last one's cache crosses, so
        // it hands over no faster than the slower of the two.
        capacity = std::min(e.prefillReplicas / std::max(c.prefillSeconds, e.kvTransferSeconds),
                            e.decodeReplicas * c.batch / (w.outputTokens * c.decodeStepSeconds));
        e.assumptions.push_back(
            "the KV cache crosses after the whole prompt is prefilled, every prefill replica "
            "at once (no layer-by-layer overlap)");
    } else {
        e.replicas = replicasOn(serverCount);
        requireSplit(e.replicas >= 1, "a replica of " + std::to_string(perReplica) +
                                          " GPUs needs more than the design's " +
                                          std::to_string(e.gpus));
        // Continuous batching: each step, batch / output tokens requests finish and as many
        // prompts are prefilled in their place, which the decoding requests wait for.
        e.tpotSeconds = c.colocatedStepSeconds;
        e.ttftSeconds = c.prefillSeconds;
        capacity = e.replicas * c.batch / (w.outputTokens * e.tpotSeconds);
    }
    e.capacityRequestsPerSecond = capacity;
    e.servedRequestsPerSecond = w.requestRate ? std::min(*w.requestRate, capacity) : capacity;
    e.outputTokensPerSecondPerGpu = e.servedRequestsPerSecond * w.outputTokens / e.gpus;

    e.assumptions.push_back("decode reads the batch's KV cache at its mean length, prompt + "
                            "half the output; a request's first token waits for no queue");
    if (!c.fits)
        e.warnings.push_back(
            "the serving replica does not fit in memory: " + fixed(c.memoryPerGpu / 1e9, "%.1f") +
            " GB a GPU (weights " + fixed(c.weightBytesPerGpu / 1e9, "%.1f") + ", KV cache " +
            fixed(c.kvBytesPerGpu / 1e9, "%.1f") + ") against " + fixed(c.hbm / 1e9, "%.0f") +
            " GB");
    if (w.requestRate && *w.requestRate > capacity)
        e.warnings.push_back("the offered " + fixed(*w.requestRate, "%.3g") +
                             " requests/s exceed the " + fixed(capacity, "%.3g") +
                             " the cluster serves; the queue grows without bound");
    return e;
}

} // namespace fabriclab::model
