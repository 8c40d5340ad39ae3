// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/design/Design.hpp"
#include "model/sim/BusBandwidthCurve.hpp"

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace fabriclab::model {

/// An nccl-tests run over a design: one collective, a range of sizes, the first servers.
struct NcclTestsOptions {
    CollectiveOp op = CollectiveOp::AllReduce;
    double minBytes = 8;                  ///< -b
    double maxBytes = 8.0 * (1ull << 30); ///< -e
    double factor = 2;                    ///< -f
    /// These sizes in bytes instead of -b, -e and -f (the sizes of a real run's log).
    std::vector<double> sizes;
    std::optional<int> servers;          ///< the first N servers; all when absent
    std::optional<std::string> fabricId; ///< evaluate on this fabric instead of the design's
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto; ///< NCCL_ALGO
    CollectiveProtocol protocol = CollectiveProtocol::Auto;    ///< NCCL_PROTO
    std::uint64_t seed = 1;                                    ///< ECMP hashes
    std::stop_token stop;
};

/// What all_reduce_perf and its siblings print, per size.
struct NcclTestsRow {
    double bytes = 0;
    double count = 0; ///< elements of `type`, as nccl-tests counts them
    double timeUs = 0;
    double algBwGBps = 0;
    double busBwGBps = 0;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    CollectiveProtocol protocol = CollectiveProtocol::Simple;
    std::string chosenBy = "nccl"; ///< NCCL's cost model, or a tuner plugin ("aws-ofi-nccl")
    double busBwMinGBps = 0;       ///< slowest of the ECMP draws (sim::BusBwPoint)
    double busBwMaxGBps = 0;       ///< fastest of the ECMP draws
    int ecmpDraws = 1;
};

struct NcclTestsReport {
    std::string fabricId;
    std::string gpuId;
    CollectiveOp op = CollectiveOp::AllReduce;
    int servers = 0;
    int gpusPerServer = 0;
    int ranks = 0;
    const char* type = "float"; ///< nccl-tests' default data type
    std::vector<NcclTestsRow> rows;
};

/// Times the collective at every size as nccl-tests would measure it on the design's first
/// servers, with the same function the app's bus-bandwidth chart uses (busBandwidthCurve).
/// The GPU is the workload's, an H100 when the design has none. Throws
/// std::invalid_argument for options the design cannot meet (more servers than it has).
NcclTestsReport runNcclTests(const Design& design, const Catalog& catalog,
                             const NcclTestsOptions& options);

/// The report as nccl-tests prints it, with the algorithm and protocol chosen per size.
std::string formatNcclTests(const NcclTestsReport& report);

/// One object per size: bytes, timeUs, algbwGBps, busbwGBps, algorithm, protocol, chosenBy,
/// and on static ECMP fabrics the spread over draws of flow keys.
std::string ncclTestsJson(const NcclTestsReport& report);

} // namespace fabriclab::model
