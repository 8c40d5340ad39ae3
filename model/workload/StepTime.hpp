// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Workload.hpp"
#include "model/sim/FabricNetwork.hpp"

#include <stop_token>

namespace fabriclab::sim {

/// One optimizer step of a training job on a fabric, and what it adds up to.
struct StepTime {
    double computeSeconds = 0;      ///< FLOPs / (GPUs x peak x MFU), plus the pipeline bubble
    double dpSeconds = 0;           ///< data-parallel gradient exchange across the fabric
    double tpSeconds = 0;           ///< tensor-parallel all-reduces (scale-up domain)
    double ppSeconds = 0;           ///< pipeline activations between stages
    double epSeconds = 0;           ///< expert-parallel all-to-alls
    double commSeconds = 0;         ///< all of the above communication
    double exposedCommSeconds = 0;  ///< what overlap does not hide
    double stepSeconds = 0;         ///< compute + exposed communication
    double commToCompute = 0;       ///< commSeconds / computeSeconds: the fabric decision metric
    double tokensPerSecond = 0;
    double mfu = 0;                 ///< the MFU used
};

/// Places ranks as Megatron does (tensor parallel fastest, then data, then pipeline), so
/// data-parallel rings run on rails across servers, and times each kind of traffic on
/// the fabric with the flow simulator. Overlap hides that share of data- and
/// expert-parallel traffic behind backward compute; tensor- and pipeline-parallel traffic
/// sits on the critical path. Throws std::invalid_argument when the split does not fit.
StepTime estimateStep(const FabricNetwork& network, const model::Workload& workload, std::stop_token stop = {});

} // namespace fabriclab::sim
