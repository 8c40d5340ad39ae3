// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Parts of the built-in catalog by id, for suites that compute with them. A missing id
// is a broken test setup, not a result: it throws instead of handing back a null.
#pragma once

#include "model/catalog/Catalog.hpp"

#include <stdexcept>
#include <string>

namespace fabriclab::testing {

inline const model::Fabric& builtinFabric(const std::string& id) {
    const model::Fabric* found = model::Catalog::builtin().findFabric(id);
    if (!found)
        throw std::logic_error("no fabric " + id + " in the built-in catalog");
    return *found;
}

inline const model::GpuSpec& builtinGpu(const std::string& id) {
    const model::GpuSpec* found = model::Catalog::builtin().findGpu(id);
    if (!found)
        throw std::logic_error("no GPU " + id + " in the built-in catalog");
    return *found;
}

} // namespace fabriclab::testing
