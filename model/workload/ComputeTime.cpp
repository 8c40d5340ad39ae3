// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/workload/ComputeTime.hpp"

#include "model/workload/MemoryPerGpu.hpp"

#include <algorithm>
#include <stdexcept>

namespace fabriclab::model {
namespace {

/// Bytes of elementwise traffic per token, hidden unit and layer: three passes over the
/// 34 bytes a layer keeps (Korthikanti et al. 2022, table 2).
constexpr double kElementwiseBytes = 3 * 34;
/// Adam on a parameter: reads the fp32 master weight, momentum, variance and gradient (16
/// bytes), writes the first three and the bf16 weight (14 bytes).
constexpr double kOptimizerBytes = 30;
/// 128 is CUTLASS's and cuBLAS's usual tile edge.
constexpr double kTileEdge = 128;

double shape(double m, double n, double k) {
    return gemmShapeFactor(m, n, k);
}

/// The share of their efficiency a set of products reaches together: their FLOPs over the
/// sum of each one's FLOPs divided by its shape factor.
struct ProductMix {
    double flops = 0;
    double scaled = 0;
    void add(double weight, double m, double n, double k) {
        if (weight <= 0 || m <= 0 || n <= 0 || k <= 0)
            return;
        flops += weight;
        scaled += weight / shape(m, n, k);
    }
    double factor() const { return scaled > 0 ? flops / scaled : 1.0; }
};

} // namespace

double gemmShapeFactor(double m, double n, double k) {
    const auto edge = [](double d) { return d / (d + kTileEdge); };
    return edge(m) * edge(n) * edge(k);
}

double scaleUpAllReduceSeconds(const GpuSpec& gpu, double bytes, int ranks) {
    if (ranks <= 1)
        return 0;
    const double steps = 2.0 * (ranks - 1);
    return bytes * steps / ranks / (gpu.scaleUpGBps * 1e9 * gpu.scaleUpEfficiency) +
           steps * gpu.scaleUpStepLatencyUs * 1e-6;
}

ComputeTime computeTime(const Workload& w, double tensorParallelScaleUpSeconds) {
    const ModelSpec& model = w.model.spec;
    const GpuSpec& gpu = w.gpu.spec;
    if (model.layers <= 0 || model.hiddenSize <= 0 || w.gpus() <= 0 || w.dp <= 0)
        throw std::invalid_argument("compute time needs a model with layers and a split");
    const bool fp8 = w.precision == Precision::Fp8;
    const double bf16Peak = gpu.bf16Tflops * 1e12;
    const double gemmPeak = (fp8 ? gpu.fp8Tflops : gpu.bf16Tflops) * 1e12;
    const double gemmEfficiency = fp8 ? gpu.gemmEfficiencyFp8 : gpu.gemmEfficiencyBf16;
    const double hbm = gpu.hbmTBps * 1e12 * gpu.memoryEfficiency;
    const double gpus = static_cast<double>(w.gpus());
    const double tokens = static_cast<double>(w.globalBatchTokens);
    const double sequence = w.sequenceLength();

    // Work is spread evenly: each GPU does 1/gpus of the step's FLOPs. Routed experts'
    // products run at their own share of the dense ones' efficiency.
    const double total = model.paramsB * 1e9;
    const double active = std::clamp(model.activeParamsB * 1e9, 0.0, total);
    const double expertParams = model.routedExpertParams();
    const double activeExperts =
        model.experts > 1 ? expertParams * model.expertsPerToken / model.experts : 0.0;
    const double weights = std::max(0.0, active - model.inputEmbeddingParams());
    const double denseWeights = std::max(0.0, weights - activeExperts);
    const double gemmFlops = 6 * denseWeights * tokens / gpus;
    const double expertFlops = 6 * activeExperts * tokens / gpus;
    const double queryWidth = model.attentionWidth(); // heads x head dimension

    // The shapes each GPU multiplies, one sequence per micro-batch: rows are the sequence's
    // tokens on this context-parallel rank; tensor parallelism splits the other dimension.
    // The MLP's width comes from its parameters (three matrices of hidden x width).
    const double h = model.hiddenSize;
    const double rows = sequence / w.cp;
    const double keysAndValues = model.kvCacheValuesPerLayer();
    const double attentionParams = h * (queryWidth + keysAndValues) + queryWidth * h;
    const double outputParams = model.vocabSize > 0 ? static_cast<double>(model.vocabSize) * h : 0;
    const double mlpParams =
        std::max(8 * h * h, (denseWeights - outputParams) / model.layers - attentionParams);
    const double width = mlpParams / (3 * h);
    ProductMix dense;
    dense.add(h * (queryWidth + keysAndValues), rows, (queryWidth + keysAndValues) / w.tp, h);
    dense.add(queryWidth * h, rows, h, queryWidth / w.tp);
    dense.add(2 * h * width, rows, 2 * width / w.tp, h);
    dense.add(h * width, rows, h, width / w.tp);
    if (outputParams > 0)
        dense.add(outputParams / model.layers, rows, model.vocabSize / w.tp, h);
    ProductMix experts;
    if (activeExperts > 0) {
        // Each expert gathers its tokens from the expert-parallel ranks' micro-batches.
        const double expertWidth =
            expertParams / (static_cast<double>(model.layers) * model.experts) / (3 * h);
        const double expertRows = rows * w.ep * model.expertsPerToken / model.experts;
        experts.add(2 * h * expertWidth, expertRows, 2 * expertWidth / w.tp, h);
        experts.add(h * expertWidth, expertRows, h, expertWidth / w.tp);
    }
    // Flash attention multiplies each head's rows against the keys: sequence slice by
    // sequence slice, over the head dimension (128 when the catalog gives no heads).
    const double headDimension = model.attentionHeads > 0 ? queryWidth / model.attentionHeads : 128;
    const double attentionShape = shape(rows, rows, headDimension);
    const double attentionFlops = 6.0 * model.layers * queryWidth * sequence * tokens / gpus;
    // Each GPU streams its tensor-parallel slice of every token of its replica's share
    // through its stage's layers.
    const double tokensPerGpu = tokens / (static_cast<double>(w.dp) * w.cp);
    const double layersPerGpu = static_cast<double>(model.layers) / w.pp;
    const double elementwiseBytes =
        kElementwiseBytes * model.hiddenSize / w.tp * tokensPerGpu * layersPerGpu;

    ComputeTime c;
    const double denseAtPeak = gemmFlops / (gemmPeak * dense.factor());
    const double expertsAtPeak = expertFlops / (gemmPeak * experts.factor());
    c.gemmSeconds =
        denseAtPeak / gemmEfficiency + expertsAtPeak / (gemmEfficiency * gpu.expertEfficiency);
    c.attentionSeconds = attentionFlops / (bf16Peak * gpu.attentionEfficiency * attentionShape);
    c.elementwiseSeconds = elementwiseBytes / hbm;
    if (w.recompute == Recompute::Full)
        c.recomputeSeconds = (c.gemmSeconds + c.attentionSeconds + c.elementwiseSeconds) / 3;
    else if (w.recompute == Recompute::Selective)
        c.recomputeSeconds = c.attentionSeconds / 3;
    c.tensorParallelSeconds = tensorParallelScaleUpSeconds * (1 - std::clamp(w.overlap, 0.0, 1.0));
    const double microBatches = std::max(1.0, tokens / w.dp / sequence);
    const double bubble = (w.pp - 1) / (std::max(1, w.vpp) * microBatches);
    const double perMicroBatch = c.gemmSeconds + c.attentionSeconds + c.elementwiseSeconds +
                                 c.recomputeSeconds + c.tensorParallelSeconds;
    c.bubbleSeconds = perMicroBatch * bubble;

    // Adam updates this GPU's share of the parameters: its tensor and pipeline slice (and
    // expert shard), split again over data and context parallelism once ZeRO shards it.
    double parameters = parametersPerGpu(w);
    if (w.zero >= 1)
        parameters /= static_cast<double>(w.dp) * w.cp;
    c.optimizerSeconds = parameters * kOptimizerBytes / hbm;

    c.seconds = perMicroBatch + c.bubbleSeconds + c.optimizerSeconds;
    c.gemmSecondsAtPeak = denseAtPeak * (1 + bubble);
    c.expertGemmSecondsAtPeak = expertsAtPeak * (1 + bubble);
    return c;
}

} // namespace fabriclab::model
