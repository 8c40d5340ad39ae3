// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/PortPlanes.hpp"
#include "model/layout/TieredLayout.hpp"

#include <algorithm>
#include <array>

namespace fabriclab::model {

// Each kind's entry, defined in the kind's own file.
const GeneratorEntry& leafSpineKind();
const GeneratorEntry& fatTreeKind();
const GeneratorEntry& railOnlyKind();
const GeneratorEntry& superPodKind();
const GeneratorEntry& dragonflyKind();
const GeneratorEntry& dragonflyCliqueKind();

std::span<const GeneratorEntry* const> generators() {
    // One line per kind, in the order menus list them.
    static const std::array registry{
        &leafSpineKind(), &fatTreeKind(),   &railOnlyKind(),
        &superPodKind(),  &dragonflyKind(), &dragonflyCliqueKind(),
    };
    return registry;
}

bool GeneratorEntry::reads(std::string_view key) const {
    return std::any_of(fields.begin(), fields.end(),
                       [&](const GeneratorField* field) { return field->key == key; });
}

const GeneratorEntry* findGenerator(std::string_view kind) {
    for (const GeneratorEntry* entry : generators())
        if (entry->kind == kind)
            return entry;
    return nullptr;
}

std::string generatorKindList() {
    std::string list;
    const auto kinds = generators();
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        if (i > 0)
            list += i + 1 == kinds.size() ? " or " : ", ";
        list += '"';
        list += kinds[i]->kind;
        list += '"';
    }
    return list;
}

std::vector<const GeneratorField*> allGeneratorFields() {
    std::vector<const GeneratorField*> all;
    for (const GeneratorEntry* entry : generators())
        for (const GeneratorField* field : entry->fields)
            if (std::none_of(all.begin(), all.end(),
                             [&](const GeneratorField* known) { return known->key == field->key; }))
                all.push_back(field);
    return all;
}

GeneratorParams asKind(GeneratorParams params, std::string_view kind) {
    const GeneratorEntry* entry = findGenerator(kind);
    if (!entry)
        throw GeneratorError("kind", "unknown generator kind '" + std::string(kind) +
                                         "' (expected " + generatorKindList() + ")");
    params.kind = std::string(kind);
    std::erase_if(params.extra, [&](const auto& field) { return !entry->reads(field.first); });
    for (const GeneratorField* field : entry->fields)
        if (field->ownedByKind() && field->whenAbsent.empty() && !params.extra.contains(field->key))
            field->set(params, field->fallback);
    if (entry->alwaysRails)
        params.railOptimized = true;
    return params;
}

Topology generate(const GeneratorParams& params) {
    const GeneratorEntry* entry = findGenerator(params.kind);
    if (!entry)
        throw GeneratorError("kind", "unknown generator kind '" + params.kind + "' (expected " +
                                         generatorKindList() + ")");
    Topology topology = entry->reads(generator_fields::kPortsPerNic.key)
                            ? generator::buildPortPlanes(params, entry->generate)
                            : entry->generate(params);
    layoutTiers(topology);
    return topology;
}

} // namespace fabriclab::model
