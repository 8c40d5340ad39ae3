// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/PublishedStepTimes.hpp"

#include "model/catalog/EmbeddedCatalogs.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"
#include "model/validation/FigureFile.hpp"

#include <cmath>
#include <stdexcept>

namespace fabriclab::model {

namespace {

constexpr const char* kOrigin = "published step times";
/// Past what two tiers of radix-64 switches hold at 8 NICs per server.
constexpr int kLeafSpineServers = 256;

StepFigure readStep(const JsonCursor& c) {
    c.allowOnly({"id", "set", "source", "reliability", "why", "finding", "fabric", "gpu", "servers",
                 "gpusPerServer", "nicsPerServer", "workload", "published", "tolerance",
                 "calibrates"});
    StepFigure f;
    f.id = c["id"].string();
    if (c["set"].string() != "check")
        c["set"].fail("every step-time figure is a check");
    f.source = figures::requiredSource(c);
    f.reliability = c.has("reliability") ? c["reliability"].string() : std::string();
    f.why = c["why"].string();
    f.finding = c.has("finding") ? c["finding"].string() : std::string();
    if (c.has("calibrates")) {
        f.calibrates = c["calibrates"].string();
        if (f.calibrates != "gemmEfficiency")
            c["calibrates"].fail("expected \"gemmEfficiency\", the only constant step times fit");
    }
    f.fabric = c["fabric"].string();
    f.gpu = c["gpu"].string();
    f.servers = static_cast<int>(c["servers"].integer(1, 100000));
    if (c.has("gpusPerServer"))
        f.gpusPerServer = static_cast<int>(c["gpusPerServer"].integer(1, 1024));
    if (c.has("nicsPerServer"))
        f.nicsPerServer = static_cast<int>(c["nicsPerServer"].integer(1, 1024));
    const JsonCursor workload = c["workload"];
    if (!workload.isObject())
        workload.fail("expected the design file's workload object");
    f.workload = workload.value();
    f.publishedSeconds = c["published"].number(1e-6, 1e7);
    f.tolerance = c["tolerance"].number(0, 10);
    return f;
}

} // namespace

std::vector<StepFigure> readStepFigures(std::string_view json) {
    return figures::readCases<StepFigure>(json, kOrigin, readStep);
}

const std::vector<StepFigure>& builtinStepFigures() {
    static const std::vector<StepFigure> figures =
        readStepFigures(embedded::publishedStepTimesJson());
    return figures;
}

std::string stepFigureDesign(const StepFigure& f) {
    const nlohmann::json generator = {
        {"kind", f.servers > kLeafSpineServers ? "fat-tree" : "leaf-spine"},
        {"servers", f.servers},
        {"gpusPerServer", f.gpusPerServer},
        {"nicsPerServer", f.nicsPerServer},
        {"nicGbps", 400},
        {"railOptimized", true},
        {"leafRadix", 64},
        {"spineRadix", 64},
        {"coreRadix", 64},
        {"oversubscription", 1.0}};
    const nlohmann::json design = {
        {"format", "fabriclab-design"}, {"version", 1},           {"name", f.id},
        {"fabric", f.fabric},           {"generator", generator}, {"workload", f.workload}};
    return design.dump();
}

StepCheck checkStepFigure(const StepFigure& f, const Catalog& catalog, std::stop_token stop) {
    const Design design = parseDesign(stepFigureDesign(f), f.id, catalog);
    RunOptions options;
    options.bisection = false;
    options.bisectionSeeds = 1;
    options.stop = std::move(stop);
    const RunReport report = runDesign(design, catalog, options);
    if (!report.step)
        throw std::invalid_argument(f.id + ": the design's workload gave no training step");
    StepCheck check;
    check.stepSeconds = report.step->stepSeconds;
    check.computeSeconds = report.step->computeSeconds;
    check.exposedSeconds = report.step->exposedCommSeconds;
    check.error = (check.stepSeconds - f.publishedSeconds) / f.publishedSeconds;
    check.withinTolerance = std::abs(check.error) <= f.tolerance;
    return check;
}

} // namespace fabriclab::model
