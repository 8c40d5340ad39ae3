// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/advice/FabricVerdict.hpp"

#include "model/core/TextFormat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace fabriclab::model {
namespace {

// 000 ("practical guidance" after the provider table): when communication is under ~10% of
// compute on the Ethernet fabric, stay there; the fabric barely moves the step time.
constexpr double kSmallCommShare = 0.10;
// 000 (same paragraph): over ~25% communication-to-compute a faster fabric (InfiniBand) is
// worth evaluating; between the two, 002's five-step framework ends in the GPU-hour math.
constexpr double kLargeCommShare = 0.25;
// 001 ("TCO across cluster scale tiers"): small clusters are up to 128 GPUs.
constexpr int kSmallTierMaxGpus = 128;
// 001 (same section): mid-scale runs from 128 to 1,024 GPUs, large scale above that
// (the article rounds the lower edge of large scale to "above 1,000").
constexpr int kMidTierMaxGpus = 1024;

double clean(double value) {
    return std::isfinite(value) && value > 0 ? value : 0.0;
}

std::vector<FabricOutcome> cleaned(const std::vector<FabricOutcome>& outcomes) {
    std::vector<FabricOutcome> list = outcomes;
    for (FabricOutcome& o : list) {
        o.gpus = o.gpus > 0 ? o.gpus : 0;
        for (double* v : {&o.stepSeconds, &o.commToCompute, &o.busBwGBps, &o.capexUsd,
                          &o.perGpuHourUsd, &o.trainGpuHours, &o.trainCostUsd})
            *v = clean(*v);
        if (o.fabricName.empty())
            o.fabricName = o.fabricId;
    }
    return list;
}

std::string percent(double fraction) {
    return grouped(100 * fraction) + "%";
}

std::string seconds(double s) {
    return fixed(s, s < 10 ? 2 : s < 100 ? 1 : 0) + " s";
}

std::string gbps(double value) {
    return fixed(value, value < 100 ? 1 : 0) + " GB/s";
}

int tierFor(int gpus) {
    return gpus <= kSmallTierMaxGpus ? 0 : gpus <= kMidTierMaxGpus ? 1 : 2;
}

std::string tierSentence(int gpus, int tier) {
    const std::string head = "At " + grouped(gpus) + " GPUs this is ";
    switch (tier) {
    case 0:
        return head + "a small cluster (up to " + grouped(kSmallTierMaxGpus) +
               " GPUs), where a cheaper fabric has its clearest cost case.";
    case 1:
        return head + "a mid-size cluster (" + grouped(kSmallTierMaxGpus + 1) + " to " +
               grouped(kMidTierMaxGpus) +
               " GPUs), where the cost case is a close call once tuning and validation time, "
               "which capex leaves out, are counted.";
    default:
        return head + "a large cluster (over " + grouped(kMidTierMaxGpus) +
               " GPUs), where a faster fabric's GPU-hour savings often cover its premium, and "
               "an Ethernet fabric holds up only with a team experienced in tuning it.";
    }
}

std::string commSentence(const FabricOutcome& base) {
    const std::string share = percent(base.commToCompute);
    const std::string head = "Communication is " + share + " of compute on " + base.fabricName;
    // Whole percents can round onto the threshold ("10%, under ~10%"); say "just" then.
    const auto edge = [&](double threshold) { return share == percent(threshold) ? "just " : ""; };
    if (base.commToCompute < kSmallCommShare)
        return head + ", " + edge(kSmallCommShare) + "under ~" + percent(kSmallCommShare) +
               ", where the fabric barely changes the step time.";
    if (base.commToCompute > kLargeCommShare)
        return head + ", " + edge(kLargeCommShare) + "over ~" + percent(kLargeCommShare) +
               ", where a faster fabric is worth weighing.";
    return head + ", between ~" + percent(kSmallCommShare) + " and ~" + percent(kLargeCommShare) +
           ", where the GPU-hour math decides.";
}

/// One fabric weighed against the baseline by the GPU-hour math.
struct Weighing {
    double savedGpuHours = 0;
    double savedUsd = 0;
    double premiumUsd = 0;
    double net() const { return savedUsd - premiumUsd; }
};

Weighing weigh(const FabricOutcome& base, const FabricOutcome& o, double gpuHourUsd) {
    Weighing w;
    w.savedGpuHours = base.trainGpuHours - o.trainGpuHours;
    w.savedUsd = w.savedGpuHours * gpuHourUsd;
    w.premiumUsd = o.capexUsd - base.capexUsd;
    return w;
}

/// The money sentences for the challenger: saving, premium, margin and break-even.
void addMoneyReasons(FabricVerdict& v, const FabricOutcome& base, const FabricOutcome& c,
                     const Weighing& w, double gpuHourUsd, bool gated) {
    const double stepGain = (base.stepSeconds - c.stepSeconds) / base.stepSeconds;
    v.reasons.push_back(c.fabricName + " shortens the step from " + seconds(base.stepSeconds) +
                        " to " + seconds(c.stepSeconds) + " (" + percent(stepGain) + "), saving " +
                        grouped(w.savedGpuHours) + " GPU-hours over the token budget.");
    std::string money = "At " + usdCents(gpuHourUsd) + " per GPU-hour that is " + usd(w.savedUsd) +
                        " against its " + usd(w.premiumUsd) + " capex premium over " +
                        base.fabricName;
    if (w.net() > 0 && gated)
        money += ": " + usd(w.net()) + " ahead on paper, but resting on a step-time gain of " +
                 percent(stepGain) + ", too small to choose a fabric by.";
    else if (w.net() > 0)
        money += ", " + usd(w.net()) + " ahead.";
    else if (w.net() == 0)
        money += ": it only breaks even.";
    else
        money += ", " + usd(-w.net()) + " short.";
    v.reasons.push_back(money);

    std::string breakEven =
        "It breaks even at " + usdCents(v.breakEvenGpuHourUsd) + " per GPU-hour";
    if (w.savedUsd > 0) {
        // At the given rate: the share of the token budget whose savings repay the premium.
        const double budgets = w.premiumUsd / w.savedUsd;
        breakEven += budgets <= 1 ? ", or after " + percent(budgets) + " of the token budget"
                                  : ", or after " + fixed(budgets, 1) + " times the token budget";
    }
    v.reasons.push_back(breakEven + ".");
}

/// Returns the index of the recommended outcome.
std::size_t verdictWithWorkload(FabricVerdict& v, const std::vector<FabricOutcome>& list,
                                double gpuHourUsd) {
    // Baseline: the cheapest; among equal capex the faster one, so a fabric that is as
    // cheap and faster is never weighed as if it carried a premium.
    std::size_t b = 0;
    for (std::size_t i = 1; i < list.size(); ++i)
        if (list[i].capexUsd < list[b].capexUsd ||
            (list[i].capexUsd == list[b].capexUsd && list[i].trainGpuHours < list[b].trainGpuHours))
            b = i;
    const FabricOutcome& base = list[b];
    v.baselineId = base.fabricId;

    // Challenger: the faster fabric with the largest saving net of premium; ties go to the
    // smaller premium, then to the first listed.
    std::size_t c = list.size();
    Weighing best;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Weighing w = weigh(base, list[i], gpuHourUsd);
        if (i == b || w.savedGpuHours <= 0)
            continue;
        if (c == list.size() || w.net() > best.net() ||
            (w.net() == best.net() && w.premiumUsd < best.premiumUsd)) {
            c = i;
            best = w;
        }
    }

    // 000: under the small share the cheaper fabric stands even when the GPU-hour math
    // favours a faster one on paper, since the gain then rests on a few percent of step time.
    const bool smallShare = base.commToCompute < kSmallCommShare;
    v.reasons.push_back(commSentence(base));
    if (c == list.size()) {
        v.recommendedId = base.fabricId;
        v.headline = "Choose " + base.fabricName +
                     ": it is the cheapest fabric and none of the others trains faster.";
        return b;
    }
    const FabricOutcome& challenger = list[c];
    v.challengerId = challenger.fabricId;
    v.breakEvenGpuHourUsd = best.premiumUsd / best.savedGpuHours;

    // 002 step 5 (the GPU-hour math): a premium is worth paying only when the GPU-hours it
    // saves, priced at the GPU-hour rate, exceed it; at exact break-even it buys nothing.
    const bool paysBack = best.net() > 0 && !smallShare;
    if (paysBack) {
        v.recommendedId = challenger.fabricId;
        v.premiumUsd = best.premiumUsd;
        v.savedUsd = best.savedUsd;
        v.headline = "Choose " + challenger.fabricName +
                     ": the GPU-hours it saves outweigh its capex premium over " + base.fabricName +
                     " by " + usd(best.net()) + ".";
    } else {
        v.recommendedId = base.fabricId;
        v.headline =
            "Choose " + base.fabricName +
            (smallShare ? ": communication is too small a share of the step for a faster "
                          "fabric to matter."
                        : ": no faster fabric saves enough GPU-hours to pay back its capex "
                          "premium.");
    }
    addMoneyReasons(v, base, challenger, best, gpuHourUsd, smallShare);

    for (std::size_t i = 0; i < list.size(); ++i) {
        if (i == b || i == c)
            continue;
        const Weighing w = weigh(base, list[i], gpuHourUsd);
        const std::string& name = list[i].fabricName;
        if (w.savedGpuHours > 0)
            v.reasons.push_back(name + " would save " + usd(w.savedUsd) + " for a " +
                                usd(w.premiumUsd) + " premium.");
        else if (w.premiumUsd > 0)
            v.reasons.push_back(name + " trains no faster than " + base.fabricName + " and costs " +
                                usd(w.premiumUsd) + " more.");
        else
            v.reasons.push_back(name + " trains no faster than " + base.fabricName +
                                " at the same capex.");
    }
    return paysBack ? c : b;
}

/// Returns the index of the recommended outcome.
std::size_t verdictWithoutWorkload(FabricVerdict& v, const std::vector<FabricOutcome>& list) {
    std::size_t cheapest = 0;
    for (std::size_t i = 1; i < list.size(); ++i)
        if (list[i].capexUsd < list[cheapest].capexUsd ||
            (list[i].capexUsd == list[cheapest].capexUsd &&
             list[i].busBwGBps > list[cheapest].busBwGBps))
            cheapest = i;
    v.baselineId = list[cheapest].fabricId;

    // Dollars per GB/s of busbw; a fabric without a busbw figure cannot be ranked by it.
    const auto perGBps = [&](std::size_t i) {
        return list[i].busBwGBps > 0 ? list[i].capexUsd / list[i].busBwGBps
                                     : std::numeric_limits<double>::infinity();
    };
    std::size_t r = cheapest;
    for (std::size_t i = 0; i < list.size(); ++i)
        if (perGBps(i) < perGBps(r) ||
            (perGBps(i) == perGBps(r) && list[i].busBwGBps > list[r].busBwGBps))
            r = i;

    v.recommendedId = list[r].fabricId;
    v.premiumUsd = list[r].capexUsd - list[cheapest].capexUsd;
    if (list[r].busBwGBps <= 0) {
        v.headline = "Choose " + list[r].fabricName +
                     ": it is the cheapest, and there is no bus bandwidth to compare.";
        v.reasons.push_back("Without a workload or a collective result, capex is the only "
                            "figure to compare.");
        return r;
    }
    v.headline = "Choose " + list[r].fabricName + ": the lowest capex per GB/s of bus bandwidth (" +
                 usd(perGBps(r)) + " per GB/s).";
    v.reasons.push_back("Without a workload there is no training time to weigh, so this "
                        "compares the collective's bus bandwidth with the capex.");
    for (const FabricOutcome& o : list)
        v.reasons.push_back(
            o.busBwGBps > 0
                ? o.fabricName + ": " + gbps(o.busBwGBps) + " for " + usd(o.capexUsd) + ", " +
                      usd(o.capexUsd / o.busBwGBps) + " per GB/s."
                : o.fabricName + ": no bus bandwidth figure, " + usd(o.capexUsd) + " capex.");
    v.reasons.push_back("Add a workload to weigh the GPU-hours a faster fabric saves against "
                        "its premium.");
    return r;
}

/// Names a fabric that ties with the recommended one on capex and speed, so the choice
/// between them is visibly the order they were listed in.
/// The recommended outcome is the first listed of any it ties with (every rule above keeps
/// the first of equals).
void addTies(FabricVerdict& v, const std::vector<FabricOutcome>& list, std::size_t r,
             bool workload) {
    const FabricOutcome& rec = list[r];
    for (std::size_t i = r + 1; i < list.size(); ++i) {
        const FabricOutcome& o = list[i];
        const bool sameSpeed =
            workload ? o.trainGpuHours == rec.trainGpuHours : o.busBwGBps == rec.busBwGBps;
        if (o.capexUsd == rec.capexUsd && sameSpeed)
            v.reasons.push_back(o.fabricName + " ties with " + rec.fabricName + " on capex and " +
                                (workload ? "training time" : "bus bandwidth") + "; " +
                                rec.fabricName + " is listed first.");
    }
}

} // namespace

FabricVerdict fabricVerdict(const std::vector<FabricOutcome>& outcomes, double gpuHourUsd) {
    FabricVerdict v;
    if (outcomes.empty()) {
        v.headline = "No fabrics to compare.";
        return v;
    }
    const std::vector<FabricOutcome> list = cleaned(outcomes);
    const double rate = clean(gpuHourUsd);
    int gpus = 0;
    for (const FabricOutcome& o : list)
        gpus = std::max(gpus, o.gpus);
    v.scaleTier = tierFor(gpus);

    bool workload = true;
    for (const FabricOutcome& o : list)
        workload = workload && o.stepSeconds > 0 && o.trainGpuHours > 0;

    if (list.size() == 1) {
        const FabricOutcome& o = list.front();
        v.recommendedId = o.fabricId;
        v.baselineId = o.fabricId;
        v.headline = o.fabricName + " is the only fabric in the comparison.";
        const std::string capex = usd(o.capexUsd) + " of fabric capex.";
        if (workload)
            v.reasons.push_back("It trains the token budget in " + grouped(o.trainGpuHours) +
                                " GPU-hours for " + capex);
        else if (o.busBwGBps > 0)
            v.reasons.push_back("It delivers " + gbps(o.busBwGBps) + " of bus bandwidth for " +
                                capex);
        else
            v.reasons.push_back("It costs " + capex);
        if (workload)
            v.reasons.push_back(commSentence(o));
    } else {
        const std::size_t r =
            workload ? verdictWithWorkload(v, list, rate) : verdictWithoutWorkload(v, list);
        addTies(v, list, r, workload);
    }
    if (gpus > 0)
        v.reasons.push_back(tierSentence(gpus, v.scaleTier));
    return v;
}

} // namespace fabriclab::model
