// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/advice/FabricVerdict.hpp"
#include "model/cost/Ownership.hpp"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>

namespace fabriclab::views {

/// One fabric's line in a comparison: the design run on that fabric, or why it could not be.
struct CompareRow {
    QString fabricId;   ///< catalog id, e.g. "ib-ndr"
    QString fabricName; ///< for people, from the catalog
    /// How the design was built on this fabric (model::DesignOnFabric::basis): regenerated
    /// with the fabric's own switches, or drawn and priced with its parts.
    QString basis;
    /// Why the engine refused the design on this fabric, in its words; empty when it ran.
    QString error;
    QStringList warnings;                ///< what the figures leave out (engine sentences)
    double theoreticalBisectionGbps = 0; ///< min cut of the worst halving, Gb/s
    double effectiveBisectionGbps = 0;   ///< simulated permutation traffic across it, Gb/s
    double collectiveSeconds = 0;        ///< the design's collective, s
    bool hasWorkload = false; ///< step time and training figures in `outcome` are meaningful
    /// The figures the verdict weighs, copied from the engine's report: step time (s),
    /// busbw (GB/s), capex (USD), the cluster's lifetime cost and cost per token.
    model::FabricOutcome outcome;
    model::OwnershipCost ownership; ///< the whole cluster over its life on this fabric

    bool ok() const { return error.isEmpty(); }
};

/// A finished comparison: every fabric run on one snapshot of the design, and the verdict
/// model::fabricVerdict reached on the fabrics that ran.
struct CompareResult {
    quint64 revision = 0;   ///< the document revision the snapshot was taken at
    QList<CompareRow> rows; ///< in the order the comparison lists its fabrics
    model::FabricVerdict verdict;
    model::OwnershipMode mode = model::OwnershipMode::Owned; ///< how the clusters were priced
};

/// Shared read-only between the controller, the table, the chart and the verdict.
using CompareResultPtr = std::shared_ptr<const CompareResult>;

} // namespace fabriclab::views

Q_DECLARE_METATYPE(fabriclab::views::CompareResultPtr)
