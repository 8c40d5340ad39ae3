// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/CollectiveSpec.hpp"

#include <string>

namespace fabriclab::model {

/// One published figure and the cluster it was measured on.
struct PublishedFigure {
    std::string id;
    /// "fit": a catalog constant was calibrated to it (`calibrates` names it), so meeting it
    /// proves nothing; "check": nothing was tuned to it.
    std::string set;
    std::string source;
    std::string reliability;
    std::string calibrates;
    std::string why;     ///< where the tolerance comes from
    std::string finding; ///< a known miss says why it misses; empty otherwise
    int servers = 0;
    int gpusPerServer = 0;
    int nicsPerServer = 0;
    double nicGbps = 0;
    int leafRadix = 64;
    int spineRadix = 64;
    std::string fabric;
    std::string gpu;
    CollectiveOp op = CollectiveOp::AllReduce;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto; ///< as the run forced it
    double bytes = 0;
    bool timeUs = false; ///< the figure is the time in microseconds, not busbw in GB/s
    double low = 0;      ///< the published range (low = high for one number)
    double high = 0;
    double tolerance = 0; ///< relative, beyond the range

    bool isCheck() const { return set == "check"; }
    bool knownMiss() const { return !finding.empty(); }
};

} // namespace fabriclab::model
