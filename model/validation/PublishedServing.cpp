// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/PublishedServing.hpp"

#include "model/catalog/EmbeddedCatalogs.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"
#include "model/validation/FigureFile.hpp"

#include <cmath>
#include <stdexcept>

namespace fabriclab::model {

namespace {

constexpr const char* kOrigin = "published serving figures";

ServingFigure readServing(const JsonCursor& c) {
    c.allowOnly({"id", "set", "calibrates", "source", "reliability", "fabric", "gpu", "servers",
                 "gpusPerServer", "serving", "metric", "published", "tolerance", "why", "finding"});
    ServingFigure f;
    f.id = c["id"].string();
    const std::string set = c["set"].string();
    if (set != "fit" && set != "check")
        c["set"].fail("expected \"fit\" or \"check\"");
    if (c.has("calibrates")) {
        f.calibrates = c["calibrates"].string();
        if (f.calibrates != "layerOverheadUs" && f.calibrates != "kvRead")
            c["calibrates"].fail("expected \"layerOverheadUs\" or \"kvRead\", the constants "
                                 "serving fits");
    }
    if ((set == "fit") != f.fit())
        c["set"].fail("a fit row names the constant it calibrates, a check row none");
    f.source = figures::requiredSource(c);
    f.reliability = c.has("reliability") ? c["reliability"].string() : std::string();
    f.why = c["why"].string();
    f.finding = c.has("finding") ? c["finding"].string() : std::string();
    f.fabric = c["fabric"].string();
    f.gpu = c["gpu"].string();
    f.servers = static_cast<int>(c["servers"].integer(1, 100000));
    if (c.has("gpusPerServer"))
        f.gpusPerServer = static_cast<int>(c["gpusPerServer"].integer(1, 1024));
    const JsonCursor serving = c["serving"];
    if (!serving.isObject())
        serving.fail("expected the design file's serving object");
    f.serving = serving.value();
    const std::string metric = c["metric"].string();
    if (metric == "ttftMs")
        f.metric = ServingMetric::TtftMs;
    else if (metric == "tpotMs")
        f.metric = ServingMetric::TpotMs;
    else if (metric == "outputTokensPerSecondPerGpu")
        f.metric = ServingMetric::OutputTokensPerSecondPerGpu;
    else
        c["metric"].fail("expected \"ttftMs\", \"tpotMs\" or \"outputTokensPerSecondPerGpu\"");
    f.published = c["published"].number(1e-6, 1e9);
    f.tolerance = c["tolerance"].number(0, 10);
    return f;
}

} // namespace

std::string_view toString(ServingMetric metric) {
    switch (metric) {
    case ServingMetric::TtftMs:
        return "ttftMs";
    case ServingMetric::TpotMs:
        return "tpotMs";
    case ServingMetric::OutputTokensPerSecondPerGpu:
        return "outputTokensPerSecondPerGpu";
    }
    return "?";
}

std::vector<ServingFigure> readServingFigures(std::string_view json) {
    return figures::readCases<ServingFigure>(json, kOrigin, readServing);
}

const std::vector<ServingFigure>& builtinServingFigures() {
    static const std::vector<ServingFigure> figures =
        readServingFigures(embedded::publishedServingJson());
    return figures;
}

std::string servingFigureDesign(const ServingFigure& f) {
    const nlohmann::json generator = {
        {"kind", "leaf-spine"}, {"servers", f.servers}, {"gpusPerServer", f.gpusPerServer},
        {"nicsPerServer", 8},   {"nicGbps", 400},       {"railOptimized", true},
        {"leafRadix", 64},      {"spineRadix", 64},     {"oversubscription", 1.0}};
    const nlohmann::json design = {
        {"format", "fabriclab-design"}, {"version", 1},           {"name", f.id},
        {"fabric", f.fabric},           {"generator", generator}, {"serving", f.serving}};
    return design.dump();
}

ServingCheck checkServingFigure(const ServingFigure& f, const Catalog& catalog,
                                std::stop_token stop) {
    const Design design = parseDesign(servingFigureDesign(f), f.id, catalog);
    RunOptions options;
    options.bisection = false;
    options.bisectionSeeds = 1;
    options.stop = std::move(stop);
    const RunReport report = runDesign(design, catalog, options);
    if (!report.serving)
        throw std::invalid_argument(f.id + ": the design gave no serving estimate");
    const model::ServingEstimate& s = *report.serving;
    ServingCheck check;
    switch (f.metric) {
    case ServingMetric::TtftMs:
        check.value = s.ttftSeconds * 1e3;
        break;
    case ServingMetric::TpotMs:
        check.value = s.tpotSeconds * 1e3;
        break;
    case ServingMetric::OutputTokensPerSecondPerGpu:
        check.value = s.outputTokensPerSecondPerGpu;
        break;
    }
    check.error = (check.value - f.published) / f.published;
    check.withinTolerance = std::abs(check.error) <= f.tolerance;
    return check;
}

} // namespace fabriclab::model
