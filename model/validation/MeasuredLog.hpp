// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/design/CollectiveSpec.hpp"
#include "model/design/Design.hpp"
#include "model/io/NcclTestsLog.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

/// A team's own nccl-tests log set against what FabricLab predicts for the cluster it ran
/// on: the user names the design once, and every row of every run in the log is timed on
/// it by runNcclTests, the function behind `fabriclab-cli nccl-tests` and the app's
/// bus-bandwidth chart. What `validate DESIGN --figures LOG` prints and Help > Model
/// accuracy > Your own figures shows.
namespace fabriclab::model {

/// How close a prediction must come to a measurement of `bytes` to count as met: the goals
/// the published check set is held to (docs/sources.md). Below 1 MiB the time, within 25%
/// (the bus bandwidth there is a few GB/s printed to 0.01); from 1 MiB the bus bandwidth,
/// within 20% for all-to-all, 25% below 1 GiB and 10% from 1 GiB on.
struct MeasuredTolerance {
    bool byTime = false;
    double relative = 0;
};
MeasuredTolerance measuredTolerance(CollectiveOp op, double bytes);

/// One row of the log beside FabricLab's figure for it.
struct MeasuredPoint {
    int line = 0;
    double bytes = 0;
    double measuredTimeUs = 0; ///< out-of-place, the figure a log's reader quotes first
    double measuredBusBwGBps = 0;
    std::optional<double> measuredInPlaceBusBwGBps;
    double predictedTimeUs = 0;
    double predictedBusBwGBps = 0;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    CollectiveProtocol protocol = CollectiveProtocol::Simple;
    /// False for a row with nothing to compare (size 0: fewer bytes than ranks x the
    /// type's size); shown, not counted.
    bool compared = false;
    bool byTime = false;
    double error = 0; ///< (predicted - measured) / measured, of the time or the busbw
    double tolerance = 0;
    bool within = false;
};

/// One run of the log (one test binary), as the design runs it.
struct MeasuredRun {
    int line = 0;
    CollectiveOp op = CollectiveOp::AllReduce;
    std::string binary; ///< as the log names it, or nccl-tests' name of `op`
    int ranks = 0;
    int servers = 0;
    int gpusPerServer = 0;
    std::string measuredGpu; ///< as the log names it; empty when it does not
    /// What the reader should know: how the run was matched to the design, GPUs that
    /// differ, rows not compared.
    std::vector<std::string> notes;
    std::vector<MeasuredPoint> points;
    int compared = 0;
    int within = 0;
    double medianAbsError = 0;
};

struct MeasuredComparison {
    std::string logName;
    std::string designName;
    std::string fabricId;
    std::string gpuId;
    bool json = false; ///< the log was a -J file
    std::vector<MeasuredRun> runs;
    int compared = 0;
    int within = 0;
    double medianAbsError = 0;
    double meanAbsError = 0;
};

struct MeasuredOptions {
    /// The collective of a run whose log does not say (an old log's all_gather_perf); a run
    /// that names its own keeps it.
    std::optional<CollectiveOp> op;
    std::optional<std::string> fabricId; ///< predict on this fabric instead of the design's
    std::uint64_t seed = 1;
    std::stop_token stop;
    std::function<void(int done, int total)> progress;
};

/// A run of the log whose collective nothing in the log names, and no MeasuredOptions::op:
/// the caller asks (the CLI's --op, the app's question) and tries again.
class UnknownCollective : public std::invalid_argument {
public:
    UnknownCollective(const std::string& logName, int line);
};

/// Times every row of every run of `log` on `design`'s first servers, as many as the run
/// had hosts. Throws UnknownCollective as above, and std::invalid_argument naming the log
/// and the run's line when the design cannot stand for the cluster (more servers than it
/// has, another number of GPUs per server, a collective FabricLab does not model).
MeasuredComparison compareMeasured(const Design& design, const Catalog& catalog,
                                   const NcclTestsLog& log, const std::string& logName,
                                   const MeasuredOptions& options = {});

/// Per run, a table of size, measured and predicted busbw and time, error, tolerance and
/// verdict, then the score.
std::string formatMeasured(const MeasuredComparison& comparison);
/// The score and one object per run with its points.
std::string measuredJson(const MeasuredComparison& comparison);
/// One RFC 4180 record per row of the log.
std::string measuredCsv(const MeasuredComparison& comparison);

} // namespace fabriclab::model
