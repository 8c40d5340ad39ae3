// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// fabriclab-bench: FabricLab's flow engine timed against SimGrid on the same flows.
#include "app/ProcessMemory.hpp"
#include "bench/BenchCases.hpp"
#include "bench/ChildProcess.hpp"
#include "bench/Report.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr const char* kUsage = R"(Usage: fabriclab-bench [options]

Times FabricLab's max-min solver and flow simulator against SimGrid (CM02 with every
correction off: pure max-min) on the same single-path flows of generated roce-v2 fabrics,
one thread, each side in a fresh child process, and checks that both give the same rates.

Cases:
  a  one solve of a 32,768-GPU random permutation (4,096 servers x 8 NICs, two tiers)
  b  all-to-all among 1,024 GPUs (128 servers x 8 NICs): build + one solve, and memory
  c  a 4,096-GPU random permutation drained to completion, 64 MiB per flow
  d  solve time for 1K to 1M random pairs on the case-a fabric
  e  full runs (fabriclab-cli run) at 1K, 16K, 65K, 131K and 1M GPUs: wall time and peak memory,
     with one permutation on the same fabric routed and solved apart
  p  the layout planner (fabriclab-cli plan): every split of Llama 3.1 405B on 16,384 GPUs
     (the 16K sample's job), ranked on its fabric; goal under 5 s

Options:
  --quick                  tiny versions of every case (a smoke test, not a measurement)
  --cases LETTERS          run only these cases, e.g. --cases ab (default abcd; e is long:
                           a few minutes, so it runs only when asked)
  --repeat N               runs per side (default: 3 for a and b, 1 for c and d)
  --simgrid-max-flows N    case d: skip SimGrid above N flows (default 262144: SimGrid
                           needs about a minute for 1M flows; 1048576 runs it anyway)
  -h, --help               this text
)";

bool parsePositive(std::string_view text, long long& value) {
    char* end = nullptr;
    const std::string copy(text);
    value = std::strtoll(copy.c_str(), &end, 10);
    return end != copy.c_str() && *end == '\0' && value > 0;
}

} // namespace

int main(int argc, char** argv) {
    // Measure with the memory behaviour the products run with.
    fabriclab::app::returnLargeBlocksToTheSystem();
    fabriclab::bench::BenchOptions options;
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        const bool hasValue = i + 1 < args.size();
        long long value = 0;
        if (arg == "-h" || arg == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (arg == "--quick") {
            options.quick = true;
        } else if (arg == "--cases" && hasValue &&
                   args[i + 1].find_first_not_of("abcdep") == std::string_view::npos &&
                   !args[i + 1].empty()) {
            options.cases = std::string(args[++i]);
        } else if (arg == "--repeat" && hasValue && parsePositive(args[i + 1], value)) {
            options.repeat = static_cast<int>(value);
            ++i;
        } else if (arg == "--simgrid-max-flows" && hasValue && parsePositive(args[i + 1], value)) {
            options.simgridMaxFlows = static_cast<std::size_t>(value);
            ++i;
        } else {
            std::fprintf(stderr, "fabriclab-bench: bad argument '%.*s' (see --help)\n",
                         static_cast<int>(arg.size()), arg.data());
            return 2;
        }
    }

    try {
        // What a child costs before it does anything: the floor under every memory figure.
        const double baselineMb =
            fabriclab::bench::runInChild([] { return std::vector<double>{}; }).peakRssMb;
        std::vector<fabriclab::bench::CaseResult> rows;
        std::fprintf(stderr, "fabriclab-bench: running cases %s%s\n", options.cases.c_str(),
                     options.quick ? " (quick)" : "");
        fabriclab::bench::runCases(options, [&](const fabriclab::bench::CaseResult& row) {
            fabriclab::bench::printProgress(stderr, row);
            rows.push_back(row);
        });
        fabriclab::bench::printReport(stdout, rows, options, baselineMb);
        for (const auto& row : rows)
            if (!row.fabriclab.ran || (!row.simgrid.ran && row.simgridSkipped.empty()))
                return 1; // a side failed: the smoke test must notice
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fabriclab-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
