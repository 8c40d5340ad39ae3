// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/advice/FabricVerdict.hpp"

#include "model/core/TextFormat.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace fabriclab::model {
namespace {

// 000 ("practical guidance" after the provider table): under ~10% communication-to-compute
// the fabric barely moves the step time; over ~25% a faster fabric is worth evaluating.
// Only the sentences use them: the cost per token decides.
constexpr double kSmallCommShare = 0.10;
constexpr double kLargeCommShare = 0.25;
// 001 ("TCO across cluster scale tiers"): small clusters are up to 128 GPUs.
constexpr int kSmallTierMaxGpus = 128;
// 001 (same section): mid-scale runs from 128 to 1,024 GPUs, large scale above that
// (the article rounds the lower edge of large scale to "above 1,000").
constexpr int kMidTierMaxGpus = 1024;
constexpr double kSecondsPerHour = 3600;
constexpr double kHoursPerDay = 24;
// Costs per token this close are a tie the price list cannot break: its prices are low
// reliability (article 000 quotes ranges about 25% either side of the midpoints the catalog
// takes), and the fabric is 10-20% of an owned cluster's lifetime cost (H100 servers at the
// catalog's price), so the price ranges alone move the cost per token by 2.5-5%. Among such
// fabrics the one with the most bus bandwidth is recommended (bandwidth this close is a tie
// too, which goes to the cheaper).
constexpr double kCloseCall = 0.05;
// How far a workload's communication may plausibly grow from the design's: a batch per GPU
// four times smaller, or an expert all-to-all of the same order as the gradient traffic,
// multiplies it about fourfold. A fabric whose bandwidth would only pay beyond that is not
// preferred for it in a close call.
constexpr double kPlausibleCommGrowth = 4.0;
// Relative differences below this are rounding, not a ranking (a flip multiple of
// 1.0000001 or a denominator of 1e-15 of the step): treated as equal.
constexpr double kNegligible = 1e-9;

double clean(double value) {
    return std::isfinite(value) && value > 0 ? value : 0.0;
}

std::vector<FabricOutcome> cleaned(const std::vector<FabricOutcome>& outcomes) {
    std::vector<FabricOutcome> list = outcomes;
    for (FabricOutcome& o : list) {
        o.gpus = o.gpus > 0 ? o.gpus : 0;
        for (double* v :
             {&o.stepSeconds, &o.exposedCommSeconds, &o.commToCompute, &o.tokensPerSecond,
              &o.busBwGBps, &o.capexUsd, &o.perGpuHourUsd, &o.trainGpuHours, &o.trainCostUsd,
              &o.lifeHours, &o.lifetimeUsd, &o.energyUsd, &o.perMillionTokensUsd, &o.ttftSeconds,
              &o.tpotSeconds, &o.servedTokensPerSecondPerGpu})
            *v = clean(*v);
        o.exposedCommSeconds = std::min(o.exposedCommSeconds, o.stepSeconds);
        o.priced = o.priced && o.lifeHours > 0 && o.lifetimeUsd > 0;
        if (o.fabricName.empty())
            o.fabricName = o.fabricId;
    }
    return list;
}

std::string percent(double fraction) {
    return grouped(100 * fraction) + "%";
}

std::string gbps(double value) {
    return fixed(value, value < 100 ? 1 : 0) + " GB/s";
}

/// "2.4 trillion", "310 billion": token counts as people say them.
std::string tokens(double count) {
    const auto scaled = [](double v, const char* unit) {
        return fixed(v, v < 100 ? 1 : 0) + " " + unit;
    };
    if (count >= 1e12)
        return scaled(count / 1e12, "trillion");
    if (count >= 1e9)
        return scaled(count / 1e9, "billion");
    if (count >= 1e6)
        return scaled(count / 1e6, "million");
    return grouped(count);
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

/// The tier's rule of thumb, and where this design departs from it: at scale a faster
/// fabric usually pays, so a verdict for a slower one says why it does not here.
std::string tierSentence(int gpus, int tier, const std::vector<FabricOutcome>& list,
                         const std::string& recommendedId, bool costed) {
    std::string sentence = tierSentence(gpus, tier);
    if (tier < 2 || !costed)
        return sentence;
    const FabricOutcome* fastest = nullptr;
    const FabricOutcome* chosen = nullptr;
    for (const FabricOutcome& o : list) {
        if (!fastest || o.tokensPerSecond > fastest->tokensPerSecond)
            fastest = &o;
        if (o.fabricId == recommendedId)
            chosen = &o;
    }
    if (!chosen || !fastest || chosen->tokensPerSecond >= fastest->tokensPerSecond)
        return sentence;
    sentence.pop_back(); // the full stop
    const double gain = fastest->tokensPerSecond / chosen->tokensPerSecond - 1;
    return sentence + ". Not on this workload: communication is " + percent(chosen->commToCompute) +
           " of compute, so " + fastest->fabricName + " trains only " +
           (gain < 0.01 ? std::string("under 1%") : percent(gain)) + " faster.";
}

std::string commSentence(const FabricOutcome& o) {
    const std::string share = percent(o.commToCompute);
    const std::string head = "Communication is " + share + " of compute on " + o.fabricName;
    // Whole percents can round onto the threshold ("10%, under ~10%"); say "just" then.
    const auto edge = [&](double threshold) { return share == percent(threshold) ? "just " : ""; };
    if (o.commToCompute < kSmallCommShare)
        return head + ", " + edge(kSmallCommShare) + "under ~" + percent(kSmallCommShare) +
               ", where the fabric barely changes the step time.";
    if (o.commToCompute > kLargeCommShare)
        return head + ", " + edge(kLargeCommShare) + "over ~" + percent(kLargeCommShare) +
               ", where a faster fabric is worth weighing.";
    return head + ", between ~" + percent(kSmallCommShare) + " and ~" + percent(kLargeCommShare) +
           ", where the cost per token decides.";
}

/// The cheapest fabric by capex; among equal capex the faster one, then the first listed.
std::size_t cheapestByCapex(const std::vector<FabricOutcome>& list, bool workload) {
    std::size_t b = 0;
    for (std::size_t i = 1; i < list.size(); ++i) {
        const bool faster = workload ? list[i].tokensPerSecond > list[b].tokensPerSecond
                                     : list[i].busBwGBps > list[b].busBwGBps;
        if (list[i].capexUsd < list[b].capexUsd || (list[i].capexUsd == list[b].capexUsd && faster))
            b = i;
    }
    return b;
}

/// What the cluster costs per hour of its life on this fabric.
double hourlyUsd(const FabricOutcome& o) {
    return o.lifetimeUsd / o.lifeHours;
}

/// The step time spent on anything but waiting for the fabric.
double fixedSeconds(const FabricOutcome& o) {
    return o.stepSeconds - o.exposedCommSeconds;
}

} // namespace

/// Rule: where the ranking of two fabrics by cost per token flips as the workload's
/// communication scales by k (step = fixed + k x exposed, the cluster's hourly cost fixed):
/// H_w (c_w + k e_w) = H_r (c_r + k e_r). Nothing when no k > 0 makes them equal.
std::optional<RankingFlip> rankingFlip(const FabricOutcome& w, const FabricOutcome& r) {
    const double hw = hourlyUsd(w);
    const double hr = hourlyUsd(r);
    const double denominator = hw * w.exposedCommSeconds - hr * r.exposedCommSeconds;
    const double numerator = hr * fixedSeconds(r) - hw * fixedSeconds(w);
    const double scale = std::max(hw * w.stepSeconds, hr * r.stepSeconds);
    if (std::abs(denominator) <= kNegligible * scale)
        return std::nullopt;
    const double k = numerator / denominator;
    if (!(k > 0) || !std::isfinite(k))
        return std::nullopt;
    RankingFlip flip;
    flip.rivalId = r.fabricId;
    flip.commMultiple = k;
    flip.rivalCommShare = fixedSeconds(w) > 0 ? k * w.exposedCommSeconds / fixedSeconds(w) : 0;
    return flip;
}

/// Rule: the days of training after which the recommended fabric's capex premium over the
/// cheapest is repaid. Training T tokens takes T / R hours; the faster fabric saves
/// (R_w / R_b - 1) hours of the cheaper cluster (H_b per hour) per hour it runs, less the
/// extra energy it draws: T* = premium / (H_b (R_w / R_b - 1) - (E_w - E_b) / life). It is
/// repaid within the cluster's life exactly when it also costs less per token.
std::optional<Payback> payback(const FabricOutcome& w, const FabricOutcome& b) {
    const double premium = w.capexUsd - b.capexUsd;
    if (w.rented || b.rented || premium <= 0 || w.tokensPerSecond <= b.tokensPerSecond)
        return std::nullopt;
    const double savedPerHour = hourlyUsd(b) * (w.tokensPerSecond / b.tokensPerSecond - 1) -
                                (w.energyUsd - b.energyUsd) / w.lifeHours;
    if (savedPerHour <= 0)
        return std::nullopt;
    Payback p;
    p.againstId = b.fabricId;
    p.premiumUsd = premium;
    const double hours = premium / savedPerHour;
    p.days = hours / kHoursPerDay;
    p.tokens = w.tokensPerSecond * hours * kSecondsPerHour;
    p.withinLife = hours <= w.lifeHours;
    return p;
}

namespace {

/// The cost per token of `o` with its communication scaled by k, up to the common factor
/// of tokens per step (the same design, so the same batch).
double scaledCost(const FabricOutcome& o, double k) {
    return hourlyUsd(o) * (fixedSeconds(o) + k * o.exposedCommSeconds);
}

std::string flipSentence(const FabricOutcome& w, const FabricOutcome& r, const RankingFlip& flip,
                         const VerdictContext& context) {
    const double today = fixedSeconds(w) > 0 ? w.exposedCommSeconds / fixedSeconds(w) : 0;
    const std::string workload =
        context.workloadName.empty()
            ? std::string("this workload")
            : context.workloadName + (context.mixtureOfExperts ? " (mixture of experts)" : "") +
                  (context.globalBatchTokens > 0
                       ? " at " + tokens(context.globalBatchTokens) + " tokens per batch"
                       : "");
    // Whichever of the two is behind today takes the lead past the flip.
    const bool rivalBehind = scaledCost(r, 1) >= scaledCost(w, 1);
    const FabricOutcome& overtakes = rivalBehind ? r : w;
    const FabricOutcome& overtaken = rivalBehind ? w : r;
    const std::string waiting = " (the step waiting on the fabric " + percent(flip.rivalCommShare) +
                                " of the time it computes on " + w.fabricName + ", today " +
                                percent(today) + ")";
    if (flip.commMultiple > 1)
        return "This holds for " + workload + ". " + overtakes.fabricName +
               " would cost less per token than " + overtaken.fabricName +
               " once communication grows " + fixed(flip.commMultiple, 1) + " times" + waiting +
               ", as an expert all-to-all or a smaller batch per GPU makes it.";
    return "This holds for " + workload + ". " + overtakes.fabricName +
           " would cost less per token than " + overtaken.fabricName +
           " if communication fell below " + fixed(flip.commMultiple, 2) + " of today's" + waiting +
           ", as a dense model at a larger batch per GPU does.";
}

std::string evidenceSentence(const FabricOutcome& o) {
    if (!o.evidence)
        return o.fabricName + ": no published measurement on this fabric; its figures are the "
                              "model's alone.";
    const Evidence& e = *o.evidence;
    std::string s = o.fabricName + ": nearest published measurement " + e.figureId + " (" +
                    grouped(e.servers) + (e.servers == 1 ? " server" : " servers") +
                    (e.sameGpu ? "" : ", " + e.gpu) + ")";
    if (e.extrapolation)
        return s + ", " + fixed(e.scale >= 1 ? e.scale : 1 / e.scale, 0) + " times " +
               (e.scale >= 1 ? "smaller" : "larger") + " than this design: an extrapolation.";
    return s + (e.scale == 1
                    ? ", the same scale."
                    : ", within " + fixed(kEvidenceReach, 0) + " times of this design's scale.");
}

/// Returns the index of the recommended outcome.
std::size_t verdictOnCostPerToken(FabricVerdict& v, const std::vector<FabricOutcome>& list,
                                  const VerdictContext& context) {
    const std::size_t b = cheapestByCapex(list, true);
    v.baselineId = list[b].fabricId;
    // Rule: the lowest lifetime cost per trained token; ties go to the first listed.
    std::size_t best = 0;
    for (std::size_t i = 1; i < list.size(); ++i)
        if (list[i].perMillionTokensUsd < list[best].perMillionTokensUsd)
            best = i;
    // Rule (close call): among the fabrics within kCloseCall of that cost, the one with the
    // most bus bandwidth; bandwidth within kCloseCall of the most is a tie, to the cheaper.
    // Only bandwidth the step would feel counts: a fabric is preferred for it only when it
    // overtakes the cheapest as the workload's communication grows, within
    // kPlausibleCommGrowth, so the verdict never praises bandwidth its own flip would deny.
    const auto nearBest = [&](std::size_t i) {
        return list[i].perMillionTokensUsd <=
               list[best].perMillionTokensUsd * (1 + kCloseCall) * (1 + kNegligible);
    };
    const auto close = [&](std::size_t i) {
        if (!nearBest(i))
            return false;
        if (i == best)
            return true;
        const std::optional<RankingFlip> flip = rankingFlip(list[i], list[best]);
        return flip && flip->commMultiple > 1 && flip->commMultiple <= kPlausibleCommGrowth;
    };
    double widest = 0;
    for (std::size_t i = 0; i < list.size(); ++i)
        if (close(i))
            widest = std::max(widest, list[i].busBwGBps);
    std::size_t r = list.size();
    for (std::size_t i = 0; i < list.size(); ++i)
        if (close(i) && list[i].busBwGBps >= widest / (1 + kCloseCall) &&
            (r == list.size() || list[i].perMillionTokensUsd < list[r].perMillionTokensUsd))
            r = i;
    const FabricOutcome& w = list[r];
    v.recommendedId = w.fabricId;
    v.premiumUsd = std::max(0.0, w.capexUsd - list[b].capexUsd);
    for (const FabricOutcome& o : list)
        v.tokensPerDollarVsBest.push_back(w.perMillionTokensUsd / o.perMillionTokensUsd);
    v.extrapolation = !w.evidence || w.evidence->extrapolation;

    const std::string beyond =
        v.extrapolation ? " (an extrapolation beyond the published measurements)." : ".";
    if (r == best)
        v.headline = "Choose " + w.fabricName + ": the lowest cost per trained token over the " +
                     "cluster's life, " + usdPerMillionTokens(w.perMillionTokensUsd) +
                     " per million tokens" + beyond;
    else
        v.headline =
            "Choose " + w.fabricName + ": within " + percent(kCloseCall) +
            " of the lowest cost per trained token (" + usdPerMillionTokens(w.perMillionTokensUsd) +
            " against " + list[best].fabricName + "'s " +
            usdPerMillionTokens(list[best].perMillionTokensUsd) + " per million tokens), with " +
            percent(w.busBwGBps / list[best].busBwGBps - 1) +
            " more bus bandwidth for a workload that communicates more" + beyond;
    std::vector<std::string> tied;
    for (std::size_t i = 0; i < list.size(); ++i)
        if (i != r && nearBest(i))
            tied.push_back(list[i].fabricName);
    if (!tied.empty()) {
        std::string names;
        for (std::size_t i = 0; i < tied.size(); ++i)
            names += (i == 0 ? "" : i + 1 == tied.size() ? " and " : ", ") + tied[i];
        v.reasons.push_back(names + (tied.size() == 1 ? " costs" : " cost") + " within " +
                            percent(kCloseCall) +
                            " per token of it, closer than the price "
                            "list can tell apart: choose among them by what your team runs "
                            "best.");
    }
    v.reasons.push_back(commSentence(w));
    for (std::size_t i = 0; i < list.size(); ++i) {
        const FabricOutcome& o = list[i];
        std::string line = o.fabricName + ": " + usdPerMillionTokens(o.perMillionTokensUsd) +
                           " per million tokens, " + usd(o.lifetimeUsd) + " " + o.pricing + ", " +
                           tokens(o.tokensPerSecond * o.lifeHours * kSecondsPerHour) +
                           " tokens trained";
        const double ratio = v.tokensPerDollarVsBest[i];
        if (i != r && ratio < 1)
            line += "; for the same spend it trains " + percent(1 - ratio) + " fewer tokens";
        else if (i != r && ratio > 1)
            line += "; for the same spend it trains " + percent(ratio - 1) + " more tokens";
        v.reasons.push_back(line + ".");
    }

    // The closest rival: the lowest cost per token, or the next lowest when that is the
    // recommended fabric.
    std::size_t rival = r != best ? best : list.size();
    for (std::size_t i = 0; i < list.size() && r == best; ++i)
        if (i != r &&
            (rival == list.size() || list[i].perMillionTokensUsd < list[rival].perMillionTokensUsd))
            rival = i;
    if (rival != list.size()) {
        const FabricOutcome& rv = list[rival];
        v.flip = rankingFlip(w, rv);
        if (v.flip)
            v.reasons.push_back(flipSentence(w, rv, *v.flip, context));
        else if (scaledCost(w, 1) <= scaledCost(rv, 1))
            v.reasons.push_back(w.fabricName + " stays ahead of " + rv.fabricName +
                                " whatever the workload's share of communication: it costs no "
                                "more per hour and waits no longer on the fabric.");
        else
            v.reasons.push_back(rv.fabricName + " stays cheaper per token than " + w.fabricName +
                                " whatever the workload's share of communication.");
    }
    if (r != b) {
        v.payback = payback(w, list[b]);
        if (v.payback) {
            const Payback& p = *v.payback;
            v.reasons.push_back("Its " + usd(p.premiumUsd) + " fabric premium over " +
                                list[b].fabricName + " is repaid by the GPU time it saves after " +
                                grouped(p.days) + " days of training (" + tokens(p.tokens) +
                                " tokens), " + (p.withinLife ? "within" : "beyond") + " the " +
                                grouped(w.lifeHours / kHoursPerDay) + "-day life costed.");
        }
    } else if (list.size() > 1) {
        v.reasons.push_back(w.fabricName + " is also the cheapest fabric to build.");
    }
    for (const FabricOutcome& o : list)
        v.reasons.push_back(evidenceSentence(o));
    return r;
}

/// Without prices for the GPU: the fastest fabric, its premium named.
std::size_t verdictOnThroughput(FabricVerdict& v, const std::vector<FabricOutcome>& list) {
    const std::size_t b = cheapestByCapex(list, true);
    v.baselineId = list[b].fabricId;
    std::size_t r = 0;
    for (std::size_t i = 1; i < list.size(); ++i)
        if (list[i].tokensPerSecond > list[r].tokensPerSecond)
            r = i;
    v.recommendedId = list[r].fabricId;
    v.premiumUsd = std::max(0.0, list[r].capexUsd - list[b].capexUsd);
    v.headline = "Fastest: " + list[r].fabricName +
                 ". The price list has no server or rental price for this GPU, so the cost "
                 "per token cannot be weighed.";
    v.reasons.push_back(commSentence(list[r]));
    for (const FabricOutcome& o : list)
        v.reasons.push_back(o.fabricName + ": " + grouped(o.tokensPerSecond) + " tokens/s for " +
                            usd(o.capexUsd) + " of fabric capex.");
    v.reasons.push_back("Add the GPU's server and rental prices to the price list to weigh "
                        "the fabrics by cost per trained token.");
    return r;
}

/// Returns the index of the recommended outcome.
std::size_t verdictWithoutWorkload(FabricVerdict& v, const std::vector<FabricOutcome>& list) {
    const std::size_t cheapest = cheapestByCapex(list, false);
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
    v.reasons.push_back("Without a training workload there is no training time to weigh, so this "
                        "compares the collective's bus bandwidth with the capex.");
    for (const FabricOutcome& o : list)
        v.reasons.push_back(
            o.busBwGBps > 0
                ? o.fabricName + ": " + gbps(o.busBwGBps) + " for " + usd(o.capexUsd) + ", " +
                      usd(o.capexUsd / o.busBwGBps) + " per GB/s."
                : o.fabricName + ": no bus bandwidth figure, " + usd(o.capexUsd) + " capex.");
    v.reasons.push_back("Add a workload to weigh the cost per trained token.");
    return r;
}

/// Names a fabric that ties with the recommended one, so the choice between them is
/// visibly the order they were listed in. Every rule above keeps the first of equals.
void addTies(FabricVerdict& v, const std::vector<FabricOutcome>& list, std::size_t r,
             bool workload) {
    const FabricOutcome& rec = list[r];
    for (std::size_t i = r + 1; i < list.size(); ++i) {
        const FabricOutcome& o = list[i];
        const bool tie = workload ? o.perMillionTokensUsd == rec.perMillionTokensUsd &&
                                        o.tokensPerSecond == rec.tokensPerSecond
                                  : o.capexUsd == rec.capexUsd && o.busBwGBps == rec.busBwGBps;
        if (tie)
            v.reasons.push_back(
                o.fabricName + " ties with " + rec.fabricName + " on " +
                (workload ? "cost per token and speed" : "capex and bus bandwidth") + "; " +
                rec.fabricName + " is listed first.");
    }
}

} // namespace

FabricVerdict fabricVerdict(const std::vector<FabricOutcome>& outcomes,
                            const VerdictContext& context) {
    FabricVerdict v;
    if (outcomes.empty()) {
        v.headline = "No fabrics to compare.";
        return v;
    }
    const std::vector<FabricOutcome> list = cleaned(outcomes);
    int gpus = 0;
    for (const FabricOutcome& o : list)
        gpus = std::max(gpus, o.gpus);
    v.scaleTier = tierFor(gpus);

    bool workload = true;
    bool priced = true;
    for (const FabricOutcome& o : list) {
        workload = workload && o.stepSeconds > 0 && o.tokensPerSecond > 0;
        priced = priced && o.priced && o.perMillionTokensUsd > 0;
    }

    if (list.size() == 1) {
        const FabricOutcome& o = list.front();
        v.recommendedId = o.fabricId;
        v.baselineId = o.fabricId;
        v.headline = o.fabricName + " is the only fabric in the comparison.";
        if (workload && priced)
            v.reasons.push_back("It trains at " + usdPerMillionTokens(o.perMillionTokensUsd) +
                                " per million tokens, " + usd(o.lifetimeUsd) + " " + o.pricing +
                                ".");
        else if (o.busBwGBps > 0)
            v.reasons.push_back("It delivers " + gbps(o.busBwGBps) + " of bus bandwidth for " +
                                usd(o.capexUsd) + " of fabric capex.");
        else
            v.reasons.push_back("It costs " + usd(o.capexUsd) + " of fabric capex.");
        if (workload)
            v.reasons.push_back(commSentence(o));
        v.reasons.push_back(evidenceSentence(o));
        v.extrapolation = !o.evidence || o.evidence->extrapolation;
    } else {
        const std::size_t r = !workload ? verdictWithoutWorkload(v, list)
                              : priced  ? verdictOnCostPerToken(v, list, context)
                                        : verdictOnThroughput(v, list);
        addTies(v, list, r, workload && priced);
    }
    if (gpus > 0)
        v.reasons.push_back(tierSentence(gpus, v.scaleTier, list, v.recommendedId,
                                         workload && priced && list.size() > 1));
    std::tie(v.servingSentence, v.servingFabricMatters) = servingVerdict(list);
    // For a design that only serves, what serving says is the first thing to read.
    if (!v.servingSentence.empty())
        v.reasons.insert(workload ? v.reasons.end() : v.reasons.begin(), v.servingSentence);
    return v;
}

std::pair<std::string, bool> servingVerdict(const std::vector<FabricOutcome>& outcomes) {
    const std::vector<FabricOutcome> list = cleaned(outcomes);
    std::vector<const FabricOutcome*> serving;
    for (const FabricOutcome& o : list)
        if (o.serving && o.ttftSeconds > 0 && o.servedTokensPerSecondPerGpu > 0)
            serving.push_back(&o);
    if (serving.empty())
        return {};
    const auto spread = [&](double FabricOutcome::*figure, const FabricOutcome*& low,
                            const FabricOutcome*& high) {
        low = high = serving.front();
        for (const FabricOutcome* o : serving) {
            if (o->*figure < low->*figure)
                low = o;
            if (o->*figure > high->*figure)
                high = o;
        }
        return high->*figure / low->*figure - 1;
    };
    const FabricOutcome *fastFirst = nullptr, *slowFirst = nullptr;
    const FabricOutcome *fewest = nullptr, *most = nullptr;
    const FabricOutcome *quickToken = nullptr, *slowToken = nullptr;
    const double ttft = spread(&FabricOutcome::ttftSeconds, fastFirst, slowFirst);
    const double tokens = spread(&FabricOutcome::servedTokensPerSecondPerGpu, fewest, most);
    const double tpot = spread(&FabricOutcome::tpotSeconds, quickToken, slowToken);
    const auto ms = [](double seconds) {
        return fixed(seconds * 1e3, seconds < 0.01 ? 2 : 1) + " ms";
    };
    const auto perGpu = [](double rate) { return fixed(rate, rate < 100 ? 1 : 0) + " tokens/s"; };
    bool usesFabric = false;
    for (const FabricOutcome* o : serving)
        usesFabric = usesFabric || o->servingUsesFabric;
    const bool matters = std::max({ttft, tokens, tpot}) > kServingFabricMatters;
    if (!matters)
        return {std::string("For serving, the fabric does not matter: ") +
                    (usesFabric ? "the KV hand-over and expert traffic it carries"
                                : "every replica stays inside its servers' scale-up domain, so "
                                  "the fabric carries nothing of it, and the figures") +
                    " stay within " + percent(kServingFabricMatters) + " on every fabric (" +
                    ms(slowFirst->ttftSeconds) + " to first token, " +
                    perGpu(fewest->servedTokensPerSecondPerGpu) + " per GPU).",
                false};
    std::string sentence = "For serving, the fabric matters: ";
    if (ttft > kServingFabricMatters)
        sentence += "time to first token runs from " + ms(fastFirst->ttftSeconds) + " on " +
                    fastFirst->fabricName + " to " + ms(slowFirst->ttftSeconds) + " on " +
                    slowFirst->fabricName;
    if (tokens > kServingFabricMatters)
        sentence += std::string(ttft > kServingFabricMatters ? ", and " : "") + "each GPU serves " +
                    perGpu(most->servedTokensPerSecondPerGpu) + " on " + most->fabricName +
                    " against " + perGpu(fewest->servedTokensPerSecondPerGpu) + " on " +
                    fewest->fabricName;
    if (ttft <= kServingFabricMatters && tokens <= kServingFabricMatters)
        sentence += "time per output token runs from " + ms(quickToken->tpotSeconds) + " on " +
                    quickToken->fabricName + " to " + ms(slowToken->tpotSeconds) + " on " +
                    slowToken->fabricName;
    return {sentence + ".", true};
}

} // namespace fabriclab::model
