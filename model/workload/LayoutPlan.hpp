// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Workload.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/workload/MemoryPerGpu.hpp"
#include "model/workload/StepTime.hpp"

#include <stop_token>
#include <vector>

namespace fabriclab::model {

/// One way to split a training job over the design's GPUs, with what it would take.
struct PlannedLayout {
    model::Workload workload; ///< the job with this split (no MFU: predicted)
    StepTime step;            ///< on the design's fabric
    model::MemoryPerGpu memory;
};

struct LayoutPlan {
    std::vector<PlannedLayout> ranked; ///< fastest step first
    int considered = 0;                ///< splits that use every GPU with whole micro-batches
    int fitting = 0;                   ///< of which fit in the GPUs' memory
};

/// Every split of `job` over the network's GPUs that fits in memory, ranked by predicted
/// step time on this fabric: tensor parallelism within a server (dividing the attention
/// heads), context parallelism up to 8, pipeline and interleaved stages up to one layer each
/// (stages may hold a layer more or less, as Megatron's uneven first and last stages do), expert
/// parallelism over data-parallel ranks for a mixture of experts, and enough micro-batches to fill
/// the pipeline. The job's model, GPU, batch, precision, ZeRO stage, recomputation and overlap are
/// kept; its MFU is dropped, so every split's compute is worked out from the hardware. Splits are
/// first ordered by that compute alone, then the best `4 x top` are timed on the fabric, of which
/// `top` are returned.
LayoutPlan planLayouts(const sim::FabricNetwork& network, const model::Workload& job, int top,
                       std::stop_token stop = {});

} // namespace fabriclab::model
