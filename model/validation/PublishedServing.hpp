// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"

#include <nlohmann/json.hpp>

#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

/// Published LLM serving figures (resources/validation/serving.json): TensorRT-LLM's and
/// NIM's tables, each run with its model, GPU, lengths, batch and split.
namespace fabriclab::model {

/// What a serving figure measures, as `run --json`'s "serving" names it.
enum class ServingMetric { TtftMs, TpotMs, OutputTokensPerSecondPerGpu };

struct ServingFigure {
    std::string id;
    std::string source;
    std::string reliability;
    std::string why;
    std::string finding; ///< a known miss says why it misses
    /// The GPU constant the row was solved for ("layerOverheadUs" or "kvRead",
    /// scripts/fit-serving.py): a fit row. Empty for a check row.
    std::string calibrates;
    std::string fabric;
    std::string gpu;
    int servers = 1;
    int gpusPerServer = 8;
    nlohmann::json serving; ///< the design file's "serving", as the table configures it
    ServingMetric metric = ServingMetric::TpotMs;
    double published = 0;
    double tolerance = 0;

    bool knownMiss() const { return !finding.empty(); }
    bool fit() const { return !calibrates.empty(); }
};

std::string_view toString(ServingMetric metric);

/// Throws std::invalid_argument naming the case and field at fault.
std::vector<ServingFigure> readServingFigures(std::string_view json);
const std::vector<ServingFigure>& builtinServingFigures();

/// The figure's servers on a rail-optimized leaf-spine of the named fabric, serving as the
/// table configures it.
std::string servingFigureDesign(const ServingFigure& figure);

struct ServingCheck {
    double value = 0; ///< the metric as FabricLab predicts it
    double error = 0; ///< relative to the published figure
    bool withinTolerance = false;
};

/// Runs the design's serving estimate (runDesign without the bisection).
ServingCheck checkServingFigure(const ServingFigure& figure, const Catalog& catalog,
                                std::stop_token stop = {});

} // namespace fabriclab::model
