// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/validation/MeasuredLog.hpp"
#include "model/validation/ValidationReport.hpp"

#include <QString>
#include <QVariant>

class QStandardItemModel;

namespace fabriclab::views {

/// How the accuracy tables show a verdict: "within 10%", "outside 10%", "known miss", or a
/// known miss the model now meets.
QString verdictText(model::Verdict verdict, double tolerance);
/// Grey for a known miss, red for a new one; nothing within tolerance (Qt::ForegroundRole).
QVariant verdictBrush(model::Verdict verdict);
/// Sorts within tolerance first, then known misses, then new ones; 0 is within tolerance.
int verdictRank(model::Verdict verdict);

/// The training-step rows of a validation run as a table (published, FabricLab with its
/// compute and exposed fabric time, error, verdict; source and configuration in the
/// tooltip). Numbers sort by value (Qt::UserRole).
void fillStepTable(QStandardItemModel& table, const model::ValidationReport& report);

/// The reference-architecture rows: published and generated switch and cable counts per
/// tier, exact or not.
void fillSizingTable(QStandardItemModel& table, const model::ValidationReport& report);

/// The build-out rows: published and FabricLab cost per GPU of the parts the source counts,
/// error, switch counts, set and verdict (fit rows show the calibration, unjudged).
void fillCostTable(QStandardItemModel& table, const model::ValidationReport& report);

/// A team's nccl-tests log against FabricLab, a row per row of the log: collective, line,
/// size, measured and FabricLab busbw and time, error (of the time below 1 MiB, of the busbw
/// from there), tolerance and verdict, algorithm and protocol; rows not compared greyed.
void fillMeasuredTable(QStandardItemModel& table, const model::MeasuredComparison& comparison);

} // namespace fabriclab::views
