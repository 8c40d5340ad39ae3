// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Design.hpp"
#include "model/report/RunReport.hpp"

#include <QMetaType>
#include <QString>

#include <memory>

namespace fabriclab::views {

/// One finished run of the engine on a snapshot of the document, shared read-only
/// between the worker that made it and every view that shows it.
struct RunResult {
    quint64 revision = 0; ///< the document revision the snapshot was taken at
    std::shared_ptr<const model::Design>
        design;                  ///< that snapshot: link ids in the report refer to it
    model::RunReport report;     ///< what runDesign computed; meaningful when error is empty
    QString error;               ///< why the engine refused the design, in its words
    double wallMilliseconds = 0; ///< how long the run took on its worker
    bool ok() const { return error.isEmpty(); }
};

using RunResultPtr = std::shared_ptr<const RunResult>;

} // namespace fabriclab::views

Q_DECLARE_METATYPE(fabriclab::views::RunResultPtr)
