// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/design/Design.hpp"
#include "model/sim/BusBandwidthCurve.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// An nccl-tests run over a design: one collective, a range of sizes, the first servers.
struct NcclTestsOptions {
    CollectiveOp op = CollectiveOp::AllReduce;
    double minBytes = 8;                  ///< -b
    double maxBytes = 8.0 * (1ull << 30); ///< -e
    double factor = 2;                    ///< -f
    /// -i: the step in bytes the sizes were made with (shown in the header), when not -f
    std::optional<double> stepBytes;
    /// These sizes in bytes instead of -b, -e and -f (the sizes of a real run's log).
    std::vector<double> sizes;
    std::optional<int> servers;          ///< the first N servers; all when absent
    std::optional<std::string> fabricId; ///< evaluate on this fabric instead of the design's
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto; ///< NCCL_ALGO
    CollectiveProtocol protocol = CollectiveProtocol::Auto;    ///< NCCL_PROTO
    std::uint64_t seed = 1;                                    ///< ECMP hashes
    std::stop_token stop;
    /// What nccl-tests' flags set that no simulated figure depends on, echoed in its header
    /// as nccl-tests echoes them: -d, -o, -r, -t, -g, -w, -n, -m, -c, -G.
    std::string dataType = "float";
    std::string redop; ///< empty: the collective's own (sum, or none where it has none)
    int root = 0;
    int threads = 1;
    int gpusPerThread = 1;
    int warmupIters = 5;
    int iters = 20;
    int aggIters = 1;
    int check = 1;
    int graph = 0;
    /// Round each generated size down as nccl-tests does: to whole elements of the data
    /// type, and for all-gather, reduce-scatter and all-to-all to whole elements per rank
    /// (a size that rounds to 0 is left out).
    bool roundSizesAsNcclTests = false;
};

/// The nccl-tests binary that times `op`: "all_reduce_perf", "alltoall_perf", ...
std::string ncclTestsBinary(CollectiveOp op);

/// Bytes per element of an nccl-tests data type ("float", "bfloat16", "int8", ...);
/// nothing for a name nccl-tests does not know.
std::optional<int> ncclTestsTypeBytes(std::string_view type);

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
    std::string gpuName; ///< as a rank line names the device
    std::string designName;
    std::vector<std::string> hosts; ///< the servers taking part, in rank order
    NcclTestsOptions options;       ///< as run (sizes, flags echoed in the header)
    CollectiveOp op = CollectiveOp::AllReduce;
    int servers = 0;
    int gpusPerServer = 0;
    int ranks = 0;
    std::string type = "float"; ///< nccl-tests' data type (-d)
    std::vector<NcclTestsRow> rows;
};

/// Times the collective at every size as nccl-tests would measure it on the design's first
/// servers, with the same function the app's bus-bandwidth chart uses (busBandwidthCurve).
/// The GPU is the workload's, an H100 when the design has none. Throws
/// std::invalid_argument for options the design cannot meet (more servers than it has).
NcclTestsReport runNcclTests(const Design& design, const Catalog& catalog,
                             const NcclTestsOptions& options);

/// The report in nccl-tests' own layout: its header lines, a rank line per GPU, the 13
/// columns (size, count, type, redop, root, then time, algbw, busbw and #wrong out of place
/// and in place; #wrong is N/A, nothing is checked), and its footer with the average bus
/// bandwidth, so a parser written for nccl-tests reads it. `explain` adds the algorithm,
/// the protocol and who chose them ("nccl", a tuner, or "forced" by --algo/--proto) after
/// the 13 columns.
std::string formatNcclTests(const NcclTestsReport& report, bool explain = false);

/// The report as the JSON file nccl-tests' -J option writes (its src/util.cu layout,
/// version 3): argv with the test binary first, config with a device per rank, results with
/// out_of_place and in_place time, alg_bw, bus_bw, the average bus bandwidth. Booleans are
/// strings and root a padded string, as nccl-tests writes them; nwrong is null (nothing is
/// checked). `startTime` is the "start_time" and "end_time" text. `provenance`, when given, is
/// added last as "fabriclab": FabricLab's output head (model/io/OutputContract.hpp).
std::string ncclTestsOutputFileJson(const NcclTestsReport& report, const std::string& startTime,
                                    const nlohmann::ordered_json& provenance = {});

/// One object per size: bytes, timeUs, algBwGBps, busBwGBps, algorithm, protocol, chosenBy,
/// and on static ECMP fabrics the spread over draws of flow keys.
std::string ncclTestsJson(const NcclTestsReport& report);

} // namespace fabriclab::model
