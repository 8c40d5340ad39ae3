// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/layout/TieredLayout.hpp"

#include <array>

namespace fabriclab::model {

std::span<const GeneratorEntry> generators() {
    static const std::array<GeneratorEntry, 3> registry{{
        {"leaf-spine", "two tiers: leaves under a spine layer (rail-optimized or top-of-rack)",
         generateLeafSpine, true, false, false},
        {"fat-tree", "three tiers: pods of leaves and spines under core planes", generateFatTree,
         true, true, false},
        {"rail-only", "one tier: a switch per rail, no spine; rails meet over NVLink",
         generateRailOnly, false, false, true},
    }};
    return registry;
}

const GeneratorEntry* findGenerator(std::string_view kind) {
    for (const auto& entry : generators())
        if (entry.kind == kind)
            return &entry;
    return nullptr;
}

Topology generate(const GeneratorParams& params) {
    const GeneratorEntry* entry = findGenerator(params.kind);
    if (!entry)
        throw GeneratorError("kind", "unknown generator kind '" + params.kind +
                                         "' (expected leaf-spine, fat-tree or rail-only)");
    Topology topology = entry->generate(params);
    layoutTiers(topology);
    return topology;
}

} // namespace fabriclab::model
