// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/workload/MemoryPerGpu.hpp"

#include <algorithm>
#include <stdexcept>

namespace fabriclab::model {
namespace {

/// Korthikanti et al. 2022, table 2: bytes a layer keeps per token and hidden unit with
/// tensor and sequence parallelism and no score matrices: 11 for attention (its input,
/// queries, keys, values, output and dropout mask), 19 for the MLP, 4 for the two
/// layer norms.
constexpr double kAttentionBytes = 11;
constexpr double kMlpBytes = 19;
constexpr double kNormBytes = 4;
/// Full recomputation keeps a layer's input (bf16) and nothing else.
constexpr double kCheckpointBytes = 2;
/// Logits are computed and kept in fp32 for the loss.
constexpr double kLogitBytes = 4;

void require(bool ok, const char* what) {
    if (!ok)
        throw std::invalid_argument(what);
}

} // namespace

double parametersPerGpu(const Workload& w) {
    const ModelSpec& model = w.model.spec;
    const double expertParams = model.routedExpertParams();
    const double shard = static_cast<double>(w.tp) * w.pp;
    return (model.paramsB * 1e9 - expertParams) / shard +
           expertParams / (shard * std::max(1, w.ep));
}

MemoryPerGpu memoryPerGpu(const Workload& workload, const StateBytes& bytes) {
    const ModelSpec& model = workload.model.spec;
    const Workload& w = workload;
    require(w.tp >= 1 && w.pp >= 1 && w.dp >= 1 && w.cp >= 1 && w.ep >= 1 && w.vpp >= 1,
            "memory per GPU: every parallel degree must be at least 1");
    require(model.layers > 0 && model.hiddenSize > 0 && model.paramsB > 0,
            "memory per GPU: the model has no layers, width or parameters");
    require(w.zero >= 0 && w.zero <= 3, "memory per GPU: the ZeRO stage must be 0 to 3");

    MemoryPerGpu m;
    m.parameters = parametersPerGpu(w);

    // ZeRO shards over the ranks that hold the same parameters: data parallelism, with
    // context parallelism (Megatron's distributed optimizer shards over both).
    const double shards = static_cast<double>(w.dp) * w.cp;
    m.weights = m.parameters * bytes.weights / (w.zero >= 3 ? shards : 1);
    m.gradients = m.parameters * bytes.gradients / (w.zero >= 2 ? shards : 1);
    m.optimizer = m.parameters * bytes.optimizer / (w.zero >= 1 ? shards : 1);

    const double tokens = static_cast<double>(w.sequenceLength()) / w.cp;
    const double hidden = model.hiddenSize;
    // A routed token passes through k experts' MLPs, each of which keeps its own.
    const double mlp = kMlpBytes * std::max(1, model.experts > 1 ? model.expertsPerToken : 1);
    const double perLayer = w.recompute == Recompute::Full
                                ? kCheckpointBytes * tokens * hidden / w.tp
                                : (kAttentionBytes + mlp + kNormBytes) * tokens * hidden / w.tp;
    // 1F1B: the first stage keeps pp micro-batches of its layers/pp layers; interleaving
    // adds the part of a round the other virtual stages start early.
    const double interleave =
        w.vpp > 1 ? 1 + static_cast<double>(w.pp - 1) / (static_cast<double>(w.pp) * w.vpp) : 1;
    const double working = // the layer being recomputed holds its whole set meanwhile
        w.recompute == Recompute::Full
            ? (kAttentionBytes + mlp + kNormBytes) * tokens * hidden / w.tp
            : 0;
    const double firstStage = perLayer * model.layers * interleave + working;
    // The last stage keeps one micro-batch of its layers, and the logits for the loss.
    const double logits = model.vocabSize > 0 ? kLogitBytes * tokens * model.vocabSize / w.tp : 0;
    const double lastStage = perLayer * model.layers / w.pp + working + logits;
    const bool lastHoldsMore = w.pp == 1 || lastStage > firstStage;
    m.activations = w.pp == 1 ? firstStage : (lastHoldsMore ? lastStage - logits : firstStage);
    m.logits = lastHoldsMore ? logits : 0;
    m.total = m.weights + m.gradients + m.optimizer + m.activations + m.logits;
    m.hbm = w.gpu.spec.hbmGB * 1e9;
    m.fits = m.total <= m.hbm;
    m.assumptions = {
        "memory: bf16 weights, fp32 gradients and Adam state (2 + 4 + 12 bytes a parameter), "
        "sharded by the ZeRO stage over data and context parallelism",
        "memory: activations for one sequence per micro-batch, flash attention (no score "
        "matrices) and sequence parallelism with tensor parallelism; the framework's own "
        "buffers and fragmentation are not counted"};
    return m;
}

} // namespace fabriclab::model
