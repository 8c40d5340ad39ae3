// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Workload.hpp"

#include <algorithm>
#include <optional>

namespace fabriclab::model {

/// A model served for inference on the design's GPUs: replicas of `gpusPerReplica()` GPUs
/// each, every replica decoding `batch` requests at once. Prefill (the prompt) and decode
/// (one token at a time) share each replica, or, disaggregated, run on servers of their own
/// and hand each request's KV cache over the fabric.
struct ServingWorkload {
    CatalogRef<ModelSpec> model;
    CatalogRef<GpuSpec> gpu;
    Precision precision = Precision::Bf16; ///< weights, and the KV cache with them
    int inputTokens = 1024;                ///< prompt tokens per request
    int outputTokens = 256;                ///< generated tokens per request
    /// Requests a replica decodes together; absent, as many as its memory holds at full
    /// length (servingCompute's KV budget), as a server left to choose its own batch does.
    std::optional<int> batch;
    int tp = 1; ///< tensor parallel inside a replica
    /// Expert parallel: a replica's routed experts spread over ep GPUs. Above tp, attention
    /// runs data parallel over ep / tp groups of the replica (as SGLang and vLLM serve
    /// DeepSeek), so the replica spans ep GPUs.
    int ep = 1;
    /// Prefill and decode on separate servers: the first `prefillServers` of the design's
    /// servers prefill, the rest decode, and each prompt's KV cache crosses the fabric.
    bool disaggregated = false;
    int prefillServers = 0;
    /// Requests per second offered to the whole cluster; absent, as many as it can serve.
    std::optional<double> requestRate;

    long long gpusPerReplica() const { return std::max(tp, ep); }

    friend bool operator==(const ServingWorkload&, const ServingWorkload&) = default;
};

} // namespace fabriclab::model
