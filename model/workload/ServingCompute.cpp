// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/workload/ServingCompute.hpp"

#include "model/workload/ComputeTime.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fabriclab::model {
namespace {

/// Activations travel between GPUs in BF16 whatever the weights' precision.
constexpr double kActivationBytes = 2;
/// The share of the memory left beside the weights a server gives the KV cache, the rest
/// going to activations and the CUDA context: TensorRT-LLM's default
/// (KvCacheConfig.free_gpu_memory_fraction 0.9).
constexpr double kKvShareOfFreeMemory = 0.9;
/// The most requests a replica batches when left to choose: TensorRT-LLM's default
/// max_batch_size.
constexpr double kMaxBatch = 2048;
/// Elementwise traffic a layer makes per token and hidden unit in a forward pass: one of the
/// three passes over the 34 bytes a training step makes (ComputeTime's kElementwiseBytes).
constexpr double kForwardElementwiseBytes = 34;

void require(bool condition, const char* what) {
    if (!condition)
        throw std::invalid_argument(std::string("serving: ") + what);
}

} // namespace

double bytesPerServedValue(const ServingWorkload& w) {
    return w.precision == Precision::Fp8 ? 1.0 : 2.0;
}

ServingCompute servingCompute(const ServingWorkload& w, const ServingCollectives& collectives) {
    const ModelSpec& model = w.model.spec;
    const GpuSpec& gpu = w.gpu.spec;
    require(model.layers > 0 && model.hiddenSize > 0 && model.paramsB > 0,
            "the model has no layers, width or parameters");
    require(w.tp >= 1 && w.ep >= 1, "tensor and expert parallel degrees must be at least 1");
    require(w.ep == 1 || w.ep % w.tp == 0 || w.tp % w.ep == 0,
            "expert parallelism must be a multiple or a divisor of tensor parallelism");
    require(w.inputTokens >= 1 && w.outputTokens >= 1, "prompt and output need a token each");
    require(!w.batch || *w.batch >= 1, "a replica decodes at least one request");

    const bool fp8 = w.precision == Precision::Fp8;
    const double valueBytes = bytesPerServedValue(w);
    const double gemmPeak = (fp8 ? gpu.fp8Tflops : gpu.bf16Tflops) * 1e12 *
                            (fp8 ? gpu.gemmEfficiencyFp8 : gpu.gemmEfficiencyBf16);
    const double attentionPeak = gpu.bf16Tflops * 1e12 * gpu.attentionEfficiency;
    const double hbm = gpu.hbmTBps * 1e12 * gpu.memoryEfficiency;
    const double gpus = static_cast<double>(w.gpusPerReplica());
    const double tp = w.tp;
    // Attention runs data parallel over the replica's groups of tp GPUs; each group holds
    // the dense weights, split tp ways, and its share of the batch.
    const double attentionGroups = gpus / tp;
    const double layers = model.layers;
    const double h = model.hiddenSize;

    const double total = model.paramsB * 1e9;
    const double active = std::clamp(model.activeParamsB * 1e9, 0.0, total);
    const double routed = model.routedExpertParams();
    const double activeRouted =
        model.experts > 1 ? routed * model.expertsPerToken / model.experts : 0.0;
    // Weights that run as products for every token: all active ones but the input
    // embedding, a lookup.
    const double denseActive = std::max(0.0, active - activeRouted - model.inputEmbeddingParams());

    const auto allReduce = [&](double bytes) {
        if (w.tp <= 1)
            return 0.0;
        return collectives.tensorParallelAllReduce ? collectives.tensorParallelAllReduce(bytes)
                                                   : scaleUpAllReduceSeconds(gpu, bytes, w.tp);
    };

    ServingCompute c;
    c.hbm = gpu.hbmGB * 1e9;
    c.weightBytesPerGpu = ((total - routed) / tp + routed / gpus) * valueBytes;
    c.kvShards =
        model.kvLatentWidth > 0
            ? 1
            : std::max(1, std::min(w.tp, model.kvHeads > 0 ? model.kvHeads
                                                           : std::max(1, model.attentionHeads)));
    c.kvBytesPerToken = layers * model.kvCacheValuesPerLayer() * valueBytes;
    const double fullLength = static_cast<double>(w.inputTokens) + w.outputTokens;
    const double kvPerRequestPerGpu = fullLength * c.kvBytesPerToken / c.kvShards;
    if (w.batch) {
        c.batch = *w.batch;
    } else {
        // What the memory left after the weights holds at full length, per group of tp GPUs.
        const double budget = kKvShareOfFreeMemory * (c.hbm - c.weightBytesPerGpu);
        const double perGroup = budget > 0 ? std::floor(budget / kvPerRequestPerGpu) : 0;
        c.batch = static_cast<int>(std::clamp(perGroup * attentionGroups, 1.0, kMaxBatch));
        c.batchFromMemory = true;
    }
    const double requestsPerGroup = c.batch / attentionGroups;
    c.kvBytesPerGpu = requestsPerGroup * kvPerRequestPerGpu;
    c.memoryPerGpu = c.weightBytesPerGpu + c.kvBytesPerGpu;
    c.fits = c.memoryPerGpu <= c.hbm;

    // The products with weights for `tokens` tokens passing together, spread over the
    // replica: the dense ones with each attention group's tokens as their rows, the routed
    // experts with the tokens every expert gathers from the whole replica.
    const auto products = [&](double tokens) {
        const double rows = tokens / attentionGroups;
        const double expertRows =
            std::max(1.0, tokens * model.expertsPerToken / std::max(1, model.experts));
        return (2 * denseActive * tokens / (gemmPeak * gemmShapeFactor(rows, h, h / tp)) +
                2 * activeRouted * tokens /
                    (gemmPeak * gpu.expertEfficiency * gemmShapeFactor(expertRows, h, h))) /
               gpus;
    };

    // Prefill of one prompt: the products, and the causal attention core (half of 4 x
    // layers x query width x prompt^2).
    const double prompt = w.inputTokens;
    const double width = model.attentionWidth();
    const double attentionShape = gemmShapeFactor(
        prompt, prompt, model.attentionHeads > 0 ? width / model.attentionHeads : 128.0);
    const double promptAttention =
        2 * layers * width * prompt * prompt / (attentionPeak * attentionShape) / gpus;
    c.prefillMathSeconds = products(prompt) + promptAttention;
    const double elementwise = kForwardElementwiseBytes * h / tp * prompt * layers / hbm;
    c.prefillMemorySeconds = c.weightBytesPerGpu / hbm + elementwise;
    c.prefillTensorParallelSeconds = 2 * layers * allReduce(prompt * h * kActivationBytes);
    const double passOverhead = layers * gpu.layerOverheadUs * 1e-6;
    c.prefillSeconds = std::max(c.prefillMathSeconds, c.weightBytesPerGpu / hbm) + elementwise +
                       c.prefillTensorParallelSeconds + passOverhead;

    // One decode step of the whole batch: one token per request, each query against its
    // request's cached keys (4 x layers x query width x context FLOPs; the keys are read
    // from HBM too, decodeKvSeconds).
    const double tokens = c.batch;
    const double groupTokens = requestsPerGroup;
    const double meanContext = prompt + w.outputTokens / 2.0;
    const double decodeAttention = 4 * layers * width * meanContext * tokens / attentionPeak / gpus;
    c.decodeMathSeconds = products(tokens) + decodeAttention;
    // The experts the batch's tokens choose, each read once: of E, each token picking k,
    // E x (1 - (1 - k/E)^tokens) are chosen on average.
    double touchedRouted = 0;
    if (model.experts > 1) {
        const double pick = static_cast<double>(model.expertsPerToken) / model.experts;
        touchedRouted = routed * (1 - std::pow(1 - pick, tokens));
    }
    c.decodeWeightSeconds = ((total - routed) / tp + touchedRouted / gpus) * valueBytes / hbm;
    c.decodeKvSeconds = groupTokens * meanContext * c.kvBytesPerToken / c.kvShards /
                        (gpu.hbmTBps * 1e12 * gpu.kvReadEfficiency);
    c.decodeTensorParallelSeconds = 2 * layers * allReduce(groupTokens * h * kActivationBytes);
    if (model.experts > 1 && w.ep > 1) {
        if (collectives.expertSecondsPerLayer > 0) {
            c.decodeExpertSeconds = layers * collectives.expertSecondsPerLayer;
        } else {
            // Dispatch and combine on the scale-up network: each GPU sends its tokens'
            // hidden states to the k experts' GPUs, (ep-1)/ep of them elsewhere, and back.
            const double sent = 2 * groupTokens / w.tp * model.expertsPerToken * h *
                                kActivationBytes * (w.ep - 1.0) / w.ep;
            c.decodeExpertSeconds =
                layers * (sent / (gpu.scaleUpGBps * 1e9 * gpu.scaleUpEfficiency) +
                          2 * gpu.scaleUpStepLatencyUs * 1e-6);
        }
    }
    const double memoryBound = c.decodeWeightSeconds + c.decodeKvSeconds;
    c.decodeStepSeconds = std::max(c.decodeMathSeconds, memoryBound) +
                          c.decodeTensorParallelSeconds + c.decodeExpertSeconds + passOverhead;
    // Sharing the replica, every step also prefills the prompts of the requests that take the
    // place of those finishing, batch / output tokens of them: their tokens are rows of the
    // same products and all-reduces as the decoding tokens', over weights the step reads
    // anyway.
    const double prompts = c.batch / static_cast<double>(w.outputTokens);
    const double colocatedMath =
        products(tokens + prompts * prompt) + decodeAttention + prompts * promptAttention;
    const double colocatedRows = groupTokens + prompts * prompt / attentionGroups;
    c.colocatedStepSeconds = std::max(colocatedMath, memoryBound) +
                             2 * layers * allReduce(colocatedRows * h * kActivationBytes) +
                             c.decodeExpertSeconds + prompts * elementwise + passOverhead;
    return c;
}

} // namespace fabriclab::model
