// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// One number a catalog gives, as written, with where it comes from: what a report's
/// assumptions page lists so a customer can see, and question, every figure behind the
/// results.
struct CatalogValue {
    std::string document; ///< "fabrics", "gpus", "models" or "prices"
    /// The entry's id ("ib-ndr", "qm9700"); for prices, "" for the list's own figures and
    /// the GPU's id for its ownership costs.
    std::string entry;
    std::string field; ///< the JSON key path within the entry, "defaultMfu.bf16"
    double value = 0;
    std::string source; ///< empty for a bare number
};

/// Every number of a catalog document (one already checked by its reader): each entry of
/// its lists (by "id", or "gpu" for ownership costs), and the document's own figures, in
/// the document's order. A {"value", "source"} pair is one value with its source; a bare
/// number one without.
std::vector<CatalogValue> catalogValues(const nlohmann::json& document, std::string_view name);

} // namespace fabriclab::model
