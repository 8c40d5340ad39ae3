// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/ValidationReport.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace fabriclab::model {

namespace {

template <typename Figure> bool inSet(const Figure& f, FigureSet set) {
    return set == FigureSet::All || (set == FigureSet::Check) == f.isCheck();
}

std::string published(const PublishedFigure& f) {
    char text[64];
    if (f.low == f.high)
        std::snprintf(text, sizeof text, "%g", f.low);
    else
        std::snprintf(text, sizeof text, "%g-%g", f.low, f.high);
    return text;
}

/// The verdict as the text report marks it: "pass*" is a known miss the model now meets.
const char* verdictText(bool withinTolerance, bool knownMiss) {
    switch (verdictOf(withinTolerance, knownMiss)) {
    case Verdict::Within:
        return "ok";
    case Verdict::KnownMissMet:
        return "pass*";
    case Verdict::KnownMiss:
        return "known";
    case Verdict::Miss:
        break;
    }
    return "MISS";
}

} // namespace

ValidationReport runValidation(const Catalog& catalog, FigureSet set, std::stop_token stop,
                               const std::function<void(int, int)>& progress,
                               const std::vector<PublishedFigure>* figures) {
    const std::vector<PublishedFigure>& all = figures ? *figures : builtinPublishedFigures();
    ValidationReport report;
    for (const PublishedFigure& f : all)
        if (inSet(f, set))
            report.figures.push_back(f);
    if (!figures && set != FigureSet::Fit) {
        report.steps = builtinStepFigures();
        report.architectures = builtinArchitectureFigures();
    }
    if (!figures)
        for (const BuildOutFigure& f : builtinBuildOutFigures())
            if (inSet(f, set))
                report.buildOuts.push_back(f);
    const int total = static_cast<int>(report.figures.size() + report.steps.size() +
                                       report.architectures.size() + report.buildOuts.size());
    int done = 0;
    const auto ran = [&] {
        if (progress)
            progress(++done, total);
    };
    for (const PublishedFigure& f : report.figures) {
        if (stop.stop_requested())
            break;
        report.checks.push_back(checkPublishedFigure(f, catalog, stop));
        ran();
    }
    for (const StepFigure& f : report.steps) {
        if (stop.stop_requested())
            break;
        report.stepChecks.push_back(checkStepFigure(f, catalog, stop));
        ran();
    }
    for (const ArchitectureFigure& f : report.architectures) {
        if (stop.stop_requested())
            break;
        report.architectureChecks.push_back(checkArchitectureFigure(f, catalog));
        ran();
    }
    for (const BuildOutFigure& f : report.buildOuts) {
        if (stop.stop_requested())
            break;
        report.buildOutChecks.push_back(checkBuildOutFigure(f, catalog));
        ran();
    }
    // A stopped run keeps what it ran, each list with its own checks.
    report.figures.resize(report.checks.size());
    report.steps.resize(report.stepChecks.size());
    report.architectures.resize(report.architectureChecks.size());
    report.buildOuts.resize(report.buildOutChecks.size());
    report.score = scoreFigures(report.figures, report.checks);
    report.score.stepCount = static_cast<int>(report.stepChecks.size());
    for (const StepCheck& c : report.stepChecks)
        report.score.stepWithin += c.withinTolerance;
    report.score.architectureCount = static_cast<int>(report.architectureChecks.size());
    for (const ArchitectureCheck& c : report.architectureChecks)
        report.score.architectureExact += c.exact;
    for (std::size_t i = 0; i < report.buildOuts.size(); ++i) {
        ValidationScore& s = report.score;
        const bool within = report.buildOutChecks[i].withinTolerance;
        if (report.buildOuts[i].isCheck()) {
            ++s.buildOutCount;
            s.buildOutWithin += within;
        } else {
            ++s.buildOutFitCount;
            s.buildOutFitWithin += within;
        }
    }
    return report;
}

std::string formatValidation(const ValidationReport& report) {
    std::string out = "# set   verdict  figure                                              "
                      "published  FabricLab    error  tolerance  algorithm protocol\n";
    char line[320];
    for (std::size_t i = 0; i < report.figures.size(); ++i) {
        const PublishedFigure& f = report.figures[i];
        const FigureCheck& c = report.checks[i];
        std::snprintf(line, sizeof line,
                      "  %-5s %-7s  %-50s %10s %10.1f %+7.1f%% %9.0f%%  %s %s%s\n", f.set.c_str(),
                      verdictText(c.withinTolerance, f.knownMiss()), f.id.c_str(),
                      published(f).c_str(), c.measured, 100 * c.errorVsMiddle, 100 * f.tolerance,
                      toString(c.algorithm).data(), toString(c.protocol).data(),
                      f.timeUs ? " (time, us)" : "");
        out += line;
    }
    const ValidationScore& s = report.score;
    std::snprintf(line, sizeof line,
                  "# check: %d of %d within tolerance, |error| mean %.1f%%, median %.1f%%; "
                  "fit: %d of %d\n",
                  s.checkWithin, s.checkCount, 100 * s.meanAbsCheckError,
                  100 * s.medianAbsCheckError, s.fitWithin, s.fitCount);
    out += line;
    out += "# busbw in GB/s unless marked; error against the middle of the published range;\n"
           "# known = a known miss, its finding written beside it in the figures file;\n"
           "# fit figures calibrated a constant and prove nothing; check figures were never "
           "tuned to.\n";
    if (!report.steps.empty()) {
        out += "\n# training step (check)                               published  FabricLab  "
               "(compute + exposed)    error  tolerance\n";
        for (std::size_t i = 0; i < report.steps.size(); ++i) {
            const StepFigure& f = report.steps[i];
            const StepCheck& c = report.stepChecks[i];
            std::snprintf(line, sizeof line,
                          "  %-7s %-45s %8.2f s %8.2f s  (%.2f + %.2f) %+7.1f%% %9.0f%%\n",
                          verdictText(c.withinTolerance, f.knownMiss()), f.id.c_str(),
                          f.publishedSeconds, c.stepSeconds, c.computeSeconds, c.exposedSeconds,
                          100 * c.error, 100 * f.tolerance);
            out += line;
        }
        std::snprintf(line, sizeof line, "# step time: %d of %d within tolerance\n",
                      report.score.stepWithin, report.score.stepCount);
        out += line;
    }
    if (!report.architectures.empty()) {
        out += "\n# reference architecture (check, exact)             published switches, "
               "cables  FabricLab\n";
        for (std::size_t i = 0; i < report.architectures.size(); ++i) {
            const ArchitectureFigure& f = report.architectures[i];
            const ArchitectureCheck& c = report.architectureChecks[i];
            std::snprintf(line, sizeof line,
                          "  %-7s %-40s %d/%d/%d, %lld/%lld/%lld  %d/%d/%d, %lld/%lld/%lld\n",
                          verdictText(c.exact, false), f.id.c_str(), f.switches.leaf,
                          f.switches.spine, f.switches.core, f.cables.server, f.cables.leafSpine,
                          f.cables.spineCore, c.switches.leaf, c.switches.spine, c.switches.core,
                          c.cables.server, c.cables.leafSpine, c.cables.spineCore);
            out += line;
        }
        std::snprintf(line, sizeof line,
                      "# sizing: %d of %d exact (leaf/spine/core switches, server/leaf-spine/"
                      "spine-core cables)\n",
                      report.score.architectureExact, report.score.architectureCount);
        out += line;
    }
    if (!report.buildOuts.empty()) {
        out += "\n# set   verdict  build-out, cost per GPU in USD          published  FabricLab"
               "    error  tolerance  switches (published/FabricLab), parts\n";
        for (std::size_t i = 0; i < report.buildOuts.size(); ++i) {
            const BuildOutFigure& f = report.buildOuts[i];
            const BuildOutCheck& c = report.buildOutChecks[i];
            std::string parts;
            for (const std::string_view name : partNames(f.parts)) {
                if (!parts.empty())
                    parts += '+';
                parts += name;
            }
            const std::string switches =
                f.publishedSwitches < 0 ? "-" : std::to_string(f.publishedSwitches);
            std::snprintf(
                line, sizeof line, "  %-5s %-7s  %-38s %10.0f %10.0f %+7.1f%% %9.0f%%  %s/%d, %s\n",
                f.set.c_str(), verdictText(c.withinTolerance, f.knownMiss()), f.id.c_str(),
                std::round(f.publishedUsdPerGpu), std::round(c.usdPerGpu), 100 * c.error,
                100 * f.tolerance, switches.c_str(), c.switches, parts.c_str());
            out += line;
        }
        const int fitCount = report.score.buildOutFitCount;
        const int fitWithin = report.score.buildOutFitWithin;
        // Appended piece by piece: GCC 12 warns (-Wrestrict) on " " + std::to_string(...).
        std::string summary = "# cost per GPU:";
        if (report.score.buildOutCount > 0) {
            summary.append(" ").append(std::to_string(report.score.buildOutWithin));
            summary.append(" of ").append(std::to_string(report.score.buildOutCount));
            summary.append(" check build-outs within tolerance").append(fitCount > 0 ? ";" : "");
        }
        if (fitCount > 0) {
            summary.append(" fit ").append(std::to_string(fitWithin));
            summary.append(" of ").append(std::to_string(fitCount));
            summary.append(" (they gave the price catalog its numbers)");
        }
        out.append(summary).append("\n");
    }
    return out;
}

std::string validationJson(const ValidationReport& report) {
    const ValidationScore& s = report.score;
    nlohmann::ordered_json out;
    out["score"] = {{"checkCount", s.checkCount},
                    {"checkWithin", s.checkWithin},
                    {"meanAbsCheckError", s.meanAbsCheckError},
                    {"medianAbsCheckError", s.medianAbsCheckError},
                    {"fitCount", s.fitCount},
                    {"fitWithin", s.fitWithin},
                    {"stepCount", s.stepCount},
                    {"stepWithin", s.stepWithin},
                    {"architectureCount", s.architectureCount},
                    {"architectureExact", s.architectureExact},
                    {"buildOutCount", s.buildOutCount},
                    {"buildOutWithin", s.buildOutWithin},
                    {"buildOutFitCount", s.buildOutFitCount},
                    {"buildOutFitWithin", s.buildOutFitWithin}};
    out["figures"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < report.figures.size(); ++i) {
        const PublishedFigure& f = report.figures[i];
        const FigureCheck& c = report.checks[i];
        out["figures"].push_back({{"id", f.id},
                                  {"set", f.set},
                                  {"measure", f.timeUs ? "timeUs" : "busBwGBps"},
                                  {"published", {f.low, f.high}},
                                  {"predicted", c.measured},
                                  {"error", c.errorVsMiddle},
                                  {"tolerance", f.tolerance},
                                  {"withinTolerance", c.withinTolerance},
                                  {"knownMiss", f.knownMiss()},
                                  {"algorithm", toString(c.algorithm)},
                                  {"protocol", toString(c.protocol)},
                                  {"source", f.source}});
    }
    out["stepTimes"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < report.steps.size(); ++i) {
        const StepFigure& f = report.steps[i];
        const StepCheck& c = report.stepChecks[i];
        out["stepTimes"].push_back({{"id", f.id},
                                    {"publishedStepSeconds", f.publishedSeconds},
                                    {"predictedStepSeconds", c.stepSeconds},
                                    {"computeSeconds", c.computeSeconds},
                                    {"exposedCommSeconds", c.exposedSeconds},
                                    {"error", c.error},
                                    {"tolerance", f.tolerance},
                                    {"withinTolerance", c.withinTolerance},
                                    {"knownMiss", f.knownMiss()},
                                    {"source", f.source}});
    }
    const auto counts = [](const TierCounts& s, const CableCounts& c) {
        return nlohmann::ordered_json{{"leaf", s.leaf},
                                      {"spine", s.spine},
                                      {"core", s.core},
                                      {"serverCables", c.server},
                                      {"leafSpineCables", c.leafSpine},
                                      {"spineCoreCables", c.spineCore}};
    };
    out["referenceArchitectures"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < report.architectures.size(); ++i) {
        const ArchitectureFigure& f = report.architectures[i];
        const ArchitectureCheck& c = report.architectureChecks[i];
        out["referenceArchitectures"].push_back({{"id", f.id},
                                                 {"published", counts(f.switches, f.cables)},
                                                 {"predicted", counts(c.switches, c.cables)},
                                                 {"exact", c.exact},
                                                 {"source", f.source}});
    }
    out["buildOuts"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < report.buildOuts.size(); ++i) {
        const BuildOutFigure& f = report.buildOuts[i];
        const BuildOutCheck& c = report.buildOutChecks[i];
        nlohmann::ordered_json parts = nlohmann::ordered_json::array();
        for (const std::string_view name : partNames(f.parts))
            parts.push_back(name);
        out["buildOuts"].push_back(
            {{"id", f.id},
             {"set", f.set},
             {"parts", parts},
             {"publishedPerGpuUsd", f.publishedUsdPerGpu},
             {"predictedPerGpuUsd", c.usdPerGpu},
             {"error", c.error},
             {"tolerance", f.tolerance},
             {"publishedSwitches", f.publishedSwitches < 0
                                       ? nlohmann::ordered_json(nullptr)
                                       : nlohmann::ordered_json(f.publishedSwitches)},
             {"predictedSwitches", c.switches},
             {"withinTolerance", c.withinTolerance},
             {"knownMiss", f.knownMiss()},
             {"source", f.source}});
    }
    return out.dump(2) + "\n";
}

} // namespace fabriclab::model
