// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/CatalogValues.hpp"

namespace fabriclab::model {
namespace {

bool isSourcedNumber(const nlohmann::json& value) {
    return value.is_object() && value.contains("value") && value["value"].is_number();
}

std::string joined(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + '.' + key;
}

/// The id an entry of a list goes by: its "id", or the GPU an ownership cost is for.
std::string entryId(const nlohmann::json& entry) {
    for (const char* key : {"id", "gpu"})
        if (entry.contains(key) && entry[key].is_string())
            return entry[key].get<std::string>();
    return {};
}

struct Collector {
    std::string_view document;
    std::vector<CatalogValue>& out;

    /// The numbers of `object` under `prefix`; lists of entries become entries of their own.
    void walk(const nlohmann::json& object, const std::string& entry, const std::string& prefix) {
        for (const auto& [key, value] : object.items()) {
            const std::string field = joined(prefix, key);
            if (value.is_number()) {
                out.push_back({std::string(document), entry, field, value.get<double>(), {}});
            } else if (isSourcedNumber(value)) {
                std::string source;
                if (value.contains("source") && value["source"].is_string())
                    source = value["source"].get<std::string>();
                out.push_back({std::string(document), entry, field, value["value"].get<double>(),
                               std::move(source)});
            } else if (value.is_object()) {
                walk(value, entry, field);
            } else if (value.is_array()) {
                for (const auto& item : value)
                    if (item.is_object()) {
                        const std::string id = entryId(item);
                        // A list of entries (fabrics, switches): each stands alone. A list
                        // without ids (a switch's port modes) belongs to its entry.
                        if (!id.empty())
                            walk(item, id, {});
                        else
                            walk(item, entry, field);
                    }
            }
        }
    }
};

} // namespace

std::vector<CatalogValue> catalogValues(const nlohmann::json& document, std::string_view name) {
    std::vector<CatalogValue> values;
    if (!document.is_object())
        return values;
    Collector collector{name, values};
    for (const auto& [key, value] : document.items()) {
        if (key == "version")
            continue; // the format's, not a figure
        nlohmann::json one = nlohmann::json::object();
        one[key] = value;
        collector.walk(one, {}, {});
    }
    return values;
}

} // namespace fabriclab::model
