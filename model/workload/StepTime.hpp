// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Workload.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/workload/ComputeTime.hpp"

#include <array>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

enum class Parallelism { Data, Tensor, Pipeline, Expert, Context };
inline constexpr int kParallelismCount = 5;

/// One kind of parallel traffic in a step: how long it runs and how much of that the
/// step waits on.
struct CommPart {
    double seconds = 0;        ///< time the traffic takes
    double exposedSeconds = 0; ///< of which the step waits on (not hidden behind compute)
    bool onFabric = false;     ///< crosses the fabric (false: scale-up only, inside MFU)
    /// The same traffic on the ideal fabric for these servers (IdealNetwork): what an end to
    /// end MFU already holds. Only the time beyond it can be exposed. 0 off the fabric.
    double idealSeconds = 0;
    /// The rest: time beyond the ideal fabric that overlap hides behind compute.
    double hiddenSeconds = 0;
};

/// One optimizer step of a training job on a fabric, and what it adds up to.
struct StepTime {
    /// Model FLOPs (6 x active params less the input embedding, + 12 x layers x hidden x
    /// sequence for attention, half that counted causally; per token) x tokens / (GPUs x
    /// peak x MFU).
    double computeSeconds = 0;
    double modelFlopsPerToken = 0;    ///< what MFU counts
    double hardwareFlopsPerToken = 0; ///< with recomputation: what the GPUs execute
    double hfu = 0;                   ///< hardware FLOPs utilization: MFU x hardware / model
    /// Idle share of a pipeline: (pp - 1) / (vpp x micro-batches), one sequence per
    /// micro-batch. Published MFU already includes it, so it is reported, not added.
    double bubbleFraction = 0;
    double dpBytesPerGpu = 0; ///< gradient bytes each GPU reduces: dense, plus its EP shard
    double cpSeconds = 0;     ///< context-parallel key/value exchange
    double dpSeconds = 0;     ///< data-parallel gradient exchange across the fabric
    double tpSeconds =
        0; ///< tensor-parallel all-reduces (scale-up, or fabric when TP spans servers)
    double ppSeconds = 0;        ///< pipeline activations between stages
    double epSeconds = 0;        ///< expert-parallel all-to-alls
    double epBytesPerGpu = 0;    ///< what each GPU sends in one expert all-to-all
    double commSeconds = 0;      ///< communication on the fabric (TP only when it spans servers)
    double idealCommSeconds = 0; ///< the same on the ideal fabric: held in the MFU
    /// What this fabric adds to the step: its traffic's time beyond the ideal fabric's,
    /// less what overlap hides.
    double exposedCommSeconds = 0;
    /// What the step spends before the fabric's excess: compute at the MFU or, when
    /// communicationBound, the traffic the step would wait on over the ideal fabric.
    double busySeconds = 0;
    double stepSeconds = 0; ///< busySeconds + exposedCommSeconds
    /// The traffic the step would wait on even on the ideal fabric takes longer than the
    /// compute the MFU implies: the MFU cannot hold it, so communication sets the step.
    bool communicationBound = false;
    double commToCompute = 0; ///< commSeconds / computeSeconds: the fabric decision metric
    double tokensPerSecond = 0;
    double mfu = 0; ///< the MFU used: as given, or what the hardware model predicts
    /// When the workload gives no MFU: the compute worked out from the hardware, whose
    /// time (with the ideal fabric's waits) sets computeSeconds and with it the MFU.
    std::optional<model::ComputeTime> compute;
    bool mfuPredicted() const { return compute.has_value(); }
    /// The same traffic by parallelism, indexed by Parallelism: exposed parts add up to
    /// exposedCommSeconds, fabric parts to commSeconds.
    std::array<CommPart, kParallelismCount> parts{};
    const CommPart& part(Parallelism p) const { return parts[static_cast<std::size_t>(p)]; }
    /// What the figures take as given rather than simulate, in words, for the report.
    std::vector<std::string> assumptions;
};

std::string_view toString(Parallelism parallelism);

/// The step's tensor-parallel all-reduces (four a layer, on the activations) inside the
/// scale-up domain: what the compute worked out from the hardware pays for them before
/// overlap, whatever fabric the step runs on.
double tensorParallelOnScaleUpSeconds(const model::Workload& workload);

/// Places ranks as Megatron does (tensor parallel fastest, then data, then pipeline), so
/// data-parallel rings run on rails across servers, and times each kind of traffic on
/// the fabric with the flow simulator. MFU is taken as measured end to end on NVLink
/// tensor parallelism and a near-ideal fabric (as published figures are), so scale-up
/// traffic is reported but not added, and fabric traffic adds only its time beyond the
/// same traffic on the ideal fabric for these servers (IdealNetwork). Of that excess,
/// overlap hides its share of data-, expert- and context-parallel traffic behind compute,
/// while pipeline traffic and tensor parallelism that spans servers sit on the critical
/// path. Throws std::invalid_argument when the split does not fit.
StepTime estimateStep(const sim::FabricNetwork& network, const model::Workload& workload,
                      std::stop_token stop = {});

} // namespace fabriclab::model
