// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Workload.hpp"
#include "model/sim/FabricNetwork.hpp"

#include <array>
#include <stop_token>
#include <string_view>

namespace fabriclab::sim {

enum class Parallelism { Data, Tensor, Pipeline, Expert };
inline constexpr int kParallelismCount = 4;

/// One kind of parallel traffic in a step: how long it runs and how much of that the
/// step waits on.
struct CommPart {
    double seconds = 0;        ///< time the traffic takes
    double exposedSeconds = 0; ///< of which the step waits on (not hidden behind compute)
    bool onFabric = false;     ///< crosses the fabric (false: scale-up only, inside MFU)
};

/// One optimizer step of a training job on a fabric, and what it adds up to.
struct StepTime {
    double computeSeconds = 0; ///< 6 x active params x tokens / (GPUs x peak x MFU)
    double dpSeconds = 0;      ///< data-parallel gradient exchange across the fabric
    double tpSeconds =
        0; ///< tensor-parallel all-reduces (scale-up, or fabric when TP spans servers)
    double ppSeconds = 0;          ///< pipeline activations between stages
    double epSeconds = 0;          ///< expert-parallel all-to-alls
    double commSeconds = 0;        ///< communication on the fabric (TP only when it spans servers)
    double exposedCommSeconds = 0; ///< what overlap does not hide
    double stepSeconds = 0;        ///< compute + exposed communication
    double commToCompute = 0;      ///< commSeconds / computeSeconds: the fabric decision metric
    double tokensPerSecond = 0;
    double mfu = 0; ///< the MFU used
    /// The same traffic by parallelism, indexed by Parallelism: exposed parts add up to
    /// exposedCommSeconds, fabric parts to commSeconds.
    std::array<CommPart, kParallelismCount> parts{};
    const CommPart& part(Parallelism p) const { return parts[static_cast<std::size_t>(p)]; }
};

std::string_view toString(Parallelism parallelism);

/// Places ranks as Megatron does (tensor parallel fastest, then data, then pipeline), so
/// data-parallel rings run on rails across servers, and times each kind of traffic on
/// the fabric with the flow simulator. MFU is taken as measured end to end on NVLink
/// tensor parallelism (as published figures are), so scale-up traffic is reported but
/// not added; fabric traffic is: overlap hides that share of data- and expert-parallel
/// traffic behind backward compute, while pipeline traffic and tensor parallelism that
/// spans servers sit on the critical path. Throws std::invalid_argument when the split
/// does not fit.
StepTime estimateStep(const FabricNetwork& network, const model::Workload& workload,
                      std::stop_token stop = {});

} // namespace fabriclab::sim
