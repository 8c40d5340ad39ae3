// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/Units.hpp"

#include <optional>
#include <string>

namespace fabriclab::model {

/// What a user asks a generator for. Field names follow the design file's "generator".
struct GeneratorParams {
    std::string kind = "leaf-spine"; ///< "leaf-spine", "fat-tree" or "rail-only"
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

    friend bool operator==(const GeneratorParams&, const GeneratorParams&) = default;
};

} // namespace fabriclab::model
