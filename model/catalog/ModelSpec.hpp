// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

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

    friend bool operator==(const ModelSpec&, const ModelSpec&) = default;
};

} // namespace fabriclab::model
