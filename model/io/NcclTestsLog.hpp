// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/CollectiveSpec.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// What nccl-tests printed on a real cluster, read as the tools write it: the text table of
/// all_reduce_perf and its siblings (one log may hold several runs, with NCCL's INFO lines
/// and MPI's tags between them), or the JSON file `-J out.json` writes. The layouts are
/// those of NVIDIA/nccl-tests' src/common.cu and src/util.cu (docs/sources.md, "Your own
/// nccl-tests logs").
namespace fabriclab::model {

/// One size of a run: the row nccl-tests prints.
struct NcclTestsLogRow {
    int line = 0; ///< where it is in the file (1-based); 0 in a JSON file
    double bytes = 0;
    double count = 0;
    std::string type;
    double outOfPlaceTimeUs = 0;
    double outOfPlaceAlgBwGBps = 0;
    double outOfPlaceBusBwGBps = 0;
    /// The in-place half; absent when the row has none (or, in JSON, it reads "nan").
    std::optional<double> inPlaceTimeUs;
    std::optional<double> inPlaceBusBwGBps;
};

/// One test binary's run: its header, the ranks it listed and its rows.
struct NcclTestsLogRun {
    int line = 0; ///< where the run starts (1-based); 0 in a JSON file
    /// The collective, from "# Collective test starting: all_gather_perf", the command line
    /// (`.../all_reduce_perf -b 8`), the JSON file's argv, or the bus factor only an
    /// all-reduce has. Empty when none of them says.
    std::optional<CollectiveOp> op;
    std::string binary;  ///< "all_reduce_perf" as the log names it; empty when it does not
    std::string version; ///< "2.17.8" from "# nccl-tests version"; empty on older logs
    int ranks = 0;       ///< GPUs that took part; 0 when the log lists none
    std::vector<std::string> hosts;         ///< distinct hosts of the ranks, in order
    std::string gpuName;                    ///< the device rank 0 names ("NVIDIA H100 80GB HBM3")
    std::optional<double> averageBusBwGBps; ///< the footer's "Avg bus bandwidth"
    std::vector<NcclTestsLogRow> rows;

    /// Ranks per host when they spread evenly; 0 otherwise.
    int ranksPerHost() const;
};

struct NcclTestsLog {
    bool json = false; ///< read from a `-J` file, not the text table
    std::vector<NcclTestsLogRun> runs;
};

/// Reads nccl-tests output: a `-J` JSON file when the text is a JSON object, the printed
/// table otherwise. Lines that are not nccl-tests' own (NCCL INFO, MPI tags, the shell
/// prompt) are passed over. Throws ImportError ("FILE:LINE: ...") for a row that starts as
/// one and does not parse, JsonError for a JSON file that is not nccl-tests', and
/// std::invalid_argument naming `origin` when no run has a row.
NcclTestsLog readNcclTestsLog(std::string_view text, const std::string& origin);

/// The collective a test binary measures: "all_reduce_perf" (or a path ending in it) is
/// AllReduce. Empty for binaries FabricLab does not model (reduce_perf, gather_perf).
std::optional<CollectiveOp> collectiveOfBinary(std::string_view binary);

} // namespace fabriclab::model
