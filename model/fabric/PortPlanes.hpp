// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/fabric/GeneratorParams.hpp"
#include "model/topology/Topology.hpp"

#include <functional>

namespace fabriclab::model::generator {

/// Builds a fabric of multiplane NICs: `buildPlane` makes one plane for the request at the
/// NIC speed divided by its `portsPerNic` P, and the plane's switches are built P times
/// over the same servers, NIC port p cabled into plane p. Each switch carries its
/// Placement::plane; each server its portsPerNic and whole-NIC speed, and its cables come
/// plane by plane (ServerProps::portsPerNic). Refuses (GeneratorError) a P the NIC speed
/// cannot be split into, or rail planes asked for as well.
Topology buildPortPlanes(const GeneratorParams& params,
                         const std::function<Topology(const GeneratorParams&)>& buildPlane);

/// Carries a request's NICs over to `fabric` and returns the speed its switch ports run at:
/// a NIC of the fabric's own speed, or, for a multiplane request, the NIC it split into
/// planes, whose ports' speed the fabric's switches then run at (broken out: 64 x 800G as
/// 256 x 200G).
Gbps carryNicsTo(GeneratorParams& params, const Fabric& fabric);

} // namespace fabriclab::model::generator
