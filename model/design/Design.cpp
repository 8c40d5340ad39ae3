// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/design/Design.hpp"

namespace fabriclab::model {

Design withTopology(const Design& design, Topology topology) {
    // Every member but the topology; a member added to Design belongs here too. Failures
    // follow only where their element is still there (a regenerated fabric may have fewer
    // spines).
    std::vector<Failure> failures;
    const ElementIndex index(topology);
    for (const Failure& failure : design.failures)
        if (index.resolve(failure.element))
            failures.push_back(failure);
    Design result{design.name,         design.description, design.fabric,       design.generator,
                  std::move(topology), design.workload,    design.serving,      design.sites,
                  design.collective,   design.sharp,       std::move(failures), design.story};
    return result;
}

} // namespace fabriclab::model
