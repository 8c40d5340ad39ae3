// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/validation/ValidationReport.hpp"

class QStandardItemModel;

namespace fabriclab::views {

/// The training-step rows of a validation run as a table (published, FabricLab with its
/// compute and exposed fabric time, error, verdict; source and configuration in the
/// tooltip). Numbers sort by value (Qt::UserRole).
void fillStepTable(QStandardItemModel& table, const model::ValidationReport& report);

/// The reference-architecture rows: published and generated switch and cable counts per
/// tier, exact or not.
void fillSizingTable(QStandardItemModel& table, const model::ValidationReport& report);

} // namespace fabriclab::views
