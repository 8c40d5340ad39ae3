// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/GpuSpec.hpp"
#include "model/catalog/ModelSpec.hpp"
#include "model/design/CatalogRef.hpp"

#include <optional>
#include <string_view>

namespace fabriclab::model {

enum class Precision { Bf16, Fp8 };
std::string_view toString(Precision precision);

/// How model FLOPs count attention: every score (full, PaLM's 12 x layers x hidden x
/// sequence per token, as dgxc-benchmarking's recipes count) or only those a causal mask
/// keeps (half of it, as Megatron-Bridge's tables count). A published MFU is only
/// comparable with the count it was computed with.
enum class AttentionFlops { Full, Causal };
std::string_view toString(AttentionFlops count);
std::optional<AttentionFlops> attentionFlopsFromString(std::string_view text);

/// Activation recomputation: none, the attention core only (selective, Korthikanti et al.
/// 2022), or every layer's forward pass again in the backward pass (full).
enum class Recompute { None, Selective, Full };
std::string_view toString(Recompute recompute);
std::optional<Recompute> recomputeFromString(std::string_view text);

/// A training job and how it is split over the cluster.
struct Workload {
    CatalogRef<ModelSpec> model;
    CatalogRef<GpuSpec> gpu;
    long long globalBatchTokens = 4194304; ///< tokens per optimizer step, whole cluster
    int tp = 1;                            ///< tensor parallel (inside the scale-up domain)
    int cp = 1;                            ///< context parallel: the sequence split over GPUs
    int pp = 1;                            ///< pipeline stages
    int vpp = 1;                           ///< virtual pipeline stages per pipeline rank
    int dp = 1;                            ///< data-parallel replicas; tp x cp x pp x dp = GPUs
    int ep = 1;                            ///< expert parallel (carved out of data parallel)
    int zero = 0;                          ///< ZeRO stage 0-3 (3 = FSDP)
    Precision precision = Precision::Bf16;
    Recompute recompute = Recompute::None;
    std::optional<double>
        mfu; ///< measured end to end; absent, the compute is worked out from the hardware
    double overlap = 0; ///< share of communication hidden behind compute, 0-1
    /// Tokens per sample. Benchmarks often train at 4K or 8K where the model card states a
    /// longer context; the model's own context length when absent.
    std::optional<int> seqLen;
    AttentionFlops attentionFlops = AttentionFlops::Full;

    int sequenceLength() const { return seqLen.value_or(model.spec.seqLen); }

    /// GPUs one model replica spans (tp x cp x pp), and GPUs the whole split uses.
    long long gpusPerReplica() const { return static_cast<long long>(tp) * cp * pp; }
    long long gpus() const { return gpusPerReplica() * dp; }

    friend bool operator==(const Workload&, const Workload&) = default;
};

/// The same split on `gpus` GPUs, with data parallelism rescaled; nothing when the GPUs
/// are not a whole number of tp x pp replicas.
inline std::optional<Workload> rescaled(Workload workload, long long gpus) {
    const long long perReplica = workload.gpusPerReplica();
    if (gpus <= 0 || gpus % perReplica != 0 || gpus / perReplica > 0x7fffffff)
        return std::nullopt;
    workload.dp = static_cast<int>(gpus / perReplica);
    return workload;
}

} // namespace fabriclab::model
