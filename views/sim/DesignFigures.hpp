// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/models/TopologySummary.hpp"

#include <QMetaType>
#include <QString>

namespace fabriclab::views {

/// The live figures the status bar shows for the design being edited.
struct DesignFigures {
    TopologySummary counts;
    double oversubscription = 1; ///< worst leaf, down : up; valid when measured
    /// False when no leaf has both servers and uplinks (an empty design, a single
    /// switch): there is no ratio to show, and 1:1 would claim one.
    bool oversubscriptionMeasured = false;
    double bisectionGbps = 0;  ///< theoretical min cut
    double bisectionRatio = 0; ///< of half the injection bandwidth
    /// Which halving of the servers was the worst ("halves by pod"): what the ratio is of.
    QString bisectionSplit;
    double capexUsd = 0; ///< fabric only
    double perGpuHourUsd = 0;
    int problems = 0; ///< unconnected servers, ports over radix, ...
    QString firstProblem;
};

} // namespace fabriclab::views

Q_DECLARE_METATYPE(fabriclab::views::DesignFigures)
