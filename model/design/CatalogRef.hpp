// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

namespace fabriclab::model {

/// A catalog entry as a design refers to it: by id (isInline false) or spelled out in
/// the file. Saving writes back the same form, so files round-trip unchanged.
template <class Spec> struct CatalogRef {
    Spec spec;
    bool isInline = false;

    friend bool operator==(const CatalogRef&, const CatalogRef&) = default;
};

} // namespace fabriclab::model
