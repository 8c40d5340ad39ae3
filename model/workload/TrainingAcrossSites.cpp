// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/workload/TrainingAcrossSites.hpp"

#include "model/core/TextFormat.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace fabriclab::model {
namespace {

constexpr double kSyncGradientBits = 16; // BF16 gradients, as estimateStep sends them
constexpr double kSecondsPerMonth = 30.4375 * 86400;
constexpr double kTrainingShare = 0.9; // the utilisation gbpsFor90Percent aims at

constexpr const char* kScalingLaws = "Charles et al., Scaling Laws for DiLoCo, arXiv 2503.09799, "
                                     "Tables 4-5";

/// Published runs, docs/reference/design-space.md §4. Scaling-law rows are at H = 30
/// against data parallelism with the same tokens.
const std::vector<DilocoFigure> kFigures = {
    {"sl-loss", 0.035, 2, 30, +0.7, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 0.035, 4, 30, +2.0, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 0.035, 8, 30, +3.9, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 0.55, 2, 30, +0.2, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 0.55, 4, 30, +0.7, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 0.55, 8, 30, +1.7, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 2.4, 2, 30, -0.1, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 2.4, 4, 30, +0.3, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 2.4, 8, 30, +1.1, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 4, 2, 30, -0.18, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 4, 4, 30, +0.18, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 10, 2, 30, -0.19, "eval loss", "data parallelism", kScalingLaws},
    {"sl-loss", 10, 4, 30, +0.29, "eval loss", "data parallelism", kScalingLaws},
    // 15.02 against 15.30 perplexity: DiLoCo beats the equal-compute 8x-batch baseline.
    {"dl-ppl", 0.15, 8, 500, -1.83, "perplexity", "data parallelism with an 8x batch",
     "Douillard et al., DiLoCo, arXiv 2311.08105, Table 2"},
    {"dl-h", 0.15, 8, 1000, +2.9, "perplexity", "DiLoCo at H = 50",
     "Douillard et al., DiLoCo, arXiv 2311.08105, Fig. 4"},
    // 2.45 against 2.45 at 250B tokens.
    {"sd-1b", 1, 2, 100, 0.0, "eval loss", "data parallelism",
     "Douillard et al., Streaming DiLoCo, arXiv 2501.18512, Table 1"},
};

/// The stall per step a mode pays at `gbpsPerSpan`, for the 90 % search.
using StallAt = std::function<double(double gbpsPerSpan)>;

/// The WAN Gb/s per span at which the stall falls to a tenth of the training time, found by
/// bisection on the mode's own stall (so it agrees with the figures beside it); absent when
/// even a limitless WAN's latency stalls more.
std::optional<double> gbpsForShare(const StallAt& stallAt, double siteStepSeconds) {
    const double allowed = siteStepSeconds * (1 - kTrainingShare) / kTrainingShare;
    double lo = 1e-6, hi = 1e9;
    if (stallAt(hi) > allowed)
        return std::nullopt;
    if (stallAt(lo) <= allowed)
        return lo;
    for (int i = 0; i < 100 && hi / lo > 1.0001; ++i) {
        const double mid = std::sqrt(lo * hi);
        (stallAt(mid) > allowed ? lo : hi) = mid;
    }
    return hi;
}

Sites withWanGbps(Sites sites, double gbpsPerSpan) {
    sites.wan.gbps = gbpsPerSpan;
    sites.wan.links = 1;
    return sites;
}

double syncStall(const Sites& sites, double bytes, double overlap, double computeSeconds) {
    const double wan = wanAllReduceSeconds(sites, bytes);
    return wan - std::min(overlap * wan, computeSeconds);
}

double dilocoStall(const Sites& sites, double bytes, double siteStepSeconds) {
    const double wan = wanAllReduceSeconds(sites, bytes);
    return std::max(0.0, wan - sites.outer.overlapSteps * siteStepSeconds) / sites.outer.innerSteps;
}

void finish(AcrossSitesMode& mode, double siteStepSeconds, double tokensPerStep,
            const TrainingAcrossSites& t, const AcrossSitesPricing& pricing) {
    mode.stepSeconds = siteStepSeconds + mode.stallSeconds;
    mode.tokensPerSecond = tokensPerStep * t.sites.count / mode.stepSeconds;
    mode.utilization = siteStepSeconds / mode.stepSeconds;
    mode.trainSeconds = pricing.trainTokens / mode.tokensPerSecond;
    mode.gpuHours = mode.trainSeconds / 3600 * static_cast<double>(t.gpus);
    mode.costUsd = mode.gpuHours * pricing.gpuHourUsd +
                   t.wanUsdPerMonth.value_or(0) * mode.trainSeconds / kSecondsPerMonth;
}

} // namespace

const std::vector<DilocoFigure>& publishedDilocoFigures() {
    return kFigures;
}

const DilocoFigure& nearestDilocoFigure(double paramsB, int replicas, int innerSteps) {
    // Model size moves the published deltas most, replicas next, H least (sl-h: loss rises
    // slowly with H), so a decade of size weighs as two doublings of replicas or four
    // decades of H.
    const auto distance = [&](const DilocoFigure& f) {
        return std::abs(std::log10(std::max(paramsB, 1e-3) / f.paramsB)) +
               0.5 * std::abs(std::log2(static_cast<double>(replicas) / f.replicas)) +
               0.25 * std::abs(std::log10(static_cast<double>(innerSteps) / f.innerSteps));
    };
    return *std::min_element(
        kFigures.begin(), kFigures.end(),
        [&](const DilocoFigure& a, const DilocoFigure& b) { return distance(a) < distance(b); });
}

double wanAllReduceSeconds(const Sites& sites, double bytes) {
    const double s = sites.count;
    const double spanBitsPerSecond = sites.wan.gbps * 1e9 * sites.wan.links;
    return 2 * (s - 1) / s * bytes * 8 / spanBitsPerSecond +
           2 * (s - 1) * sites.wan.latencyMs / 1e3;
}

TrainingAcrossSites trainAcrossSites(const StepTime& siteStep, const Workload& workload,
                                     const Sites& sites, const AcrossSitesPricing& pricing) {
    TrainingAcrossSites t;
    t.sites = sites;
    t.gpus = (pricing.siteGpus > 0 ? pricing.siteGpus : workload.gpus()) * sites.count;
    t.siteStepSeconds = siteStep.stepSeconds;
    t.parameters = workload.model.spec.paramsB * 1e9;
    t.trainTokens = pricing.trainTokens;
    if (sites.wan.usdPerLinkMonth)
        t.wanUsdPerMonth = *sites.wan.usdPerLinkMonth * sites.circuits();
    const double tokensPerStep = static_cast<double>(workload.globalBatchTokens);
    const double step = siteStep.stepSeconds;
    const double compute = siteStep.computeSeconds;

    AcrossSitesMode& sync = t.synchronous;
    sync.wanBytes = t.parameters * kSyncGradientBits / 8;
    sync.wanSeconds = wanAllReduceSeconds(sites, sync.wanBytes);
    sync.stallSeconds = syncStall(sites, sync.wanBytes, workload.overlap, compute);
    sync.gbpsFor90Percent = gbpsForShare(
        [&](double g) {
            return syncStall(withWanGbps(sites, g), sync.wanBytes, workload.overlap, compute);
        },
        step);
    finish(sync, step, tokensPerStep, t, pricing);

    AcrossSitesMode& diloco = t.diloco;
    diloco.wanBytes = t.parameters * sites.outer.payloadBits / 8;
    diloco.wanSeconds = wanAllReduceSeconds(sites, diloco.wanBytes);
    diloco.stallSeconds = dilocoStall(sites, diloco.wanBytes, step);
    diloco.gbpsFor90Percent = gbpsForShare(
        [&](double g) { return dilocoStall(withWanGbps(sites, g), diloco.wanBytes, step); }, step);
    finish(diloco, step, tokensPerStep, t, pricing);

    t.wanBytesRatio = sync.wanBytes * sites.outer.innerSteps / diloco.wanBytes;
    t.quality =
        &nearestDilocoFigure(workload.model.spec.paramsB, sites.count, sites.outer.innerSteps);
    t.assumptions = {
        "each site trains one replica of the workload on its own copy of the fabric; the "
        "sites reduce inside themselves first, then run one ring all-reduce over the WAN",
        "synchronous data parallelism sends BF16 gradients over the WAN every step and hides " +
            fixed(workload.overlap * 100, 0) + " % of them (the workload's overlap) behind compute",
        "DiLoCo sends " + std::to_string(sites.outer.payloadBits) + "-bit outer gradients every " +
            std::to_string(sites.outer.innerSteps) +
            " steps; the replicas wait only for what outlasts " +
            std::to_string(sites.outer.overlapSteps) + " inner steps",
        "convergence is not simulated: the quality figure is the nearest published DiLoCo "
        "run, borrowed",
    };
    if (!t.wanUsdPerMonth)
        t.assumptions.push_back("the WAN is not priced: give wan.usdPerLinkMonth to cost it");
    return t;
}

std::vector<AcrossSitesLine> describeAcrossSites(const TrainingAcrossSites& t) {
    const WanLinks& wan = t.sites.wan;
    // Below 100 Gb/s with a decimal (a 0.4 Gb/s WAN is not "0"), whole above.
    const auto gbps = [](double value) {
        return value < 1 ? fixed(value, 3) : value < 100 ? fixed(value, 1) : grouped(value);
    };
    std::string link = std::to_string(t.sites.count) + " sites, " +
                       grouped(static_cast<double>(t.gpus)) + " GPUs; WAN " +
                       gbps(wan.gbps * wan.links) + " Gb/s a span (" + std::to_string(wan.links) +
                       " x " + gbps(wan.gbps) + "G), " + fixed(wan.latencyMs, 1) + " ms one way, ";
    link += t.wanUsdPerMonth ? usd(*t.wanUsdPerMonth) + " a month" : std::string("not priced");
    const auto size = [](double paramsB) {
        return paramsB < 1 ? fixed(paramsB * 1000, 0) + "M"
                           : fixed(paramsB, paramsB < 10 ? 1 : 0) + "B";
    };
    const auto mode = [&](const AcrossSitesMode& m) {
        std::string text = "step " + fixed(m.stepSeconds, 3) + " s (waits " +
                           fixed(m.stallSeconds, 3) + " s on the WAN), " +
                           fixed(m.utilization * 100, 1) + " % training; " +
                           fixed(m.trainSeconds / 86400, 1) + " days, " + usd(m.costUsd) +
                           " to train " + grouped(t.trainTokens) + " tokens; ";
        text += m.gbpsFor90Percent
                    ? "90 % training needs " + gbps(*m.gbpsFor90Percent) + " Gb/s a span"
                    : std::string("the WAN's latency alone keeps it under 90 %");
        return text;
    };
    std::vector<AcrossSitesLine> lines = {
        {"sites", link},
        {"synchronous", mode(t.synchronous)},
        {"DiLoCo H=" + std::to_string(t.sites.outer.innerSteps), mode(t.diloco)},
        {"WAN traffic", "data parallelism sends " + fixed(t.wanBytesRatio, 0) +
                            " x the bytes DiLoCo sends (" +
                            std::to_string(t.sites.outer.payloadBits) + "-bit outer gradients)"}};
    if (t.quality) {
        const DilocoFigure& q = *t.quality;
        const std::string sign = q.deltaPercent > 0 ? "+" : "";
        lines.push_back({"quality", "nearest published run (" + size(q.paramsB) + ", " +
                                        std::to_string(q.replicas) +
                                        " replicas, H = " + std::to_string(q.innerSteps) +
                                        "): " + sign + fixed(q.deltaPercent, 2) + " % " + q.metric +
                                        " against " + q.against + " (" + q.source +
                                        "); borrowed, not simulated"});
    }
    return lines;
}

} // namespace fabriclab::model
