// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/ScalingStudy.hpp"

#include "model/report/FabricComparison.hpp"

#include "model/core/TextFormat.hpp"

#include "model/core/Cancellation.hpp"
#include "model/report/FabricComparison.hpp"
#include "model/report/RunReport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <stdexcept>

namespace fabriclab::model {
namespace {

/// The comparison fabric when none is given: the catalog's reference fabric of the other
/// transport (Ethernet against InfiniBand and back, the choice the reference articles
/// weigh); none when the catalog marks no such fabric.
std::vector<std::string> comparisonFor(const Fabric& fabric, const Catalog& catalog) {
    for (const std::string& id : comparableFabrics(catalog)) {
        const Fabric& other = *catalog.findFabric(id);
        if (other.transportReference && other.transport != fabric.transport)
            return {id};
    }
    return {};
}

/// The design's count times 1/8 .. 4, whole and at least 2; above kDefaultMaxGpusAbove
/// GPUs, none above the design's own.
std::vector<int> defaultServers(const Design& design) {
    const int servers = design.generator->servers;
    const long long gpus = static_cast<long long>(servers) * design.generator->gpusPerServer;
    const int maxShift = gpus > kDefaultMaxGpusAbove ? 0 : 2;
    std::vector<int> counts;
    for (int shift = -3; shift <= maxShift; ++shift) {
        const long long count =
            shift < 0 ? servers >> -shift : static_cast<long long>(servers) << shift;
        const bool whole = shift >= 0 || count << -shift == servers;
        if (whole && count >= 2 && count <= 0x7fffffff)
            counts.push_back(static_cast<int>(count));
    }
    return counts;
}

} // namespace

ScalingStudy scalingStudy(const Design& design, const Catalog& catalog,
                          const ScalingOptions& options) {
    ScalingStudy study;
    if (!design.generator) {
        study.note = "This design was drawn by hand, without a generator to rebuild it at "
                     "other sizes, so it cannot be scaled.";
        return study;
    }
    if (!design.workload) {
        study.note = "This design has no workload, so there is no training step to scale: "
                     "add one to see what a faster fabric saves.";
        return study;
    }

    study.fabricIds = options.fabricIds;
    if (study.fabricIds.empty()) {
        study.fabricIds = {design.fabric.spec.id};
        for (std::string& id : comparisonFor(design.fabric.spec, catalog))
            study.fabricIds.push_back(std::move(id));
    }
    // The design's own fabric may be spelled out inline; every other id names the catalog.
    const auto runOn = [&](const std::string& id) -> std::optional<std::string> {
        if (id == design.fabric.spec.id)
            return std::nullopt;
        return id;
    };
    for (const std::string& id : study.fabricIds)
        if (runOn(id) && !catalog.findFabric(id))
            throw std::invalid_argument(catalog.unknownFabric(id));

    std::vector<int> counts = options.servers.empty() ? defaultServers(design) : options.servers;
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());

    // Size by size, every fabric at once, so a size one fabric cannot evaluate is left out
    // for all of them; then reordered fabric-major.
    std::vector<std::vector<ScalingPoint>> byFabric(study.fabricIds.size());
    for (const int servers : counts) {
        throwIfStopped(options.stop);
        std::string why;
        Design sized;
        try {
            sized = withServers(design, servers);
        } catch (const std::invalid_argument& e) {
            why = e.what();
        }
        std::vector<ScalingPoint> row;
        for (std::size_t f = 0; why.empty() && f < study.fabricIds.size(); ++f) {
            RunOptions run;
            run.trainTokens = options.trainTokens;
            run.stop = options.stop;
            run.bisection = false; // the study reads step, collective and cost only
            try {
                // Another fabric builds the design with its own switches, as a comparison
                // does, so each is priced like for like.
                const std::optional<std::string> other = runOn(study.fabricIds[f]);
                const RunReport report =
                    other ? runDesign(
                                designOnFabric(sized, *catalog.findFabric(*other), catalog).design,
                                catalog, run)
                          : runDesign(sized, catalog, run);
                if (!report.step || !report.training)
                    throw std::invalid_argument("no step time");
                row.push_back({report.servers, report.gpus, study.fabricIds[f],
                               report.step->stepSeconds, report.step->commToCompute,
                               report.collective.busBwGBps, report.cost.capex.value,
                               report.cost.perGpuHour, report.training->gpuHours,
                               report.training->costUsd, report.ownership.perMillionTokensUsd});
            } catch (const std::invalid_argument& e) {
                why = study.fabricIds[f] + ": " + e.what();
            }
        }
        if (!why.empty()) {
            study.skipped.push_back(std::to_string(servers) + " servers: " + why);
            continue;
        }
        for (std::size_t f = 0; f < row.size(); ++f)
            byFabric[f].push_back(std::move(row[f]));
    }
    for (auto& points : byFabric)
        std::move(points.begin(), points.end(), std::back_inserter(study.points));

    weighBreakEven(study);
    return study;
}

void weighBreakEven(ScalingStudy& study) {
    study.breakEvenGpus.reset();
    study.fasterId.clear();
    study.cheaperId.clear();
    if (study.fabricIds.size() < 2) {
        study.note = "One fabric: there is no faster fabric to weigh against a cheaper one.";
        return;
    }
    if (study.points.empty()) {
        study.note = "No size of the design could be evaluated, so there is no break-even.";
        return;
    }
    if (study.points.size() % study.fabricIds.size() != 0)
        throw std::invalid_argument("a scaling study needs every fabric at the same sizes");
    // Points are fabric-major and complete: fabric f's point at size i is f x sizes + i.
    const std::size_t sizes = study.points.size() / study.fabricIds.size();
    const ScalingPoint* a = &study.points[0];
    const ScalingPoint* b = &study.points[sizes];
    double capexA = 0;
    double capexB = 0;
    double hoursA = 0;
    double hoursB = 0;
    for (std::size_t i = 0; i < sizes; ++i) {
        capexA += a[i].capexUsd;
        capexB += b[i].capexUsd;
        hoursA += a[i].trainGpuHours;
        hoursB += b[i].trainGpuHours;
    }
    // Cheaper by capex over the sizes; on a tie, the faster one is the baseline.
    const bool aCheaper = capexA < capexB || (capexA == capexB && hoursA <= hoursB);
    const ScalingPoint* cheaper = aCheaper ? a : b;
    const ScalingPoint* faster = aCheaper ? b : a;
    study.cheaperId = cheaper->fabricId;
    study.fasterId = faster->fabricId;

    for (std::size_t i = 0; i < sizes; ++i)
        if (!(cheaper[i].perMillionTokensUsd > 0) || !(faster[i].perMillionTokensUsd > 0)) {
            study.note = "The price list has no server price for this GPU, so the fabrics "
                         "cannot be weighed by cost per trained token.";
            return;
        }
    for (std::size_t i = 0; i < sizes; ++i)
        if (faster[i].perMillionTokensUsd < cheaper[i].perMillionTokensUsd) {
            study.breakEvenGpus = faster[i].gpus;
            study.note = "From " + grouped(faster[i].gpus) + " GPUs " + study.fasterId +
                         " costs less per trained token over the cluster's life (" +
                         usdPerMillionTokens(faster[i].perMillionTokensUsd) + " against " +
                         usdPerMillionTokens(cheaper[i].perMillionTokensUsd) +
                         " per million tokens): the GPU time it saves repays its " +
                         usd(faster[i].capexUsd - cheaper[i].capexUsd) + " capex premium over " +
                         study.cheaperId + ".";
            return;
        }
    bool everFaster = false;
    for (std::size_t i = 0; i < sizes; ++i)
        everFaster = everFaster || faster[i].trainGpuHours < cheaper[i].trainGpuHours;
    const std::string range =
        grouped(cheaper[0].gpus) + " to " + grouped(cheaper[sizes - 1].gpus) + " GPUs";
    if (!everFaster) {
        study.note = study.cheaperId + " costs less and trains at least as fast as " +
                     study.fasterId + " from " + range + ": there is no premium to pay back.";
        return;
    }
    const ScalingPoint& last = faster[sizes - 1];
    study.note = "From " + range + " " + study.fasterId +
                 " trains faster but costs more per trained token over the cluster's life than " +
                 study.cheaperId + " (at " + grouped(last.gpus) +
                 " GPUs: " + usdPerMillionTokens(last.perMillionTokensUsd) + " against " +
                 usdPerMillionTokens(cheaper[sizes - 1].perMillionTokensUsd) +
                 " per million tokens).";
}

} // namespace fabriclab::model
