// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/advice/Evidence.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fabriclab::model {

/// One fabric's figures in a comparison of the same design (inputs to the verdict).
/// Non-finite or negative figures are read as 0, so a bad input cannot put NaN in a sentence.
struct FabricOutcome {
    std::string fabricId;          ///< catalog id, e.g. "ib-ndr"
    std::string fabricName;        ///< for people
    int gpus = 0;                  ///< GPUs in the design (the same for every outcome)
    double stepSeconds = 0;        ///< training step time, s; 0 when the design has no workload
    double exposedCommSeconds = 0; ///< the part of the step spent waiting on the fabric, s
    double commToCompute = 0;      ///< fabric communication / compute time of a step (0.25 = 25%)
    double tokensPerSecond = 0;    ///< the cluster's training throughput; 0 without workload
    double busBwGBps = 0;          ///< the design's collective, GB/s as nccl-tests
    double capexUsd = 0;           ///< fabric capex, USD
    double perGpuHourUsd = 0;      ///< fabric capex amortized per GPU-hour, USD
    double trainGpuHours = 0;      ///< GPU-hours to train the token budget; 0 without workload
    double trainCostUsd = 0;       ///< cost to train the token budget, USD
    // Serving, when the design serves a model (model::ServingEstimate).
    bool serving = false;
    bool servingUsesFabric = false; ///< KV hand-over or replicas across servers
    double ttftSeconds = 0;
    double tpotSeconds = 0;
    double servedTokensPerSecondPerGpu = 0;

    // The cluster's cost over its life (model::ownershipCost); `priced` false when the
    // catalog cannot price it (an inline GPU).
    bool priced = false;
    bool rented = false;              ///< rented by the GPU-hour (no capex of one's own)
    std::string pricing;              ///< how it was priced, for people ("owned, 36 months")
    double lifeHours = 0;             ///< the period costed, hours
    double lifetimeUsd = 0;           ///< servers + fabric + energy, or the rental, over `months`
    double energyUsd = 0;             ///< owned: energy over `months`
    double perMillionTokensUsd = 0;   ///< lifetimeUsd per million tokens trained
    std::optional<Evidence> evidence; ///< the nearest published measurement of this fabric
};

/// What the verdict is weighed for: the workload named in its sentences.
struct VerdictContext {
    std::string workloadName; ///< "llama3-70b", empty without a workload
    bool mixtureOfExperts = false;
    double globalBatchTokens = 0;
};

/// Where the ranking between the recommended fabric and its closest rival flips, as a
/// multiple of the design's communication (its step's exposed fabric time): above 1 the
/// workload would need more communication (an MoE's all-to-all, a smaller batch) for the
/// rival to win, below 1 less (a dense model at a larger batch).
struct RankingFlip {
    std::string rivalId;
    double commMultiple = 0;   ///< exposed communication x this = equal cost per token
    double rivalCommShare = 0; ///< the recommended fabric's exposed comm / fixed step time there
};

/// When the recommended fabric's capex premium over the cheapest is repaid by the GPU time
/// it saves (owned clusters).
struct Payback {
    std::string againstId; ///< the cheapest fabric
    double premiumUsd = 0;
    double days = 0;   ///< of training at full use
    double tokens = 0; ///< trained by then
    bool withinLife = false;
};

/// Which fabric to pick and why, in sentences computed from the outcomes.
struct FabricVerdict {
    std::string recommendedId; ///< empty when there is nothing to compare
    /// The cheapest fabric by capex (ties: the one that trains faster, then the first
    /// listed): what premiums are measured against. Empty when there is nothing to compare.
    std::string baselineId;
    std::string headline;             ///< one sentence: which fabric
    std::vector<std::string> reasons; ///< short sentences with the numbers behind it
    double premiumUsd = 0; ///< recommended fabric's capex over the cheapest fabric's, USD
    int scaleTier = 0;     ///< 0: <=128 GPUs, 1: 129-1,024, 2: >1,024 (article 001's TCO tiers)
    /// Each ranked fabric's tokens per dollar against the recommended one (1 for it, 0.9 for
    /// one that trains 10% fewer tokens on the same spend), in outcome order; empty without
    /// a workload and prices.
    std::vector<double> tokensPerDollarVsBest;
    std::optional<RankingFlip> flip;
    std::optional<Payback> payback;
    /// True when no published measurement of the recommended fabric lies within
    /// kEvidenceReach of the design's scale: the figures behind it are the model's alone.
    bool extrapolation = false;
    /// With a serving workload: whether the fabrics compared change what it serves (time to
    /// first token, per output token or tokens per GPU by more than kServingFabricMatters),
    /// said in `servingSentence` and among the reasons.
    bool servingFabricMatters = false;
    std::string servingSentence;
};

/// The relative spread of a serving figure across fabrics above which the fabric is said
/// to matter for serving: 5%, about the run-to-run spread serving benchmarks publish.
inline constexpr double kServingFabricMatters = 0.05;

/// Rule: the serving sentence of a comparison (FabricVerdict::servingSentence) and whether
/// the fabric matters; empty and false when no outcome serves.
std::pair<std::string, bool> servingVerdict(const std::vector<FabricOutcome>& outcomes);

/// Rule: where the cost per token of `recommended` and `rival` is equal as the workload's
/// communication scales by k (step = fixed time + k x the time waiting on the fabric, each
/// cluster's cost per hour unchanged): H_w (c_w + k e_w) = H_r (c_r + k e_r). Nothing when
/// no k > 0 makes them equal (one is cheaper per hour and waits no longer).
std::optional<RankingFlip> rankingFlip(const FabricOutcome& recommended,
                                       const FabricOutcome& rival);

/// Rule: after how much training `faster`'s capex premium over `cheaper` is repaid by the
/// GPU time it saves, owned clusters only. Each hour on the faster fabric saves
/// (R_f / R_c - 1) hours of the cheaper cluster at its cost per hour, less the extra energy
/// it draws. Repaid within the period costed exactly when it also costs less per token.
/// Nothing when it is not faster, carries no premium, or never repays it.
std::optional<Payback> payback(const FabricOutcome& faster, const FabricOutcome& cheaper);

/// The verdict on a side-by-side comparison of fabrics for one design.
///
/// With a workload and prices (every outcome `priced` with tokens per second) the fabric
/// with the lowest lifetime cost per trained token is recommended: the whole cluster's cost
/// over its life (servers, fabric, energy; or the rental) against what it trains in that
/// time, so a fabric's premium is weighed against every GPU-hour it speeds up, not one run.
/// The verdict gives throughput at equal spend, where the ranking flips in communication
/// (RankingFlip), the payback of the premium in days and tokens (owned), the workload it
/// holds for, and its confidence: each fabric's nearest published measurement, the
/// recommendation marked an extrapolation when none is within kEvidenceReach.
/// Without a workload it falls back to the lowest capex per GB/s of bus bandwidth; without
/// prices (an inline GPU) to the fabric's capex and step time alone. Every verdict names
/// the scale tier. Pure function of its inputs; safe to call from any thread.
FabricVerdict fabricVerdict(const std::vector<FabricOutcome>& outcomes,
                            const VerdictContext& context = {});

} // namespace fabriclab::model
