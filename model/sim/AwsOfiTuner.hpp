// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/NcclTuning.hpp"

#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

/// aws-ofi-nccl's region tuner: on p5/p5e, p5en, p6-b200 and p6-b300 the EFA plugin replaces
/// NCCL's choice of algorithm and protocol with polygons in (message bytes, ranks) space, one
/// set per collective and per GPUs per server. FabricLab follows it on fabrics whose catalog
/// entry names it (`"ncclTuner": "aws-ofi-nccl"`), as a job with the plugin would.
/// Geometry and rules follow src/tuner/nccl_ofi_regions.cpp (aws/aws-ofi-nccl); the
/// polygons are generated from it (AwsOfiTunerRegions.cpp). Only the pair is taken: the
/// channel counts the plugin also sets on p6 (tree LL128 at 4-32 MiB, PAT) and the chunk
/// sizes it sets on p5en stay NCCL's.
namespace fabriclab::sim::nccl::aws {

enum class Platform { P5, P5en, P6, P6B300 };

/// One corner: message bytes, ranks.
struct Corner {
    double bytes = 0;
    double ranks = 0;
};

struct Region {
    Platform platform = Platform::P5;
    int ranksPerNode = 8; ///< the polygons differ for 8, 2 and 1 GPUs per server
    Function function = Function::AllReduce;
    Algorithm algorithm = Algorithm::Ring;
    Protocol protocol = Protocol::Simple;
    std::vector<Corner> corners;
};

/// Every polygon, in the plugin's order (the first that holds the point wins).
const std::vector<Region>& regions();

/// The instance a server corresponds to: its GPU and its EFA bandwidth in all (the plugin
/// reads the instance type), however the NICs are drawn. Nothing for servers the tuner has
/// no polygons for.
std::optional<Platform> platformOf(std::string_view gpuId, int nicsPerServer, double nicGbps);

/// Whether (bytes, ranks) lies inside the polygon or on its edge, as the plugin decides it on
/// log2 coordinates.
bool contains(const Region& region, double bytes, double ranks);

/// The pair the tuner sets for a collective, or nothing where NCCL's own choice stands: two
/// servers or fewer, GPUs per server it has no polygons for, or no polygon holding the point
/// among the pairs NCCL can run (`runnable`).
std::optional<std::pair<Algorithm, Protocol>>
pick(Platform platform, Function function, double bytes, int nodes, int ranksPerNode,
     const std::function<bool(Algorithm, Protocol)>& runnable);

} // namespace fabriclab::sim::nccl::aws
