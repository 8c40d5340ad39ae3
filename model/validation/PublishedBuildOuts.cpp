// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/PublishedBuildOuts.hpp"

#include "model/catalog/EmbeddedCatalogs.hpp"
#include "model/cost/CostModel.hpp"
#include "model/validation/FigureFile.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

namespace fabriclab::model {

namespace {

constexpr const char* kOrigin = "published build-outs";

/// Each part's name in the file and its flag.
constexpr std::pair<std::string_view, bool BuildOutParts::*> kParts[] = {
    {"switches", &BuildOutParts::switches},
    {"nics", &BuildOutParts::nics},
    {"cables", &BuildOutParts::cables}};

BuildOutParts readParts(const JsonCursor& c) {
    BuildOutParts parts{false, false, false};
    if (c.size() == 0)
        c.fail("expected at least one of \"switches\", \"nics\", \"cables\"");
    for (std::size_t i = 0; i < c.size(); ++i) {
        const JsonCursor part = c.at(i);
        const std::string name = part.string();
        const auto* known = std::find_if(std::begin(kParts), std::end(kParts),
                                         [&](const auto& entry) { return entry.first == name; });
        if (known == std::end(kParts))
            part.fail("expected \"switches\", \"nics\" or \"cables\"");
        parts.*(known->second) = true;
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

std::vector<std::string_view> partNames(const BuildOutParts& parts) {
    std::vector<std::string_view> names;
    for (const auto& [name, flag] : kParts)
        if (parts.*flag)
            names.push_back(name);
    return names;
}

std::vector<BuildOutFigure> readBuildOutFigures(std::string_view json) {
    return figures::readCases<BuildOutFigure>(json, kOrigin, readBuildOut);
}

const std::vector<BuildOutFigure>& builtinBuildOutFigures() {
    static const std::vector<BuildOutFigure> figures =
        readBuildOutFigures(embedded::publishedBuildOutsJson());
    return figures;
}

BuildOutCheck checkBuildOutFigure(const BuildOutFigure& f, const Catalog& catalog) {
    const Design design = figures::generatedDesign(f.id, f.fabric, f.generator, catalog);
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
