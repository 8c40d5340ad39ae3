// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/topology/Topology.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

/// Vendor reference architectures (resources/validation/reference-architectures.json): the
/// switch and cable counts of a compute fabric, which the generators must meet exactly from
/// the same inputs a user gives the Generate dialog. All are checks.
namespace fabriclab::model {

struct ArchitectureFigure {
    std::string id;
    std::string source;
    std::string reliability;
    std::string note;
    nlohmann::json generator; ///< the design file's "generator", as the table states it
    TierCounts switches;      ///< published
    CableCounts cables;       ///< published (server, leaf-spine, spine-core)
};

/// Throws std::invalid_argument naming the case and field at fault.
std::vector<ArchitectureFigure> readArchitectureFigures(std::string_view json);
const std::vector<ArchitectureFigure>& builtinArchitectureFigures();

struct ArchitectureCheck {
    TierCounts switches; ///< as generated
    CableCounts cables;
    bool exact = false; ///< every count as published, and no cable between other tiers
};

/// Generates the fabric (InfiniBand NDR, XDR at 800G) and counts it.
ArchitectureCheck checkArchitectureFigure(const ArchitectureFigure& figure, const Catalog& catalog);

} // namespace fabriclab::model
