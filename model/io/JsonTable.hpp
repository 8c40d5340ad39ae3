// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

/// FabricLab's JSON results (a run report, a compared fabric, a sweep point) as CSV tables,
/// written through CsvWriter so that every CSV FabricLab writes quotes alike.
namespace fabriclab::model {

/// One record per object, one column per leaf: nested objects become dotted names
/// ("bisection.effectiveGbps"), columns in the order they are first met over all rows, a
/// leaf a row lacks is an empty field. A list of strings or numbers is one field, its items
/// joined by "; "; a list of objects (the bill of materials) is left out, since it has no
/// single value per row: `bom --csv` writes it a part per row. Null is an empty field.
/// `leading` columns (what names a row: "fabric", "servers") come first.
std::string jsonRowsToCsv(const std::vector<nlohmann::ordered_json>& rows,
                          const std::vector<std::string>& leading = {});

/// One object as (key, value) records, every leaf kept: list items are numbered
/// ("cost.bom.2.part"), so nothing of the object is lost.
std::string jsonToKeyValueCsv(const nlohmann::ordered_json& object);

} // namespace fabriclab::model
