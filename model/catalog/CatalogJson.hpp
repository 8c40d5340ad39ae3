// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/catalog/GpuSpec.hpp"
#include "model/catalog/ModelSpec.hpp"
#include "model/catalog/PriceCatalog.hpp"
#include "model/core/JsonCursor.hpp"

#include <nlohmann/json.hpp>

/// JSON forms of catalog entries. Readers accept the catalog's {"value", "source"} pairs
/// and plain numbers alike, so a design file can inline a fabric, GPU or model briefly.
namespace fabriclab::model::catalog_json {

/// A number given plainly or as {"value": x, "source": "..."}, within [lo, hi].
double sourcedNumber(const JsonCursor& cursor, double lo, double hi);
/// The "source" of a {"value", "source"} number; empty for a bare number.
std::string sourceOf(const JsonCursor& cursor);

Fabric parseFabric(const JsonCursor& cursor);
GpuSpec parseGpu(const JsonCursor& cursor);
ModelSpec parseModel(const JsonCursor& cursor);
PricedPart parsePart(const JsonCursor& cursor);

/// Plain-number forms, as a design file stores an inline entry.
nlohmann::json toJson(const Fabric& fabric);
nlohmann::json toJson(const GpuSpec& gpu);
nlohmann::json toJson(const ModelSpec& model);

} // namespace fabriclab::model::catalog_json
