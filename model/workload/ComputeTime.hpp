// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Workload.hpp"

namespace fabriclab::model {

/// One training step's work on one GPU, worked out from the hardware rather than from an
/// MFU: what each kind of kernel takes at the share of peak the GPU's catalog entry gives
/// it (GpuSpec::gemmEfficiency*, attentionEfficiency, memoryEfficiency).
struct ComputeTime {
    double gemmSeconds = 0;           ///< matrix products with weights, at the workload's precision
    double attentionSeconds = 0;      ///< the attention core (flash attention, BF16, causal)
    double elementwiseSeconds = 0;    ///< norms, activations, residuals: bound by HBM
    double recomputeSeconds = 0;      ///< the forward work recomputation runs again
    double tensorParallelSeconds = 0; ///< tensor-parallel collectives on scale-up not hidden
    double bubbleSeconds = 0;         ///< the pipeline's idle share
    double optimizerSeconds = 0;      ///< Adam's update of this GPU's shard: bound by HBM
    double seconds = 0;               ///< all of the above
    /// The matrix products' part of `seconds` at unit efficiency, pipeline bubble
    /// included, for the dense weights and for the routed experts': what the fitted GEMM
    /// and expert efficiencies divide (scripts/fit-compute-efficiency.py reads them).
    double gemmSecondsAtPeak = 0;
    double expertGemmSecondsAtPeak = 0;
};

/// The share of its efficiency an m x n x k matrix product reaches: it is full once each
/// dimension spans many of the tensor cores' tiles, and a dimension d gets d / (d + 128) of
/// it, so a product of 256 rows runs at two thirds of a large one's (and a decode step's
/// 8 rows at a sixteenth).
double gemmShapeFactor(double m, double n, double k);

/// One all-reduce of `bytes` over `ranks` GPUs on the scale-up network: a ring, 2(n-1)/n of
/// the bytes over each GPU's link at its efficiency and 2(n-1) steps of its latency.
double scaleUpAllReduceSeconds(const GpuSpec& gpu, double bytes, int ranks);

/// The step's compute on one GPU. Matrix products: 6 FLOPs per active parameter and token
/// (forward and backward; the input embedding is a lookup), at the precision's peak. The
/// attention core: 6 x layers x query width x sequence FLOPs per token, half of the full
/// square as flash attention skips the masked half, at BF16 peak. Elementwise traffic:
/// about three passes over the 34 bytes a layer keeps per token and hidden unit (written
/// forward, read and written backward; Korthikanti et al. 2022). Recomputation: full
/// reruns the forward pass, selective the attention core. The pipeline bubble: (pp - 1) /
/// (vpp x micro-batches) of the per-micro-batch work, one sequence per micro-batch.
/// Optimizer: Adam reads 16 and writes 14 bytes for each parameter of this GPU's shard.
/// `tensorParallelScaleUpSeconds` is the step's tensor-parallel traffic on scale-up (the
/// step model times it); overlap hides the workload's share of it.
ComputeTime computeTime(const Workload& workload, double tensorParallelScaleUpSeconds);

} // namespace fabriclab::model
