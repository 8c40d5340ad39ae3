// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/design/CatalogRef.hpp"
#include "model/design/CollectiveSpec.hpp"
#include "model/design/Failures.hpp"
#include "model/design/ServingWorkload.hpp"
#include "model/design/Sites.hpp"
#include "model/design/Story.hpp"
#include "model/design/Workload.hpp"
#include "model/fabric/GeneratorParams.hpp"
#include "model/topology/Topology.hpp"

#include <optional>
#include <string>
#include <vector>

namespace fabriclab::model {

/// Everything a design file holds: the fabric choice, the explicit topology, and where it
/// was generated, the generator's parameters; optionally a workload and a collective.
struct Design {
    std::string name;
    std::string description; ///< free text a user keeps with the design
    CatalogRef<Fabric> fabric;
    std::optional<GeneratorParams> generator;
    Topology topology;
    std::optional<Workload> workload;
    /// A model served for inference on the same servers (prefill, decode, the KV hand-over).
    std::optional<ServingWorkload> serving;
    /// Training across sites: this design is one of `sites->count` identical sites, each
    /// training a replica of the workload, joined by WAN links.
    std::optional<Sites> sites;
    std::optional<CollectiveSpec> collective;
    /// In-network reduction (SHARP) for the job, where the fabric's switches have it: NCCL
    /// leaves it off unless NCCL_COLLNET_ENABLE=1, and so does FabricLab.
    bool sharp = false;
    /// What-if failures: the fabric is built as `topology` (and costed so), but runs as
    /// applyFailures(topology, failures).
    std::vector<Failure> failures;
    /// Presentation steps saved with the design (see StoryStep).
    std::vector<StoryStep> story;
};

/// The design around another topology, without copying the one it had: regenerating a
/// 16K-GPU design at another oversubscription would otherwise copy 50,000 links only to
/// throw them away.
Design withTopology(const Design& design, Topology topology);

} // namespace fabriclab::model
