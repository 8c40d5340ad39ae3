// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/design/Design.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

/// A real fabric as a design: what `ibnetdiscover` reports of an InfiniBand subnet, or the
/// switch tree Slurm's topology.conf describes. Tiers are read from the structure: a
/// switch with servers under it is a leaf, one above leaves a spine, one above spines a
/// core. What the files cannot say (the GPU, GPUs per server, the fabric's catalog entry)
/// comes from ImportOptions.
namespace fabriclab::model {

/// A file that cannot be read as the format: what.what() is "FILE:LINE: problem".
class ImportError : public std::invalid_argument {
public:
    ImportError(const std::string& origin, int line, const std::string& problem);
    int line() const { return m_line; }

private:
    int m_line;
};

struct ImportOptions {
    std::string name;                    ///< the design's; the file's stem when empty
    std::optional<std::string> fabricId; ///< catalog id; inferred from link speeds if absent
    std::string gpuId = "h100-sxm";      ///< the servers' GPU, for GPUs and scale-up speed
    int gpusPerServer = 8;
    /// Slurm only (topology.conf names no cables): fabric NICs per server, one cable each
    /// to its leaf; 0 means one per GPU.
    int nicsPerServer = 0;
};

/// `ibnetdiscover` output (the default topology file: Switch and Ca records with their
/// port lines). CAs are grouped into servers by the host name that starts their node
/// description ("node019 HCA-1", "srv-3 mlx5_1"); a CA whose description names no host
/// (firmware's "MT25408 ConnectX Mellanox Technologies") is a server of its own, named by
/// its GUID. Every cable, listed from both ends, is counted once; parallel cables between
/// two devices become one link of that many cables at the speed its width and rate give
/// (4xNDR: 400 Gb/s). SHARP aggregation nodes and routers are left out. Throws
/// ImportError on a truncated or foreign file, naming the line.
Design importIbnetdiscover(std::string_view text, std::string_view origin,
                           const ImportOptions& options, const Catalog& catalog);

/// Slurm's topology.conf for the tree plugin: `SwitchName=... Nodes=hostlist` for leaves
/// and `SwitchName=... Switches=hostlist` above them (comments, `\` continuations and
/// LinkSpeed accepted). Each server is cabled to its leaf with ImportOptions'
/// nicsPerServer NICs at the fabric's port speed, and each switch to every switch above it
/// with as many cables as it has below, shared out evenly: a non-blocking tree, since the
/// file names no cables. Switches listing each other (as real files have it) get one cable
/// between them. Throws ImportError on a server under two leaves, a switch listing itself,
/// a name with no definition, naming the line.
Design importSlurmTopology(std::string_view text, std::string_view origin,
                           const ImportOptions& options, const Catalog& catalog);

/// Slurm's hostlist expanded: "srv[001-003],gpu-7" is srv001, srv002, srv003, gpu-7.
/// Throws std::invalid_argument on an unbalanced bracket or a range running backwards.
std::vector<std::string> expandHostlist(std::string_view list);

} // namespace fabriclab::model
