// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Fabric.hpp"
#include "model/catalog/PriceCatalog.hpp"
#include "model/design/Design.hpp"
#include "model/report/CablingPlan.hpp"
#include "model/topology/Topology.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// The design as a Graphviz graph that `dot` and `sfdp` render and NVIDIA Air reads: one
/// node per device (servers as boxes, switches by tier, ranked top to bottom) and one edge
/// per cable in the port-annotated form `"leaf-1":"swp1" -- "spine-1":"swp1"`, ports as the
/// cabling plan numbers them.
std::string graphvizDot(const std::string& name, const Topology& topology, const CablingPlan& plan);

/// Slurm's topology.conf for the tree plugin (topology/tree): one `SwitchName=` line per
/// switch level, `Nodes=` in Slurm's hostlist form at the bottom and `Switches=` above.
/// Servers that hang off the same set of leaves (one leaf, or a rail group's rail leaves)
/// share one bottom switch, named after its leaves, so every server is listed exactly once
/// and the scheduler keeps a job within a leaf, a rail group, a spine group, in that order.
std::string slurmTopology(const Topology& topology);

/// The fabric as `ibnetdiscover` prints a discovered InfiniBand subnet: a record per switch
/// and per host channel adapter (each server NIC is one single-port HCA, mlx5_0, mlx5_1, ...,
/// as on a DGX), their links listed from both ends with the ports of the cabling plan, and
/// GUIDs and LIDs made deterministic from the design (switches first, then adapters, in the
/// design's order), so the same design gives the same file. Throws std::invalid_argument
/// for a fabric that is not InfiniBand: the format describes InfiniBand subnets only.
std::string ibnetdiscoverTopology(const Topology& topology, const Fabric& fabric,
                                  const CablingPlan& plan);

/// The files other tools read, by the names `fabriclab-cli export --format` takes.
enum class ExportFormat { Dot, Slurm, Ibnetdiscover };
/// "dot", "slurm" or "ibnetdiscover"; nothing for any other word.
std::optional<ExportFormat> exportFormatFromString(std::string_view text);

/// The design's fabric as `format` has it (graphvizDot, slurmTopology or
/// ibnetdiscoverTopology, with the cabling plan's ports where the format names ports): what
/// `fabriclab-cli export` and the app's File > Export both write. Throws as they do.
std::string exportFabric(const Design& design, const PriceCatalog& prices, ExportFormat format);

/// Names compressed as Slurm's hostlists write them: srv-1, srv-2, srv-3, srv-7 ->
/// "srv-[1-3,7]"; zero-padded numbers keep their width (srv001-srv004 -> "srv[001-004]");
/// names without a trailing number are listed as they are.
std::string hostlist(std::vector<std::string> names);

} // namespace fabriclab::model
