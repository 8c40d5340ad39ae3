// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/validation/PublishedFigures.hpp"

#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace fabriclab::model {

/// Which figures a validation run takes.
enum class FigureSet { All, Fit, Check };

/// Every figure of a set against the engine, with the score.
struct ValidationReport {
    std::vector<PublishedFigure> figures;
    std::vector<FigureCheck> checks; ///< one per figure, in order
    ValidationScore score;
};

/// Runs the figures of `set` (the built-in ones unless given), calling `progress(done, total)`
/// after each. Stops early, with the figures run so far, when `stop` is requested.
ValidationReport runValidation(const Catalog& catalog, FigureSet set = FigureSet::All,
                               std::stop_token stop = {},
                               const std::function<void(int, int)>& progress = {},
                               const std::vector<PublishedFigure>* figures = nullptr);

/// One line per figure (set, verdict, id, published, FabricLab, error, tolerance, algorithm
/// and protocol), then the score.
std::string formatValidation(const ValidationReport& report);

/// {"score": {...}, "figures": [{id, set, published, measure, fabriclab, errorVsMiddle,
/// withinTolerance, knownMiss, algorithm, protocol, tolerance, source}, ...]}
std::string validationJson(const ValidationReport& report);

} // namespace fabriclab::model
