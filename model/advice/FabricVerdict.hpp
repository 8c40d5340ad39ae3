// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace fabriclab::model {

/// One fabric's figures in a comparison of the same design (inputs to the verdict).
/// Non-finite or negative figures are read as 0, so a bad input cannot put NaN in a sentence.
struct FabricOutcome {
    std::string fabricId;     ///< catalog id, e.g. "ib-ndr"
    std::string fabricName;   ///< for people
    int gpus = 0;             ///< GPUs in the design (the same for every outcome)
    double stepSeconds = 0;   ///< training step time, s; 0 when the design has no workload
    double commToCompute = 0; ///< fabric communication / compute time of a step (0.25 = 25%)
    double busBwGBps = 0;     ///< the design's collective, GB/s as nccl-tests
    double capexUsd = 0;      ///< fabric capex, USD
    double perGpuHourUsd = 0; ///< fabric capex amortized per GPU-hour, USD
    double trainGpuHours = 0; ///< GPU-hours to train the token budget; 0 without workload
    double trainCostUsd = 0;  ///< cost to train the token budget, USD
};

/// Which fabric to pick and why, in sentences computed from the outcomes.
struct FabricVerdict {
    std::string recommendedId; ///< empty when there is nothing to compare
    /// What every other fabric is weighed against: the cheapest (ties: with a workload
    /// the one that trains faster, without one the higher bus bandwidth, then the first
    /// listed). Empty when there is nothing to compare.
    std::string baselineId;
    std::string headline;             ///< one sentence: which fabric
    std::vector<std::string> reasons; ///< short sentences with the numbers behind it
    double premiumUsd = 0; ///< recommended fabric's capex over the cheapest fabric's, USD
    /// GPU-hour savings over the token budget against the cheapest fabric
    /// (GPU-hours saved x $/GPU-hour), USD; 0 when the cheapest is recommended or without workload
    double savedUsd = 0;
    int scaleTier = 0; ///< 0: <=128 GPUs, 1: 129-1,024, 2: >1,024 (article 001's TCO tiers)
    /// The faster fabric weighed against the cheapest: the recommended one when it pays back,
    /// else the one that comes closest. Empty without workload or when none trains faster.
    std::string challengerId;
    /// $/GPU-hour at which the challenger's saved GPU-hours exactly pay its capex premium;
    /// 0 without a challenger.
    double breakEvenGpuHourUsd = 0;
};

/// The verdict on a side-by-side comparison of fabrics for one design.
///
/// With a workload (every outcome has a step time and training GPU-hours) the cheapest
/// fabric (ties: the one that trains faster, then the first listed) is the baseline.
/// Each faster fabric saves (baseline GPU-hours - its GPU-hours) x `gpuHourUsd` over the
/// token budget against a premium of (its capex - the baseline's). The faster fabric with
/// the largest saving net of premium is recommended when that net is strictly positive,
/// unless communication is under ~10% of compute on the baseline: then the fabric barely
/// moves the step time and the baseline stands. Without a workload the verdict falls back
/// to the lowest capex per GB/s of bus bandwidth. Every verdict names the scale tier.
///
/// `gpuHourUsd`: what one GPU-hour costs (rental incl. network) for the GPU-hour math, USD.
/// Pure function of its inputs; safe to call from any thread.
FabricVerdict fabricVerdict(const std::vector<FabricOutcome>& outcomes, double gpuHourUsd);

} // namespace fabriclab::model
