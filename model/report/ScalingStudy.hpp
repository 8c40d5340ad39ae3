// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/design/Design.hpp"

#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace fabriclab::model {

/// One size of the design on one fabric: what a training step takes and what the fabric
/// costs there (RunReport's figures, reduced to what a scaling chart draws).
struct ScalingPoint {
    int servers = 0;
    int gpus = 0;
    std::string fabricId;
    double stepSeconds = 0;   ///< training step, s
    double commToCompute = 0; ///< fabric communication / compute time of a step
    double busBwGBps = 0;     ///< the design's collective, GB/s as nccl-tests
    double capexUsd = 0;      ///< fabric capex, USD
    double perGpuHourUsd = 0; ///< fabric capex amortized per GPU-hour, USD
    double trainGpuHours = 0; ///< GPU-hours to train the token budget
    double trainCostUsd = 0;  ///< GPU-hours x the GPU's rental price (network included), USD
    /// The owned cluster's lifetime cost per million trained tokens (model::ownershipCost);
    /// 0 when the price list cannot price its GPU.
    double perMillionTokensUsd = 0;
};

struct ScalingOptions {
    /// Fabric catalog ids, in order; empty: the design's fabric and a comparison fabric
    /// ("roce-v2" for an InfiniBand design, "ib-ndr" otherwise). The break-even weighs
    /// the first two.
    std::vector<std::string> fabricIds;
    /// Server counts; empty: the design's count times 1/8, 1/4, 1/2, 1, 2 and 4 (whole
    /// counts of at least 2 servers), those the generator can build. Above 4,096 GPUs
    /// the design's own size is the largest (kDefaultMaxGpusAbove), since each run there
    /// takes seconds.
    std::vector<int> servers;
    double trainTokens = 1e12; ///< token budget for GPU-hours and cost to train
    std::stop_token stop;      ///< polled throughout; a stopped study throws Cancelled
};

/// The design at several sizes on two (or more) fabrics, and where the faster fabric
/// starts to pay for itself.
struct ScalingStudy {
    /// In order: [0] the design's fabric, [1] the comparison (or ScalingOptions::fabricIds).
    std::vector<std::string> fabricIds;
    std::vector<ScalingPoint> points; ///< fabric-major, then servers ascending
    std::vector<std::string> skipped; ///< sentences: server counts that could not be run and why
    /// The smallest GPU count at which the faster fabric's owned cluster costs less per
    /// trained token over its life than the cheaper one's, its premium repaid by the GPU
    /// time it saves (article 002's "GPU-hour math" over the refresh cycle), if any.
    std::optional<int> breakEvenGpus;
    std::string fasterId, cheaperId; ///< the two fabrics the break-even weighs
    std::string note;                ///< one sentence: the break-even, or why there is none
};

/// Designs above this many GPUs get no default sizes above their own: the study runs
/// after every edit, and at 16,384 GPUs one run already takes 1.3 s on ib-ndr and 5 s
/// on roce-v2 (Release; mostly the 1 GiB all-reduce's tree under static ECMP).
inline constexpr int kDefaultMaxGpusAbove = 4096;

/// Regenerates the design at each server count (withServers) and evaluates it on each
/// fabric (runDesign, simulated, without detail). Counts the generator or the workload's
/// split cannot take are listed in `skipped`; so are counts a fabric cannot evaluate,
/// for every fabric, so the points stay complete. A design without a generator or
/// without a workload gives an empty study whose `note` says why.
///
/// `cheaperId` is the fabric with the lower capex summed over the sizes, `fasterId` the
/// other; the break-even is the first size at which the faster one's lifetime cost per
/// trained token is strictly below the cheaper one's (model::fabricVerdict's ranking).
/// Throws std::invalid_argument for a fabric id the catalog lacks, model::Cancelled when
/// stopped. Runs on the calling thread; safe to call from any thread.
ScalingStudy scalingStudy(const Design& design, const Catalog& catalog,
                          const ScalingOptions& options = {});

/// Fills `breakEvenGpus`, `fasterId`, `cheaperId` and `note` from `study.points` (fabric-
/// major, every fabric at the same sizes), as scalingStudy() does.
void weighBreakEven(ScalingStudy& study);

} // namespace fabriclab::model
