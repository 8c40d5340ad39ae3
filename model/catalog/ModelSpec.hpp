// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <string>

namespace fabriclab::model {

/// Size and shape of a model to train; enough to count FLOPs and communication volume.
struct ModelSpec {
    std::string id;
    std::string name;
    double paramsB = 0;       ///< total parameters, billions
    double activeParamsB = 0; ///< parameters used per token (MoE), billions
    int layers = 0;
    int hiddenSize = 0;
    int seqLen = 0;
    int experts = 1;
    int expertsPerToken = 1;
    /// Attention heads and key/value heads: grouped-query attention carries keys and values
    /// for kvHeads of the heads only. 0 when the catalog does not say (no saving assumed).
    int attentionHeads = 0;
    int kvHeads = 0;
    /// Width of one head. Most models use hidden size / heads, but not all (Qwen3 and
    /// Gemma run heads x head dimension wider than the hidden size); 0 when that rule holds.
    int headDim = 0;
    /// Values a layer caches per token for attention when it is not keys and values per
    /// key/value head: multi-latent attention (DeepSeek-V2/V3) caches one compressed latent
    /// and its rotary key, 512 + 64. 0 for ordinary (grouped-query) attention.
    int kvLatentWidth = 0;

    /// Vocabulary size, and whether the output layer reuses the input embedding. The input
    /// embedding is a table lookup, not a matrix product, so its parameters cost no FLOPs;
    /// vocabSize 0 when the catalog does not say (nothing is taken off).
    int vocabSize = 0;
    bool tiedEmbeddings = false;
    /// Parameters of the input embedding that 6 x parameters would count as FLOPs: none
    /// when tied (the matrix is the output layer's, which does run as a product).
    double inputEmbeddingParams() const {
        return tiedEmbeddings ? 0.0 : static_cast<double>(vocabSize) * hiddenSize;
    }
    /// Parameters of all the routed experts: total = dense + experts and active = dense +
    /// experts x k / E. 0 for a dense model.
    double routedExpertParams() const {
        if (experts <= 1 || expertsPerToken >= experts)
            return 0;
        const double total = paramsB * 1e9;
        const double active = std::clamp(activeParamsB * 1e9, 0.0, total);
        return std::clamp((total - active) / (1 - static_cast<double>(expertsPerToken) / experts),
                          0.0, total);
    }
    /// The query's width, heads x head dimension: what the attention core multiplies.
    double attentionWidth() const {
        return attentionHeads > 0 && headDim > 0 ? static_cast<double>(attentionHeads) * headDim
                                                 : static_cast<double>(hiddenSize);
    }
    /// Values one layer keeps in its KV cache per token: 2 x key/value heads x head width,
    /// or the latent of multi-latent attention.
    double kvCacheValuesPerLayer() const {
        if (kvLatentWidth > 0)
            return kvLatentWidth;
        return 2 * attentionWidth() * kvShare();
    }
    /// The share of 2 x hidden values per token that keys and values take.
    double kvShare() const {
        return attentionHeads > 0 && kvHeads > 0 ? static_cast<double>(kvHeads) / attentionHeads
                                                 : 1.0;
    }

    friend bool operator==(const ModelSpec&, const ModelSpec&) = default;
};

} // namespace fabriclab::model
