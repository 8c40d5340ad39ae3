// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"

#include <nlohmann/json.hpp>

#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

/// Published training-step times (resources/validation/step-time.json): NeMo and Megatron
/// tables run with their own configuration and MFU. All are checks: nothing was tuned to them.
namespace fabriclab::model {

struct StepFigure {
    std::string id;
    std::string source;
    std::string reliability;
    std::string why;
    std::string finding; ///< a known miss says why it misses
    /// "gemmEfficiency" for a row of the fit set of the step time worked out from the
    /// hardware (scripts/fit-compute-efficiency.py): never a check of that prediction. Its
    /// check with the MFU the table prints stands, as the MFU path has no fitted constant.
    std::string calibrates;
    std::string fabric;
    std::string gpu;
    int servers = 0;
    int gpusPerServer = 8;
    int nicsPerServer = 8;
    nlohmann::json workload; ///< the design file's "workload", as the table configures it
    double publishedSeconds = 0;
    double tolerance = 0;

    bool knownMiss() const { return !finding.empty(); }
};

/// Throws std::invalid_argument naming the case and field at fault.
std::vector<StepFigure> readStepFigures(std::string_view json);
const std::vector<StepFigure>& builtinStepFigures();

/// The job's servers on a rail-optimized NDR-class leaf-spine (a fat-tree past what two
/// tiers of radix 64 hold), with the table's workload.
std::string stepFigureDesign(const StepFigure& figure);

struct StepCheck {
    double stepSeconds = 0;
    double computeSeconds = 0;
    double exposedSeconds = 0; ///< fabric time beyond the ideal fabric, not hidden by overlap
    double error = 0;          ///< relative to the published step
    bool withinTolerance = false;
};

/// Runs the design's training step (runDesign without the bisection).
StepCheck checkStepFigure(const StepFigure& figure, const Catalog& catalog,
                          std::stop_token stop = {});

} // namespace fabriclab::model
