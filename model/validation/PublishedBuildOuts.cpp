// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/PublishedBuildOuts.hpp"

#include "model/catalog/EmbeddedCatalogs.hpp"
#include "model/cost/CostModel.hpp"
#include "model/io/DesignFile.hpp"
#include "model/validation/FigureFile.hpp"

#include <cmath>

namespace fabriclab::model {

namespace {

constexpr const char* kOrigin = "published build-outs";

BuildOutParts readParts(const JsonCursor& c) {
    BuildOutParts parts{false, false, false};
    if (c.size() == 0)
        c.fail("expected at least one of \"switches\", \"nics\", \"cables\"");
    for (std::size_t i = 0; i < c.size(); ++i) {
        const JsonCursor part = c.at(i);
        const std::string name = part.string();
        if (name == "switches")
            parts.switches = true;
        else if (name == "nics")
            parts.nics = true;
        else if (name == "cables")
            parts.cables = true;
        else
            part.fail("expected \"switches\", \"nics\" or \"cables\"");
    }
    return parts;
}

BuildOutFigure readBuildOut(const JsonCursor& c) {
    c.allowOnly({"id", "set", "source", "reliability", "note", "finding", "fabric", "generator",
                 "parts", "published", "tolerance"});
    BuildOutFigure f;
    f.id = c["id"].string();
    f.set = c["set"].string();
    if (f.set != "fit" && f.set != "check")
        c["set"].fail("expected \"fit\" or \"check\"");
    f.source = figures::requiredSource(c);
    f.reliability = c.has("reliability") ? c["reliability"].string() : std::string();
    f.note = c.has("note") ? c["note"].string() : std::string();
    f.finding = c.has("finding") ? c["finding"].string() : std::string();
    f.fabric = c["fabric"].string();
    const JsonCursor generator = c["generator"];
    if (!generator.isObject())
        generator.fail("expected the design file's generator object");
    f.generator = generator.value();
    f.parts = readParts(c["parts"]);
    const JsonCursor p = c["published"];
    p.allowOnly({"usdPerGpu", "switches"});
    f.publishedUsdPerGpu = p["usdPerGpu"].number(0.01, 1e7);
    if (p.has("switches"))
        f.publishedSwitches = static_cast<int>(p["switches"].integer(0, 10'000'000));
    f.tolerance = c["tolerance"].number(0, 10);
    return f;
}

} // namespace

std::vector<BuildOutFigure> readBuildOutFigures(std::string_view json) {
    return figures::readCases<BuildOutFigure>(json, kOrigin, readBuildOut);
}

const std::vector<BuildOutFigure>& builtinBuildOutFigures() {
    static const std::vector<BuildOutFigure> figures =
        readBuildOutFigures(embedded::publishedBuildOutsJson());
    return figures;
}

BuildOutCheck checkBuildOutFigure(const BuildOutFigure& f, const Catalog& catalog) {
    const nlohmann::json file = {{"format", "fabriclab-design"},
                                 {"version", 1},
                                 {"name", f.id},
                                 {"fabric", f.fabric},
                                 {"generator", f.generator}};
    const Design design = parseDesign(file.dump(), f.id, catalog);
    const CostReport cost = estimateCost(design.topology, design.fabric.spec, catalog.prices());
    const double counted = (f.parts.switches ? cost.switches.value : 0) +
                           (f.parts.nics ? cost.nics.value : 0) +
                           (f.parts.cables ? cost.cables.value : 0);
    BuildOutCheck check;
    check.usdPerGpu = counted / design.topology.gpuCount();
    const TierCounts tiers = design.topology.switchCounts();
    check.switches = tiers.leaf + tiers.spine + tiers.core;
    check.switchesMatch = f.publishedSwitches < 0 || check.switches == f.publishedSwitches;
    check.error = (check.usdPerGpu - f.publishedUsdPerGpu) / f.publishedUsdPerGpu;
    check.withinTolerance = std::abs(check.error) <= f.tolerance && check.switchesMatch;
    return check;
}

} // namespace fabriclab::model
