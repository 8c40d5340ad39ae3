// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/ServingWorkload.hpp"

#include <functional>

namespace fabriclab::model {

/// What one replica spends serving, worked out from the GPU as the training step's compute
/// is (ComputeTime): matrix products at the precision's peak x the catalog's fitted GEMM
/// efficiency x the product's shape, memory traffic at HBM bandwidth x its efficiency.
struct ServingCompute {
    // Prefill: one request's prompt, bound by math.
    double prefillMathSeconds = 0;   ///< products and the attention core
    double prefillMemorySeconds = 0; ///< reading the weights once, and the elementwise passes
    double prefillTensorParallelSeconds = 0;
    double prefillSeconds = 0; ///< max(math, weights) + elementwise + tensor parallel
    // Decode: one step of the whole batch, bound by HBM.
    double decodeMathSeconds = 0;
    double decodeWeightSeconds = 0; ///< the weights the step touches, read from HBM
    double decodeKvSeconds = 0;     ///< the batch's KV cache, read from HBM
    double decodeTensorParallelSeconds = 0;
    double decodeExpertSeconds = 0; ///< expert dispatch and combine inside the replica
    double decodeStepSeconds = 0;   ///< max(math, weights + KV) + the collectives
    /// A decode step of a replica that also prefills: batch / output tokens prompts join
    /// each step (continuous batching), their math added to the step's, their weights not.
    double colocatedStepSeconds = 0;
    // Memory.
    int batch = 0; ///< requests decoded together: the workload's, or the most that fit
    bool batchFromMemory = false; ///< the workload gave none: as many as the KV budget holds
    double kvBytesPerToken = 0;   ///< the whole model's KV cache for one token
    double weightBytesPerGpu = 0; ///< what each GPU of the replica holds
    double kvBytesPerGpu = 0;     ///< the batch's KV cache at full length, per GPU
    double memoryPerGpu = 0;      ///< weights + KV cache
    double hbm = 0;               ///< the GPU's memory
    bool fits = false;            ///< weights + KV cache within the 90% of HBM a server gives them
    /// GPUs that hold distinct parts of a request's KV cache: key/value heads split over
    /// tensor parallelism (up to the heads there are); multi-latent attention's one latent
    /// is whole on each GPU.
    int kvShards = 1;
};

/// Bytes a value of the workload's precision takes: 2 for BF16, 1 for FP8.
double bytesPerServedValue(const ServingWorkload& workload);

/// The collectives a replica runs, timed by the caller on the design's servers
/// (model::estimateServing runs NCCL's model for them); unset, servingCompute works them out
/// on the scale-up network with the training step's ring formula (scaleUpAllReduceSeconds).
struct ServingCollectives {
    /// One tensor-parallel all-reduce of so many bytes over the replica's tp GPUs.
    std::function<double(double bytes)> tensorParallelAllReduce;
    /// Expert dispatch and combine of one decode layer when the replica spans servers.
    double expertSecondsPerLayer = 0;
};

/// The replica's prefill and decode from the hardware. Prefill: 2 FLOPs per active weight
/// and token, the causal attention core 2 x layers x query width x prompt^2; decode: the
/// weights its tokens touch (a routed expert is read once however many tokens chose it) and
/// the batch's KV cache at its mean length, prompt + half the output. Tensor parallelism pays
/// two all-reduces a layer. Throws std::invalid_argument when the workload cannot be served
/// as split (degrees, lengths, a model without layers).
ServingCompute servingCompute(const ServingWorkload& workload,
                              const ServingCollectives& collectives = {});

} // namespace fabriclab::model
