// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/advice/PublishedFigure.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/design/CollectiveSpec.hpp"

#include <filesystem>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

/// The published nccl-tests figures FabricLab is held to (resources/validation/nccl-tests.json,
/// each with its source), and the engine run against them: what `fabriclab-cli validate`,
/// the app's accuracy view and the validation suite all report.
namespace fabriclab::model {

/// Reads a figures file (the format of resources/validation/nccl-tests.json). Throws
/// std::invalid_argument naming `origin`, the case and the field at fault.
std::vector<PublishedFigure> readPublishedFigures(std::string_view json,
                                                  const std::string& origin = "published figures");

/// True when `text` is a figures file in FabricLab's own format ({"about", "cases"}), not
/// nccl-tests output (model/io/NcclTestsLog): how `validate --figures` and the app's "Your
/// own figures" tell the two apart.
bool isPublishedFigureFile(std::string_view text);

/// A user's own figures file (measurements of their cluster, say), read from disk.
std::vector<PublishedFigure> loadPublishedFigures(const std::filesystem::path& path);

/// The figures compiled into FabricLab, read once.
const std::vector<PublishedFigure>& builtinPublishedFigures();

/// The design a figure is run on: a rail-optimized, non-blocking leaf-spine of the case's
/// servers, GPUs and NICs, as `fabriclab-design` JSON.
std::string publishedFigureDesign(const PublishedFigure& figure);

/// A figure against what the engine computes for it.
struct FigureCheck {
    double measured = 0; ///< FabricLab's busbw in GB/s, or time in microseconds
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    CollectiveProtocol protocol = CollectiveProtocol::Simple;
    double errorVsMiddle = 0; ///< relative to the middle of the published range
    double errorVsRange = 0;  ///< relative to the nearest end of the range; 0 inside it
    bool withinTolerance = false;
};

/// Runs the figure's collective at its size through runNcclTests, the function behind
/// `fabriclab-cli nccl-tests` and the app's bus-bandwidth chart.
FigureCheck checkPublishedFigure(const PublishedFigure& figure, const Catalog& catalog,
                                 std::stop_token stop = {});

/// How a validation run fares: counts per set and the spread of the check errors for the
/// collectives; the step times within their tolerance; the architectures sized exactly.
struct ValidationScore {
    int checkCount = 0;
    int checkWithin = 0;
    int fitCount = 0;
    int fitWithin = 0;
    double meanAbsCheckError = 0;   ///< |errorVsMiddle| over the check set
    double medianAbsCheckError = 0; ///< the same, median
    int stepCount = 0;
    int stepWithin = 0;
    int architectureCount = 0;
    int architectureExact = 0;
    int buildOutCount = 0;    ///< check build-outs
    int buildOutWithin = 0;   ///< of those, cost within tolerance and switch count exact
    int buildOutFitCount = 0; ///< fit build-outs (shown, not counted as evidence)
    int buildOutFitWithin = 0;
};

/// A figure's standing: a known miss stays in its set and in its count, marked, so that a
/// reader tells "the model is off here, and says why" from a new failure, and sees the day
/// the model meets it.
enum class Verdict { Within, Miss, KnownMiss, KnownMissMet };
Verdict verdictOf(bool withinTolerance, bool knownMiss);

ValidationScore scoreFigures(const std::vector<PublishedFigure>& figures,
                             const std::vector<FigureCheck>& checks);

} // namespace fabriclab::model
