// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/cost/CostModel.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace fabriclab::model {

/// The bill of materials as purchasing reads it: one row per part and where it goes (tier,
/// role), with quantity, unit and extended price, power each and in total, and the
/// catalog's sources for both. Its totals are the CostReport's capex and power, the
/// figures every other output shows.
std::vector<std::string> bomColumns();
/// One row a BomLine, in bomColumns() order, numbers unrounded to the cent and the watt.
std::vector<std::vector<std::string>> bomRows(const CostReport& cost);
/// RFC 4180 CSV: bomColumns(), the rows, then a "total" row.
std::string bomCsv(const CostReport& cost);
/// {"currency", "fabricCapexUsd", "powerWatts", "bom": [...]} (docs/output-contract.md).
nlohmann::ordered_json bomJson(const CostReport& cost);

} // namespace fabriclab::model
