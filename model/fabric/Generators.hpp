// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/fabric/GeneratorField.hpp"
#include "model/fabric/GeneratorParams.hpp"
#include "model/topology/Topology.hpp"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// A generator kind, everything FabricLab knows of it in one place: the design reader and
/// writer, the Generate dialog, the fabric panel, the CLI and the help all read it from
/// here. A kind lives in its own file (LeafSpineGenerator.cpp and its siblings), which
/// defines its entry; GeneratorRegistry.cpp lists the entries, one line each.
struct GeneratorEntry {
    std::string_view kind;        ///< the design file's generator "kind"
    std::string_view title;       ///< the dialog's name for it
    std::string_view description; ///< one line for menus, tooltips and --help
    /// The parameters it reads, in the order the dialog shows them; the design writer
    /// saves these and no others.
    std::span<const GeneratorField* const> fields;
    /// Builds the topology; throws GeneratorError naming the limit and the numbers when the
    /// request cannot be built.
    std::function<Topology(const GeneratorParams&)> generate;
    /// Builds tiers above the leaves, so an oversubscription shapes it and the fabric
    /// panel can rebuild it at another ratio.
    bool hasUplinks = true;
    /// Every server's NIC r lands on rail switch r whatever railOptimized says.
    bool alwaysRails = false;

    /// Whether the kind reads the field with this key.
    bool reads(std::string_view key) const;
};

/// The kinds FabricLab ships, as their entries run them (tests call them directly).
/// Two tiers: leaves under a spine layer; a single leaf when every NIC fits on one switch.
Topology generateLeafSpine(const GeneratorParams& params);
/// Three tiers: pods of leaves and spines under core planes (spine j of every pod
/// connects to core plane j). A request that fits one pod gets no core tier.
Topology generateFatTree(const GeneratorParams& params);
/// One tier and no spine: a switch per rail (or per few neighbouring rails) holding that
/// rail of every server, so rails meet only over the servers' NVLink (PXN). Bounded by the
/// leaf radix: servers <= leafRadix. Oversubscription and the upper radixes do not apply.
Topology generateRailOnly(const GeneratorParams& params);
/// Rack-scale: NVLink racks (each one server) with a leaf per rail in every rack, a group of
/// spines per rail of each scalable unit of racks, and core groups joining the units (spine
/// g of every group), as NVIDIA's DGX SuperPOD with GB200 wires its compute fabric.
Topology generateSuperPod(const GeneratorParams& params);
/// Dragonfly+: groups, each a leaf-spine whose spines keep half their ports for the group
/// and spend the rest on global links, spine i of every group to spine i of every other.
Topology generateDragonfly(const GeneratorParams& params);
/// Classic dragonfly: groups of routers joined all to all (a clique), servers on every router,
/// the routers' remaining ports global links to the other groups, spread evenly.
Topology generateDragonflyClique(const GeneratorParams& params);

/// Every registered kind, in registry order.
std::span<const GeneratorEntry* const> generators();
/// nullptr when no generator has that kind.
const GeneratorEntry* findGenerator(std::string_view kind);
/// The registered kinds, quoted and joined for a message: "\"leaf-spine\", \"fat-tree\" or ...".
std::string generatorKindList();
/// Every field some kind reads, each once, in registry order: what a design file's
/// "generator" may hold.
std::vector<const GeneratorField*> allGeneratorFields();

/// The request as kind `kind` reads it: the shared fields kept, another kind's own fields
/// dropped, this kind's own fields that are absent at their fallback, rails on where the
/// kind is always rails. A request read from a file, made in the Generate dialog or
/// rebuilt for a comparison passes through it, so equal fabrics compare equal. Throws
/// GeneratorError for an unknown kind.
GeneratorParams asKind(GeneratorParams params, std::string_view kind);

/// Runs the generator named by params.kind and lays the result out in tiers.
Topology generate(const GeneratorParams& params);

} // namespace fabriclab::model
