// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/FigureFile.hpp"

#include "model/io/DesignFile.hpp"

namespace fabriclab::model::figures {

nlohmann::json parseFile(std::string_view json, const std::string& origin) {
    try {
        return nlohmann::json::parse(json);
    } catch (const nlohmann::json::parse_error& e) {
        throw JsonError(origin, "", std::string("not valid JSON: ") + e.what());
    }
}

std::string requiredSource(const JsonCursor& c) {
    std::string source = c["source"].string();
    if (source.empty())
        c["source"].fail("every figure says where it comes from");
    return source;
}

Design generatedDesign(const std::string& name, const std::string& fabric,
                       const nlohmann::json& generator, const Catalog& catalog) {
    const nlohmann::json file = {{"format", "fabriclab-design"},
                                 {"version", 1},
                                 {"name", name},
                                 {"fabric", fabric},
                                 {"generator", generator}};
    return parseDesign(file.dump(), name, catalog);
}

} // namespace fabriclab::model::figures
