// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// libFuzzer target: any bytes as nccl-tests output a team hands to `validate DESIGN
// --figures LOG` or Help > Model accuracy > Your own figures (the printed table or a -J
// JSON file), read and, when it reads and is short, set against a two-server design as
// the app does. Refusals are the contract; crashes, hangs and undefined behaviour are bugs.
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/NcclTestsLog.hpp"
#include "model/validation/MeasuredLog.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

namespace {

/// Rows past this would make a fuzz input a long simulation, not a search for faults.
constexpr std::size_t kMaxComparedRows = 64;

const fabriclab::model::Design& twoServers() {
    static const fabriclab::model::Design design = fabriclab::model::parseDesign(
        R"({"format": "fabriclab-design", "version": 1, "name": "fuzz", "fabric": "ib-ndr",
            "generator": {"kind": "leaf-spine", "servers": 2, "gpusPerServer": 8,
                          "nicsPerServer": 8, "nicGbps": 400, "railOptimized": true,
                          "leafRadix": 64, "spineRadix": 64, "oversubscription": 1}})",
        "fuzz", fabriclab::model::Catalog::builtin());
    return design;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fabriclab::model;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const NcclTestsLog log = readNcclTestsLog(text, "fuzz.log");
        std::size_t rows = 0;
        for (const NcclTestsLogRun& run : log.runs)
            rows += run.rows.size();
        if (rows > kMaxComparedRows)
            return 0;
        MeasuredOptions options;
        options.op = CollectiveOp::AllGather;
        (void)formatMeasured(
            compareMeasured(twoServers(), Catalog::builtin(), log, "fuzz.log", options));
    } catch (const std::exception&) {
    }
    return 0;
}
