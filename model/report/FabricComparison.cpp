// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/FabricComparison.hpp"

#include "model/catalog/PartChoice.hpp"
#include "model/core/Cancellation.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/PortPlanes.hpp"

#include <algorithm>
#include <stdexcept>

namespace fabriclab::model {
namespace {

std::string speedText(Gbps speed) {
    return std::to_string(static_cast<long long>(speed.value)) + "G";
}

} // namespace

DesignOnFabric designOnFabric(const Design& design, const Fabric& fabric, const Catalog& catalog) {
    DesignOnFabric result;
    if (!design.generator) {
        result.design = design;
        result.design.fabric = {fabric, false};
        result.basis = "drawn topology kept; each switch priced as this fabric's part of its radix";
        return result;
    }
    GeneratorParams params = *design.generator;
    const Gbps portSpeed = generator::carryNicsTo(params, fabric);
    const FabricHardware& parts = fabric.hardware;
    const PriceCatalog& prices = catalog.prices();
    params.leafRadix = switchRadixAt(fabric, prices, parts.switchId, portSpeed);
    params.spineRadix = switchRadixAt(fabric, prices, parts.spineSwitch(), portSpeed);
    params.coreRadix = switchRadixAt(fabric, prices, parts.coreSwitch(), portSpeed);
    Design next = withTopology(design, generate(params)); // throws the generator's reason
    next.generator = params;
    next.fabric = {fabric, false};
    if (next.workload)
        next.workload = rescaled(*next.workload, next.topology.gpuCount());
    result.design = std::move(next);
    result.regenerated = true;
    result.basis = "regenerated with " + std::to_string(params.leafRadix) + "-port leaves" +
                   (!findGenerator(params.kind)->hasUplinks
                        ? std::string()
                        : ", " + std::to_string(params.spineRadix) + "-port spines") +
                   ", " + speedText(params.nicSpeed) + " NICs";
    return result;
}

ComparisonCandidate comparisonCandidate(const std::string& rowId) {
    const auto at = rowId.find('@');
    if (at == std::string::npos)
        return {rowId, {}};
    return {rowId.substr(0, at), rowId.substr(at + 1)};
}

namespace {

/// The design's request as another kind; a drawn design has none to rebuild.
GeneratorParams requestAsKind(const Design& design, const std::string& kind) {
    if (!design.generator)
        throw std::invalid_argument("a drawn topology has no generator to rebuild as " + kind +
                                    "; generate the design first");
    return asKind(*design.generator, kind); // refuses an unknown kind
}

} // namespace

Design designAsKind(const Design& design, const std::string& kind) {
    const GeneratorParams params = requestAsKind(design, kind);
    Design next = withTopology(design, generate(params)); // throws the generator's reason
    next.generator = params;
    if (next.workload)
        next.workload = rescaled(*next.workload, next.topology.gpuCount());
    return next;
}

std::vector<std::string> comparableFabrics(const Catalog& catalog) {
    // The catalog says which fabrics a comparison covers and in what order (compareOrder).
    std::vector<std::pair<int, std::string>> ranked;
    for (const auto& [id, fabric] : catalog.fabrics())
        if (fabric.compareOrder > 0)
            ranked.emplace_back(fabric.compareOrder, id);
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::string> ids;
    for (auto& [order, id] : ranked)
        ids.push_back(std::move(id));
    return ids;
}

std::vector<std::string> defaultComparisonFabrics(const Design& design, const Catalog& catalog) {
    std::vector<std::string> ids;
    for (const std::string& id : comparableFabrics(catalog)) {
        const Fabric& fabric = *catalog.findFabric(id);
        // A cloud's own fabric cannot be bought for a cluster of one's own: only when the
        // design already runs there.
        if (fabric.cloud.empty() || design.fabric.spec.id == id)
            ids.push_back(id);
    }
    return ids;
}

ComparedFabric compareOnFabric(const Design& design, const Catalog& catalog,
                               const std::string& fabricId, const ComparisonOptions& options) {
    ComparedFabric row;
    row.fabricId = fabricId;
    row.fabricName = fabricId;
    const ComparisonCandidate candidate = comparisonCandidate(fabricId);
    const Fabric* fabric = catalog.findFabric(candidate.fabricId);
    if (!fabric) {
        row.error = catalog.unknownFabric(candidate.fabricId);
        return row;
    }
    // The topology first, where a narrow column or a verdict's sentence still shows it.
    row.fabricName = candidate.kind.empty() ? fabric->name : candidate.kind + " on " + fabric->name;
    try {
        // designOnFabric builds from the generator: the other kind's request is enough.
        Design asked = design;
        if (!candidate.kind.empty())
            asked.generator = requestAsKind(design, candidate.kind);
        const DesignOnFabric built = designOnFabric(asked, *fabric, catalog);
        row.basis = built.basis;
        if (!candidate.kind.empty())
            row.basis = "rebuilt as " + candidate.kind + ", " + row.basis;
        RunOptions run = options.run;
        run.fabricId = candidate.fabricId;
        run.ownership = options.ownership.mode;
        if (options.ownership.amortizationMonths)
            run.amortizationMonths = options.ownership.amortizationMonths;
        row.report = runDesign(built.design, catalog, run);
        row.ownership = row.report->ownership;
        row.outcome = fabricOutcome(*row.report);
        // The verdict names rows by these: two topologies on one fabric are two rows.
        row.outcome.fabricId = row.fabricId;
        row.outcome.fabricName = row.fabricName;
        const Design& ran = built.design;
        if (options.evidence)
            row.outcome.evidence = nearestEvidence(
                *options.evidence, candidate.fabricId,
                ran.workload ? ran.workload->gpu.spec.id : std::string("h100-sxm"),
                ran.topology.serverCount(),
                static_cast<double>(ran.collective.value_or(CollectiveSpec{}).bytes));
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        row.error = e.what();
        row.report.reset();
    }
    return row;
}

VerdictContext verdictContext(const Design& design) {
    VerdictContext context;
    if (design.workload) {
        const Workload& w = *design.workload;
        context.workloadName = w.model.spec.id.empty() ? w.model.spec.name : w.model.spec.id;
        context.mixtureOfExperts = w.model.spec.experts > 1;
        context.globalBatchTokens = static_cast<double>(w.globalBatchTokens);
    }
    return context;
}

FabricVerdict comparisonVerdict(const std::vector<ComparedFabric>& rows, const Design& design) {
    std::vector<FabricOutcome> outcomes;
    for (const ComparedFabric& row : rows)
        if (row.ok())
            outcomes.push_back(row.outcome);
    return fabricVerdict(outcomes, verdictContext(design));
}

} // namespace fabriclab::model
