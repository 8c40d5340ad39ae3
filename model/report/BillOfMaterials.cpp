// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/BillOfMaterials.hpp"

#include "model/io/Csv.hpp"

namespace fabriclab::model {
namespace {

/// Cents and tenths of a watt: what a purchase order and a power budget read.
constexpr int kUsdDecimals = 2;
constexpr int kWattDecimals = 1;

std::string usd(Usd value) {
    return CsvWriter::number(value.value, kUsdDecimals);
}

std::string watts(Watts value) {
    return CsvWriter::number(value.value, kWattDecimals);
}

/// Price and power sources in one cell: the same text twice reads as one.
std::string sourceOf(const BomLine& line) {
    if (line.priceSource == line.powerSource || line.powerSource.empty())
        return line.priceSource;
    if (line.priceSource.empty())
        return "power: " + line.powerSource;
    return "price: " + line.priceSource + "; power: " + line.powerSource;
}

} // namespace

std::vector<std::string> bomColumns() {
    return {"tier",     "role",         "part",       "part class",  "part id", "quantity",
            "unit USD", "extended USD", "watts each", "watts total", "source"};
}

std::vector<std::vector<std::string>> bomRows(const CostReport& cost) {
    std::vector<std::vector<std::string>> rows;
    for (const BomLine& line : cost.bom)
        rows.push_back({std::string(toString(line.tier)), line.role, line.partName, line.partClass,
                        line.partId, std::to_string(line.quantity), usd(line.unitPrice),
                        usd(line.total()), watts(line.unitPower), watts(line.power()),
                        sourceOf(line)});
    return rows;
}

std::string bomCsv(const CostReport& cost) {
    CsvWriter csv(bomColumns());
    for (const auto& row : bomRows(cost))
        csv.row(row);
    csv.row({"total", "", "", "", "", "", "", usd(cost.capex), "", watts(cost.power), ""});
    return csv.text();
}

nlohmann::ordered_json bomJson(const CostReport& cost) {
    nlohmann::ordered_json lines = nlohmann::ordered_json::array();
    for (const BomLine& line : cost.bom)
        lines.push_back({{"tier", toString(line.tier)},
                         {"role", line.role},
                         {"partName", line.partName},
                         {"partClass", line.partClass},
                         {"partId", line.partId},
                         {"quantity", line.quantity},
                         {"unitUsd", line.unitPrice.value},
                         {"totalUsd", line.total().value},
                         {"unitWatts", line.unitPower.value},
                         {"totalWatts", line.power().value},
                         {"priceSource", line.priceSource},
                         {"powerSource", line.powerSource}});
    return {{"currency", "USD"},
            {"fabricCapexUsd", cost.capex.value},
            {"powerWatts", cost.power.value},
            {"bom", std::move(lines)}};
}

} // namespace fabriclab::model
