// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

/// Published build-outs (resources/validation/build-outs.json): a fabric's cost per GPU as
/// a priced build states it, set against the bill of materials FabricLab draws up for the
/// same generated fabric. A case counts the parts its source counts (a sheet whose server
/// price includes the NICs leaves them out), and may state its switch count too.
namespace fabriclab::model {

struct BuildOutParts {
    bool switches = true;
    bool nics = true;
    bool cables = true; ///< cables and transceivers
};

/// The parts `parts` counts, as the file names them ("switches", "nics", "cables").
std::vector<std::string_view> partNames(const BuildOutParts& parts);

struct BuildOutFigure {
    std::string id;
    std::string set; ///< "fit" (catalog prices were taken from it) or "check"
    std::string source;
    std::string reliability;
    std::string note;
    std::string finding; ///< a known miss says why it misses
    std::string fabric;  ///< catalog fabric id
    nlohmann::json generator;
    BuildOutParts parts;
    double publishedUsdPerGpu = 0;
    int publishedSwitches = -1; ///< -1: not stated
    double tolerance = 0;
    bool isCheck() const { return set == "check"; }
    bool knownMiss() const { return !finding.empty(); }
};

/// Throws std::invalid_argument naming the case and field at fault.
std::vector<BuildOutFigure> readBuildOutFigures(std::string_view json);
const std::vector<BuildOutFigure>& builtinBuildOutFigures();

struct BuildOutCheck {
    double usdPerGpu = 0; ///< the parts the case counts, per GPU
    int switches = 0;     ///< every tier
    double error = 0;     ///< relative to the published cost per GPU
    bool switchesMatch = true;
    bool withinTolerance = false; ///< cost within tolerance and, where stated, switches exact
};

/// Generates the fabric and prices it with the built-in price catalog (no simulation).
BuildOutCheck checkBuildOutFigure(const BuildOutFigure& figure, const Catalog& catalog);

} // namespace fabriclab::model
