// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/FigureFile.hpp"

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

} // namespace fabriclab::model::figures
