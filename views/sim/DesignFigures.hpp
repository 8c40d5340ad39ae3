// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "views/panels/TopologySummary.hpp"

#include <QMetaType>
#include <QString>

namespace fabriclab::views {

/// The live figures the status bar shows for the design being edited.
struct DesignFigures {
    TopologySummary counts;
    double oversubscription = 1; ///< worst leaf, down : up
    double bisectionGbps = 0;    ///< theoretical min cut
    double bisectionRatio = 0;   ///< of half the injection bandwidth
    double capexUsd = 0;         ///< fabric only
    double perGpuHourUsd = 0;
    int problems = 0; ///< unconnected servers, ports over radix, ...
    QString firstProblem;
};

} // namespace fabriclab::views

Q_DECLARE_METATYPE(fabriclab::views::DesignFigures)
