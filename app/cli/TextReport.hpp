// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include "model/catalog/Catalog.hpp"
#include "model/report/CablingPlan.hpp"
#include "model/report/FabricComparison.hpp"
#include "model/report/RunReport.hpp"

#include <string>
#include <vector>

namespace fabriclab::app {

/// The human-readable report of one design.
std::string formatReport(const model::RunReport& report);
/// One row per report: compare and sweep side by side.
std::string formatTable(const std::vector<model::RunReport>& reports);
/// `compare`: each fabric's build, speed and lifetime cost, then the verdict.
std::string formatComparison(const std::vector<model::ComparedFabric>& rows,
                             const model::FabricVerdict& verdict);
/// A merged sweep's rows (the `run --json` objects with "fabric" and "servers"), with the
/// simulated figures beside the sizing: bisection delivered, bus bandwidth, step time.
std::string formatSweepRows(const std::vector<nlohmann::ordered_json>& rows);
/// `bom`: the bill of materials by tier, each line's quantity, part, price and power.
std::string formatBom(const model::CostReport& cost);
/// `cabling`: how many cables of each kind, then every cable with its ends' ports.
std::string formatCabling(const model::CablingPlan& plan);
/// The ids a design file may name.
std::string formatCatalog(const model::Catalog& catalog);

} // namespace fabriclab::app
