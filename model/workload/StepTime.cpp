// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/workload/StepTime.hpp"

#include "model/sim/Collectives.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fabriclab::sim {
namespace {

constexpr double kBytesPerValue = 2; // BF16 gradients and activations on the wire

/// Data-parallel gradient exchange: every GPU's DP group is a ring of `dp` ranks spaced
/// `tp` apart. Members on one server first combine over scale-up; the rest cross the
/// fabric on the GPU's own rail, one ring per group, all groups at once.
double dataParallelSeconds(const FabricNetwork& network, const model::Workload& w,
                           double gradientBytes, const std::vector<model::NodeId>& stageServers,
                           int gpusPerServer, std::stop_token stop) {
    if (w.dp < 2)
        return 0;
    const auto& gpu = w.gpu.spec;
    const double scaleUpBps = gpu.scaleUpGBps * gpu.scaleUpEfficiency * 1e9;
    // ZeRO-3 also gathers parameters for the forward and the backward pass: 3 passes of
    // (n-1)/n instead of the all-reduce's 2.
    const double volumeFactor = w.zero >= 3 ? 1.5 : 1.0;
    const int membersPerServer = std::max(1, gpusPerServer / w.tp); // DP members sharing a server
    const int serversPerGroup = std::max(1, w.dp / membersPerServer);
    double seconds = 0;
    if (membersPerServer > 1)
        seconds += 2.0 * (membersPerServer - 1) / membersPerServer * gradientBytes / scaleUpBps;
    if (serversPerGroup > 1) {
        const int stride = std::max(1, w.tp / gpusPerServer);
        std::vector<std::vector<model::NodeId>> rings(static_cast<std::size_t>(stride));
        for (int d = 0; d < serversPerGroup; ++d)
            for (int o = 0; o < stride; ++o) {
                const auto index = static_cast<std::size_t>(o + stride * d);
                if (index < stageServers.size())
                    rings[static_cast<std::size_t>(o)].push_back(stageServers[index]);
            }
        int rails = gpusPerServer;
        for (const auto server : stageServers)
            rails = std::min(rails, std::max(1, network.nicCount(server)));
        // Each GPU's shard after the local combine, split over the rails its server has.
        const double perGpu = gradientBytes / membersPerServer;
        const double perRail = perGpu * gpusPerServer / rails;
        const auto step = simulateRings(network, rings, rails, perRail / serversPerGroup, stop);
        seconds += 2.0 * (serversPerGroup - 1) * step.seconds;
    }
    return seconds * volumeFactor;
}

} // namespace

std::string_view toString(Parallelism parallelism) {
    switch (parallelism) {
    case Parallelism::Data:
        return "data";
    case Parallelism::Tensor:
        return "tensor";
    case Parallelism::Pipeline:
        return "pipeline";
    case Parallelism::Expert:
        return "expert";
    }
    return "?";
}

StepTime estimateStep(const FabricNetwork& network, const model::Workload& w,
                      std::stop_token stop) {
    const auto& topology = network.topology();
    const auto& servers = network.servers();
    if (servers.empty())
        throw std::invalid_argument("the design has no servers to train on");
    const int gpusPerServer = topology.node(servers.front()).server.gpus;
    for (const auto server : servers)
        if (topology.node(server).server.gpus != gpusPerServer)
            throw std::invalid_argument(
                "step time needs every server to have the same number of GPUs");
    const long long gpus = static_cast<long long>(servers.size()) * gpusPerServer;
    if (w.gpus() != gpus)
        throw std::invalid_argument("tp x pp x dp = " + std::to_string(w.gpus()) +
                                    " does not match the " + std::to_string(gpus) + " GPUs");
    if (w.tp > gpusPerServer && w.tp % gpusPerServer != 0)
        throw std::invalid_argument("tp " + std::to_string(w.tp) + " must be a multiple of the " +
                                    std::to_string(gpusPerServer) +
                                    " GPUs of a server when it spans servers");
    if (w.tp < gpusPerServer && gpusPerServer % w.tp != 0)
        throw std::invalid_argument("tp " + std::to_string(w.tp) + " must divide the " +
                                    std::to_string(gpusPerServer) + " GPUs of a server");

    const auto& model = w.model.spec;
    const auto& gpu = w.gpu.spec;
    StepTime t;
    const bool fp8 = w.precision == model::Precision::Fp8;
    t.mfu = w.mfu.value_or(fp8 ? gpu.defaultMfuFp8 : gpu.defaultMfuBf16);
    const double peak = (fp8 ? gpu.fp8Tflops : gpu.bf16Tflops) * 1e12;
    const double tokens = static_cast<double>(w.globalBatchTokens);
    const double flops = 6 * model.activeParamsB * 1e9 * tokens;
    // Published MFU figures are end to end: they already include pipeline bubbles and
    // kernel inefficiency, so nothing is added on top here.
    t.computeSeconds = flops / (static_cast<double>(gpus) * peak * t.mfu);
    const double tokensPerReplica = tokens / w.dp;

    const double scaleUpBps = gpu.scaleUpGBps * gpu.scaleUpEfficiency * 1e9;
    const double nicBps = network.nicGoodputGbps({servers.front(), 0}) * 1e9 / 8;
    // GPUs share NICs when a server has fewer NICs than GPUs.
    const double nicsPerGpu =
        std::min(1.0, static_cast<double>(network.nicCount(servers.front())) / gpusPerServer);
    const int stageServers = static_cast<int>(std::max<long long>(1, gpus / w.pp / gpusPerServer));
    const std::vector<model::NodeId> firstStage(servers.begin(), servers.begin() + stageServers);

    const double gradientBytes = model.paramsB * 1e9 / (w.tp * w.pp) * kBytesPerValue;
    t.dpSeconds = dataParallelSeconds(network, w, gradientBytes, firstStage, gpusPerServer, stop);

    const double layersPerStage = static_cast<double>(model.layers) / w.pp;
    const double activationBytes = tokensPerReplica * model.hiddenSize * kBytesPerValue;
    if (w.tp > 1) {
        // Megatron: two all-reduces per layer forward, two backward, on the activations.
        const double perRank = 4 * layersPerStage * activationBytes * 2.0 * (w.tp - 1) / w.tp;
        const double bandwidth = w.tp <= gpusPerServer ? scaleUpBps : nicBps * nicsPerGpu;
        t.tpSeconds = perRank / bandwidth +
                      4 * layersPerStage * 2 * (w.tp - 1) * gpu.scaleUpStepLatencyUs * 1e-6;
    }
    if (w.pp > 1) {
        // Activations forward and gradients backward across each stage boundary, each
        // GPU carrying its tensor-parallel slice over its own NIC.
        t.ppSeconds = 2 * activationBytes / w.tp / (nicBps * nicsPerGpu);
    }
    if (w.ep > 1 && model.experts > 1) {
        // Dispatch and combine, forward and backward, in every layer of the stage.
        const int span = std::max(1, w.ep * w.tp / gpusPerServer);
        CollectiveGroup group{
            std::vector<model::NodeId>(servers.begin(),
                                       servers.begin() +
                                           std::min<int>(span, static_cast<int>(servers.size()))),
            std::max(1, w.ep / span), gpu};
        const double bytes =
            tokensPerReplica / w.tp * model.hiddenSize * kBytesPerValue * model.expertsPerToken;
        const model::CollectiveSpec spec{model::CollectiveOp::AllToAll,
                                         static_cast<long long>(std::max(1.0, bytes)),
                                         model::CollectiveAlgorithm::Auto};
        t.epSeconds = group.ranks() > 1
                          ? 4 * layersPerStage * runCollective(network, group, spec, stop).seconds
                          : 0;
    }

    // Tensor parallelism inside the scale-up domain is part of how MFU is measured (Llama 3's
    // 38-43% ran TP on NVLink), so only traffic that crosses the fabric counts as
    // communication here and is exposed on top; tpSeconds still reports the scale-up time.
    const double tpOnFabric = w.tp > gpusPerServer ? t.tpSeconds : 0.0;
    t.commSeconds = t.dpSeconds + tpOnFabric + t.ppSeconds + t.epSeconds;
    const auto set = [&](Parallelism p, double seconds, double exposed, bool onFabric) {
        t.parts[static_cast<std::size_t>(p)] = CommPart{seconds, exposed, onFabric};
    };
    set(Parallelism::Data, t.dpSeconds, t.dpSeconds * (1 - w.overlap), t.dpSeconds > 0);
    set(Parallelism::Tensor, t.tpSeconds, tpOnFabric, tpOnFabric > 0);
    set(Parallelism::Pipeline, t.ppSeconds, t.ppSeconds, t.ppSeconds > 0);
    set(Parallelism::Expert, t.epSeconds, t.epSeconds * (1 - w.overlap), t.epSeconds > 0);
    // The parts' sum, in the order the reports have always added it.
    t.exposedCommSeconds = (t.dpSeconds + t.epSeconds) * (1 - w.overlap) + tpOnFabric + t.ppSeconds;
    t.stepSeconds = t.computeSeconds + t.exposedCommSeconds;
    t.commToCompute = t.commSeconds / t.computeSeconds;
    t.tokensPerSecond = tokens / t.stepSeconds;
    return t;
}

} // namespace fabriclab::sim
