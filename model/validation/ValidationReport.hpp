// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/validation/PublishedArchitectures.hpp"
#include "model/validation/PublishedBuildOuts.hpp"
#include "model/validation/PublishedFigures.hpp"
#include "model/validation/PublishedStepTimes.hpp"

#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace fabriclab::model {

/// Which figures a validation run takes.
enum class FigureSet { All, Fit, Check };

/// Every figure of a set against the engine, with the score of each kind: collectives
/// (nccl-tests), training-step times, reference-architecture sizing and build-out cost.
/// Step times and sizing are all check figures; build-outs are fit or check.
struct ValidationReport {
    std::vector<PublishedFigure> figures;
    std::vector<FigureCheck> checks; ///< one per figure, in order
    ValidationScore score;
    std::vector<StepFigure> steps;
    std::vector<StepCheck> stepChecks;
    std::vector<ArchitectureFigure> architectures;
    std::vector<ArchitectureCheck> architectureChecks;
    std::vector<BuildOutFigure> buildOuts;
    std::vector<BuildOutCheck> buildOutChecks;
};

/// Runs the figures of `set`, calling `progress(done, total)` after each: the built-in
/// collectives, step times and sizing (those two only with All or Check) and the build-outs
/// of the set, or only the
/// collectives in `figures` when given (a user's own measurements). Stops early, with the
/// figures run so far, when `stop` is requested.
ValidationReport runValidation(const Catalog& catalog, FigureSet set = FigureSet::All,
                               std::stop_token stop = {},
                               const std::function<void(int, int)>& progress = {},
                               const std::vector<PublishedFigure>* figures = nullptr);

/// One line per figure (set, verdict, id, published, FabricLab, error, tolerance, algorithm
/// and protocol), then the score; then the step times and the sizing, each with its count.
std::string formatValidation(const ValidationReport& report);

/// {"score": {...}, "figures": [{id, set, published, measure, fabriclab, errorVsMiddle,
/// withinTolerance, knownMiss, algorithm, protocol, tolerance, source}, ...],
///  "stepTimes": [{id, publishedSeconds, fabriclabSeconds, ...}], "referenceArchitectures":
///  [{id, published, fabriclab, exact, source}], "buildOuts": [{id, set, parts,
///  publishedUsdPerGpu, fabriclabUsdPerGpu, error, tolerance, publishedSwitches,
///  fabriclabSwitches, withinTolerance, knownMiss, source}]}
std::string validationJson(const ValidationReport& report);

} // namespace fabriclab::model
