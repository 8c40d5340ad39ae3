// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/fabric/GeneratorParams.hpp"
#include "model/topology/Topology.hpp"

#include <functional>
#include <span>
#include <string_view>

namespace fabriclab::model {

/// Two tiers: leaves under a spine layer; a single leaf when every NIC fits on one switch.
/// Throws GeneratorError naming the limit and the numbers when the request cannot be built.
Topology generateLeafSpine(const GeneratorParams& params);

/// Three tiers: pods of leaves and spines under core planes (spine j of every pod
/// connects to core plane j). A request that fits one pod gets no core tier.
Topology generateFatTree(const GeneratorParams& params);

/// One tier and no spine: a switch per rail (or per few neighbouring rails) holding that
/// rail of every server, so rails meet only over the servers' NVLink (PXN). Bounded by the
/// leaf radix: servers <= leafRadix. Oversubscription and the upper radixes do not apply.
Topology generateRailOnly(const GeneratorParams& params);

/// A generator as the registry lists it for the CLI, the file loader and the dialog.
struct GeneratorEntry {
    std::string_view kind;        ///< the design file's generator "kind"
    std::string_view description; ///< one line for menus and --help
    std::function<Topology(const GeneratorParams&)> generate;
    /// Builds tiers above the leaves, so the spine radix and the oversubscription shape
    /// it (a rail-only fabric has none: the dialog and fabric panel leave them off).
    bool hasUplinks = true;
    /// The third tier's fields apply (coreRadix, spineOversubscription, serversPerPod).
    bool hasCore = false;
    /// Every server's NIC r lands on rail switch r whatever railOptimized says.
    bool alwaysRails = false;
};

std::span<const GeneratorEntry> generators();
/// nullptr when no generator has that kind.
const GeneratorEntry* findGenerator(std::string_view kind);

/// Runs the generator named by params.kind and lays the result out in tiers.
Topology generate(const GeneratorParams& params);

} // namespace fabriclab::model
