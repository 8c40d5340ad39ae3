// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/io/JsonTable.hpp"

#include "model/io/Csv.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace fabriclab::model {
namespace {

using Json = nlohmann::ordered_json;
using Leaves = std::vector<std::pair<std::string, std::string>>;

/// A scalar as a spreadsheet reads it: strings bare (CsvWriter quotes them where needed),
/// numbers and booleans as JSON spells them, null empty.
std::string scalarText(const Json& value) {
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_null())
        return {};
    return value.dump();
}

std::string joined(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + '.' + key;
}

/// Every leaf under `value` in document order. `numberLists`: lists become numbered leaves
/// (key/value form); otherwise a list of scalars is one joined leaf and any other is left out.
void collect(const Json& value, const std::string& path, bool numberLists, Leaves& leaves) {
    if (value.is_object()) {
        for (const auto& [key, item] : value.items())
            collect(item, joined(path, key), numberLists, leaves);
        return;
    }
    if (!value.is_array()) {
        leaves.emplace_back(path, scalarText(value));
        return;
    }
    if (numberLists) {
        for (std::size_t i = 0; i < value.size(); ++i)
            collect(value[i], joined(path, std::to_string(i + 1)), numberLists, leaves);
        return;
    }
    const bool scalars = std::none_of(value.begin(), value.end(), [](const Json& item) {
        return item.is_object() || item.is_array();
    });
    if (!scalars)
        return;
    std::string text;
    for (const Json& item : value)
        text += (text.empty() ? "" : "; ") + scalarText(item);
    leaves.emplace_back(path, text);
}

} // namespace

std::string jsonRowsToCsv(const std::vector<nlohmann::ordered_json>& rows,
                          const std::vector<std::string>& leading) {
    std::vector<Leaves> records;
    records.reserve(rows.size());
    std::vector<std::string> columns;
    std::unordered_map<std::string, std::size_t> columnOf;
    for (const std::string& name : leading)
        if (std::any_of(rows.begin(), rows.end(),
                        [&](const Json& row) { return row.is_object() && row.contains(name); }) &&
            columnOf.emplace(name, columns.size()).second)
            columns.push_back(name);
    for (const Json& row : rows) {
        Leaves leaves;
        collect(row, {}, false, leaves);
        for (const auto& [name, unused] : leaves)
            if (columnOf.emplace(name, columns.size()).second)
                columns.push_back(name);
        records.push_back(std::move(leaves));
    }
    CsvWriter csv(columns);
    for (const Leaves& leaves : records) {
        std::vector<std::string> fields(columns.size());
        for (const auto& [name, text] : leaves)
            fields[columnOf.at(name)] = text;
        csv.row(fields);
    }
    return csv.text();
}

std::string jsonToKeyValueCsv(const nlohmann::ordered_json& object) {
    Leaves leaves;
    collect(object, {}, true, leaves);
    CsvWriter csv({"key", "value"});
    for (const auto& [name, text] : leaves)
        csv.row({name, text});
    return csv.text();
}

} // namespace fabriclab::model
