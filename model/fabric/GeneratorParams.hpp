// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/Units.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace fabriclab::model {

/// What a user asks a generator for: the vocabulary the Clos kinds share, plus `extra` for
/// a kind's own parameters. Field names follow the design file's "generator"; each kind's
/// registry entry says which fields it reads (GeneratorField.hpp).
struct GeneratorParams {
    std::string kind = "leaf-spine"; ///< a registered kind (Generators.hpp)
    int servers = 8;
    int gpusPerServer = 8;
    int nicsPerServer = 8;
    Gbps nicSpeed{400};
    bool railOptimized = true;
    int leafRadix = 64;
    int spineRadix = 64;
    int coreRadix = 64;                 ///< fat-tree only
    double oversubscription = 1.0;      ///< leaf downlink : uplink bandwidth
    double spineOversubscription = 1.0; ///< fat-tree only: spine downlink : uplink
    std::optional<int> serversPerPod;   ///< fat-tree only; largest pod that fits when absent
    /// Leaf-spine only: independent planes of spines, each serving an equal group of rails
    /// (8 on 8 rails: DeepSeek's multi-plane fat-tree); the fewest that fit when absent.
    std::optional<int> planes;
    /// Ports of each NIC, each in its own plane at nicGbps / portsPerNic: the fabric is built
    /// once per port, every plane holding every rail (ConnectX-8 multiplane, MRC); one port
    /// per NIC when absent.
    std::optional<int> portsPerNic;
    /// A kind's own parameters beyond the shared ones, by design-file key.
    std::map<std::string, double, std::less<>> extra;

    friend bool operator==(const GeneratorParams&, const GeneratorParams&) = default;
};

} // namespace fabriclab::model
