// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Failures.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// One step of a presentation: the design shown on a fabric, at an oversubscription
/// (generated designs), with failures, beside two charts. A presenter saves steps from
/// the current state and walks through them in presentation mode; the design file keeps
/// them, so a story can be shown again.
struct StoryStep {
    std::string title;
    std::string fabric;                     ///< catalog fabric id
    std::optional<double> oversubscription; ///< leaf down:up the generator builds
    std::vector<Failure> failures;
    std::vector<std::string> charts; ///< up to kStoryCharts names from storyChartNames()
};

inline constexpr std::size_t kMaxStorySteps = 500;
inline constexpr std::size_t kStoryCharts = 2;

/// The charts a story step may show beside the canvas, by the names exports use.
inline constexpr std::array<std::string_view, 7> kStoryChartNames{
    "bisection", "collective-throughput", "busbw-vs-size", "step-time", "cost",
    "scaling",   "across-sites"};
bool isStoryChart(std::string_view name);

struct Design;
/// The design's current state as a step: its fabric, its generator's oversubscription,
/// its failures, and the charts asked for (unknown names and any beyond two dropped).
StoryStep storyStepOf(const Design& design, std::string title, std::vector<std::string> charts);

} // namespace fabriclab::model
