// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/report/RunReport.hpp"

#include <QString>

#include <string>

namespace fabriclab::views {

/// What the dashboard hands every chart it feeds when a run's results arrive
/// (ChartPanel::showRunReport): the engine's report, and the effective bisection computed
/// again over more draws once that is in (null until then).
struct RunFeed {
    const model::RunReport& report;
    const model::EffectiveBisections* fullBisection = nullptr;
};

/// "allreduce of 1 GiB over 64 GPUs (ring, Simple)": the collective a report simulated.
QString collectiveName(const model::RunReport& report);
/// The engine's words ("cannot time the alltoall: ...") as a sentence.
QString engineSentence(const std::string& engine);

} // namespace fabriclab::views
