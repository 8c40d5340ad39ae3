// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/advice/FabricVerdict.hpp"
#include "model/advice/PublishedFigure.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/cost/Ownership.hpp"
#include "model/design/Design.hpp"
#include "model/report/RunReport.hpp"

#include <optional>
#include <string>
#include <vector>

/// One design set side by side on several fabrics, each priced like for like: what the
/// app's Compare view, `fabriclab-cli compare` and the report all show.
namespace fabriclab::model {

/// The design as it would be built on another fabric, and how it was arrived at.
struct DesignOnFabric {
    Design design;
    /// How the design was carried over, for the comparison table: regenerated with the
    /// fabric's own switches ("regenerated: 64-port leaves and spines, 400G NICs") or kept
    /// as drawn ("drawn topology kept; each switch priced as this fabric's part").
    std::string basis;
    bool regenerated = false;
};

/// `design` on `fabric`. A generated design is regenerated with the fabric's NIC speed and,
/// at every tier, the radix the fabric's own switch offers at that speed (NDR's Quantum-2 at
/// 64, XDR's Quantum-X800 at 144, Spectrum-4 at 64 x 800G or 128 x 400G), so switch counts,
/// cables and capex are the fabric's own; its workload keeps its split (data parallelism
/// follows the GPU count) and failures of elements the new topology lacks are dropped and
/// named in `basis`. A hand-drawn design keeps its topology: the cost model prices each
/// switch as the fabric's part of the drawn radix. Throws std::invalid_argument with the
/// generator's reason when the fabric cannot build the design.
DesignOnFabric designOnFabric(const Design& design, const Fabric& fabric, const Catalog& catalog);

/// A comparison row's id names a fabric, or a fabric and the generator kind to rebuild the
/// design as: "ib-ndr", "ib-ndr@dragonfly". A row of another kind sets a dragonfly+ beside
/// the fat-tree of the same servers, each with its own switches.
struct ComparisonCandidate {
    std::string fabricId;
    std::string kind; ///< empty: the design's own topology
};
ComparisonCandidate comparisonCandidate(const std::string& rowId);

/// `design` rebuilt by generator `kind` (a registered kind) with the same servers and
/// fabric: the kind's own fields at their defaults, another kind's dropped. Throws
/// std::invalid_argument for a drawn design (nothing to rebuild) or an unknown kind, and
/// the generator's reason when it cannot build it.
Design designAsKind(const Design& design, const std::string& kind);

/// The fabrics a comparison of `design` covers unless the user names them: every catalog
/// fabric with a compareOrder (built in: InfiniBand NDR and XDR, Spectrum-X, RoCEv2 tuned
/// and untuned, TCP Ethernet) that can be bought for it. A cloud's own fabric (EFA) joins only when
/// the design is already on it.
std::vector<std::string> defaultComparisonFabrics(const Design& design, const Catalog& catalog);

/// Every fabric a comparison can offer (those the catalog gives a compareOrder), cloud
/// fabrics included, in the order rows come out.
std::vector<std::string> comparableFabrics(const Catalog& catalog);

struct ComparisonOptions {
    RunOptions run; ///< fabricId is set per row
    OwnershipOptions ownership;
    /// The published measurements a row's evidence is the nearest of (usually
    /// model::builtinPublishedFigures()); null: rows carry no evidence.
    const std::vector<PublishedFigure>* evidence = nullptr;
};

/// One fabric's row: the design built and run on it, or why it could not be.
struct ComparedFabric {
    std::string fabricId;
    std::string fabricName;
    std::string basis; ///< DesignOnFabric::basis
    std::string error; ///< the engine's or the generator's reason; empty when it ran
    std::optional<RunReport> report;
    OwnershipCost ownership;
    FabricOutcome outcome; ///< what the verdict weighs

    bool ok() const { return error.empty() && report.has_value(); }
};

/// `design` built on the row's fabric (designOnFabric), rebuilt as the row's kind first when
/// it names one (comparisonCandidate), and run. Refusals become the row's error;
/// model::Cancelled propagates.
ComparedFabric compareOnFabric(const Design& design, const Catalog& catalog,
                               const std::string& fabricId, const ComparisonOptions& options);

/// What the verdict names of the design's workload (empty without one).
VerdictContext verdictContext(const Design& design);

/// The verdict on the rows that ran, for the design's workload.
FabricVerdict comparisonVerdict(const std::vector<ComparedFabric>& rows, const Design& design);

} // namespace fabriclab::model
