// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Workload.hpp"

#include <string>
#include <vector>

namespace fabriclab::model {

/// How a training framework keeps its state, in bytes per parameter. The defaults are
/// Megatron-LM's with bf16 parameters: gradients accumulated in fp32 ("main grads") and
/// Adam's fp32 master weights, momentum and variance (12 bytes), which its distributed
/// optimizer (ZeRO stage 1) shards over the data-parallel ranks.
struct StateBytes {
    double weights = 2;
    double gradients = 4;
    double optimizer = 12;
};

/// What one GPU holds while it trains, in bytes, on the GPU that holds the most: the first
/// pipeline stage, which keeps the most micro-batches' activations, or the last, which
/// keeps the logits.
struct MemoryPerGpu {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;
    /// The output layer's logits (fp32, split over tensor parallelism), when the GPU that
    /// holds the most is the last stage
    double logits = 0;
    double total = 0;
    double hbm = 0;    ///< the GPU's memory
    bool fits = false; ///< total <= hbm
    /// Parameters this GPU holds, before sharding by ZeRO stage 3.
    double parameters = 0;
    /// What the figure takes as given, in words, for the report.
    std::vector<std::string> assumptions;
};

/// Parameters one GPU holds before ZeRO shards them: the dense ones split over tensor and
/// pipeline parallelism, the routed experts' over expert parallelism too.
double parametersPerGpu(const Workload& workload);

/// Weights, gradients and optimizer state by ZeRO stage (1 shards the optimizer state over
/// the data-parallel ranks, 2 the gradients as well, 3 the weights too); activations per
/// Korthikanti et al. 2022 (34 bytes x sequence x hidden per layer and sequence, with
/// flash attention keeping no score matrices, divided by tensor parallelism with sequence
/// parallelism on and by context parallelism; full recomputation keeps each layer's
/// input only), for one sequence per micro-batch and the layers the first pipeline stage
/// holds in flight under 1F1B (all of them once; interleaving adds (pp-1)/(pp x vpp)).
/// Expert parameters are split over expert and tensor parallelism, the rest over tensor
/// and pipeline parallelism. Throws std::invalid_argument for a split that cannot be
/// (zero or negative degrees, a model without layers).
MemoryPerGpu memoryPerGpu(const Workload& workload, const StateBytes& bytes = {});

} // namespace fabriclab::model
