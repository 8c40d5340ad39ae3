// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/cost/CostModel.hpp"
#include "model/design/Design.hpp"

#include <string>
#include <vector>

namespace fabriclab::model {

/// The catalog values one subject of a report rests on: a fabric, the GPU, the model, a
/// priced part, the price list's own figures.
struct AssumptionGroup {
    std::string title; ///< "Fabric: InfiniBand NDR (Quantum-2, ConnectX-7)"
    /// Said instead of values when the subject is not from the catalog (a fabric or GPU
    /// written into the design file itself).
    std::string note;
    std::vector<CatalogValue> values;
};

/// Every catalog value a design's figures used, grouped by subject, each with its source:
/// the fabrics it was run on (the design's own first, then `comparedFabricIds`), its GPU
/// and model, the price list's period and energy figures, the GPU's ownership costs, and
/// every part the bill of materials (`cost`) buys or a compared fabric is built from.
std::vector<AssumptionGroup> assumptionsFor(const Design& design, const Catalog& catalog,
                                            const std::vector<std::string>& comparedFabricIds,
                                            const CostReport& cost);

/// A catalog field as people read it, with its unit: "lineEfficiency" is "line
/// efficiency", "switchLatencyNs" is "switch latency (ns)", "defaultMfu.bf16" is "default
/// MFU, bf16".
std::string assumptionLabel(const std::string& field);

} // namespace fabriclab::model
