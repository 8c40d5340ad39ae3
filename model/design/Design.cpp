// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/design/Design.hpp"

namespace fabriclab::model {

Design withTopology(const Design& design, Topology topology) {
    // Every member but the topology; a member added to Design belongs here too.
    Design result{design.name,         design.description, design.fabric,     design.generator,
                  std::move(topology), design.workload,    design.collective, design.sharp};
    return result;
}

} // namespace fabriclab::model
