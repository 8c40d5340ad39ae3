// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/design/Design.hpp"
#include "model/core/JsonCursor.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

/// What the three published-figure files share: {"about": ..., "cases": [...]}, each case
/// with its source. Engine-internal to model/validation.
namespace fabriclab::model::figures {

/// The parsed file; throws JsonError naming `origin` when it is not JSON.
nlohmann::json parseFile(std::string_view json, const std::string& origin);

/// The case's "source", which every figure states; fails when missing or empty.
std::string requiredSource(const JsonCursor& c);

/// The design a table describes: `generator` (the design file's object, as the table states
/// it) expanded on `fabric`, read as any design file is, named `name`.
Design generatedDesign(const std::string& name, const std::string& fabric,
                       const nlohmann::json& generator, const Catalog& catalog);

/// Every case of the file, each read by `readCase(const JsonCursor&)`.
template <typename Figure, typename ReadCase>
std::vector<Figure> readCases(std::string_view json, const std::string& origin, ReadCase readCase) {
    const nlohmann::json document = parseFile(json, origin);
    const JsonCursor root(document, origin);
    root.allowOnly({"about", "cases"});
    const JsonCursor cases = root["cases"];
    std::vector<Figure> figures;
    figures.reserve(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i)
        figures.push_back(readCase(cases.at(i)));
    return figures;
}

} // namespace fabriclab::model::figures
