// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/io/NcclTestsLog.hpp"

#include "model/io/FabricImport.hpp"
#include "model/core/JsonCursor.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace fabriclab::model {
namespace {

/// More rows than any sweep prints (8 B to 16 GiB in steps of 2 is 32), times thousands of
/// runs: past this a file is not a log, and reading on would only exhaust memory.
constexpr std::size_t kMaxRows = 1'000'000;
/// Sizes and times past this are not measurements (16 EiB; 11 days in microseconds).
constexpr double kMaxValue = 1.8e19;

using Tokens = std::vector<std::string_view>;

Tokens split(std::string_view line) {
    Tokens tokens;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            ++i;
        if (i > start)
            tokens.push_back(line.substr(start, i - start));
    }
    return tokens;
}

bool isUnsigned(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// A finite, non-negative number as nccl-tests prints one ("135.8", "12646", "1.2e+05").
std::optional<double> number(std::string_view text) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
        value < 0 || value > kMaxValue)
        return std::nullopt;
    return value;
}

/// What mpirun --tag-output ("[1,0]<stdout>:") and srun --label ("12: ") put before each
/// line, taken off so the line reads as nccl-tests printed it.
std::string_view untagged(std::string_view line) {
    if (line.starts_with('[')) {
        const std::size_t close = line.find("]<std");
        const std::size_t colon = line.find(">:");
        if (close != std::string_view::npos && colon != std::string_view::npos && colon > close)
            return line.substr(colon + 2);
    }
    std::size_t digits = 0;
    while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9')
        ++digits;
    if (digits > 0 && digits + 1 < line.size() && line[digits] == ':' && line[digits + 1] == ' ')
        return line.substr(digits + 2);
    return line;
}

/// "/opt/nccl-tests/build/all_reduce_perf" -> "all_reduce_perf"; empty when the token does
/// not name a test binary.
std::string binaryName(std::string_view token) {
    if (const std::size_t slash = token.find_last_of('/'); slash != std::string_view::npos)
        token.remove_prefix(slash + 1);
    if (!token.ends_with("_perf") || token.size() <= 5)
        return {};
    return std::string(token);
}

/// Where a row's figures are: the header's columns by name, the first of each for the
/// out-of-place half and the second for the in-place half.
struct Columns {
    std::size_t width = 0;
    int time[2] = {-1, -1};
    int algbw[2] = {-1, -1};
    int busbw[2] = {-1, -1};

    /// The columns nccl-tests has printed since 2.11: size count type redop root, then
    /// time algbw busbw #wrong for each half.
    static Columns current() {
        return fromNames({"size", "count", "type", "redop", "root", "time", "algbw", "busbw",
                          "#wrong", "time", "algbw", "busbw", "#wrong"});
    }

    static Columns fromNames(const Tokens& names) {
        Columns c;
        c.width = names.size();
        for (std::size_t i = 0; i < names.size(); ++i) {
            const auto place = [&](int(&slot)[2]) {
                if (slot[0] < 0)
                    slot[0] = static_cast<int>(i);
                else if (slot[1] < 0)
                    slot[1] = static_cast<int>(i);
            };
            if (names[i] == "time" || names[i] == "cpu_time")
                place(c.time);
            else if (names[i] == "algbw")
                place(c.algbw);
            else if (names[i] == "busbw")
                place(c.busbw);
        }
        return c;
    }

    bool usable() const { return time[0] >= 0 && algbw[0] >= 0 && busbw[0] >= 0; }
    std::size_t needed() const {
        return static_cast<std::size_t>(std::max({time[0], algbw[0], busbw[0]})) + 1;
    }
};

/// "#       size         count      type   redop    root     time ..." (the tokens after '#').
bool isHeader(const Tokens& t) {
    return t.size() >= 6 && t[0] == "size" && t[1] == "count" && t[2] == "type";
}

/// A result row starts with two whole numbers (size, count) and a type name.
bool looksLikeRow(const Tokens& t) {
    return t.size() >= 3 && isUnsigned(t[0]) && isUnsigned(t[1]) &&
           std::isalpha(static_cast<unsigned char>(t[2].front()));
}

NcclTestsLogRow readRow(const Tokens& t, const Columns& columns, const std::string& origin,
                        int line) {
    if (t.size() < columns.needed())
        throw ImportError(origin, line,
                          "a result row of " + std::to_string(t.size()) +
                              " fields where the header has " + std::to_string(columns.width) +
                              " columns (a truncated line?)");
    const auto field = [&](int column, const char* name) {
        const std::optional<double> value = number(t[static_cast<std::size_t>(column)]);
        if (!value)
            throw ImportError(origin, line,
                              std::string("\"") + std::string(t[static_cast<std::size_t>(column)]) +
                                  "\" in the " + name + " column is not a measurement");
        return *value;
    };
    NcclTestsLogRow row;
    row.line = line;
    row.bytes = field(0, "size");
    row.count = field(1, "count");
    row.type = std::string(t[2]);
    row.outOfPlaceTimeUs = field(columns.time[0], "time");
    row.outOfPlaceAlgBwGBps = field(columns.algbw[0], "algbw");
    row.outOfPlaceBusBwGBps = field(columns.busbw[0], "busbw");
    // The in-place half: kept when the line has it, as a short line from an older build
    // may not.
    const auto optionalField = [&](int column) -> std::optional<double> {
        if (column < 0 || static_cast<std::size_t>(column) >= t.size())
            return std::nullopt;
        return number(t[static_cast<std::size_t>(column)]);
    };
    row.inPlaceTimeUs = optionalField(columns.time[1]);
    row.inPlaceBusBwGBps = optionalField(columns.busbw[1]);
    return row;
}

/// "#  Rank  0 Group  0 Pid 2627782 on cnode3-002 device  0 [0000:1b:00] NVIDIA H100 80GB
/// HBM3" (and the older "#   Rank  0 Pid 23638 on host device  0 [0x00] Tesla V100").
void readRank(std::string_view line, const Tokens& t, NcclTestsLogRun& run) {
    const auto on = std::find(t.begin(), t.end(), "on");
    if (on == t.end() || on + 1 == t.end())
        return;
    const std::string host(*(on + 1));
    if (std::find(run.hosts.begin(), run.hosts.end(), host) == run.hosts.end())
        run.hosts.push_back(host);
    ++run.ranks;
    if (run.gpuName.empty())
        if (const std::size_t close = line.find(']'); close != std::string_view::npos) {
            std::string_view name = line.substr(close + 1);
            while (!name.empty() && (name.front() == ' ' || name.front() == '\t'))
                name.remove_prefix(1);
            while (!name.empty() && (name.back() == ' ' || name.back() == '\r'))
                name.remove_suffix(1);
            run.gpuName = std::string(name);
        }
}

/// Only an all-reduce moves more over the bus than its algorithm bandwidth: 2(n-1)/n, at
/// least 4/3 from three ranks on, where every other collective's factor is at most 1. A
/// log that says nothing else of its collective is one when its rows show that factor
/// (busbw and algbw are printed to 0.01 GB/s, so rows under 1 GB/s are left out).
bool looksLikeAllReduce(const NcclTestsLogRun& run) {
    int telling = 0;
    for (const NcclTestsLogRow& row : run.rows) {
        if (row.outOfPlaceAlgBwGBps < 1)
            continue;
        if (row.outOfPlaceBusBwGBps / row.outOfPlaceAlgBwGBps < 1.2)
            return false;
        ++telling;
    }
    return telling > 0;
}

void finish(NcclTestsLogRun& run) {
    if (!run.op && !run.binary.empty())
        run.op = collectiveOfBinary(run.binary);
    if (!run.op && run.binary.empty() && looksLikeAllReduce(run))
        run.op = CollectiveOp::AllReduce;
}

NcclTestsLog readText(std::string_view text, const std::string& origin) {
    NcclTestsLog log;
    NcclTestsLogRun run;
    Columns columns = Columns::current();
    std::size_t rows = 0;
    int lineNumber = 0;
    // A marker of a new run (its version, its name, its parameters, a rank after rows)
    // closes the run before it only once that one has rows: the markers of one run come
    // in a block before its table.
    const auto close = [&] {
        if (!run.rows.empty()) {
            finish(run);
            log.runs.push_back(std::move(run));
        }
        run = NcclTestsLogRun();
    };
    const auto startingAt = [&](int line) {
        if (!run.rows.empty())
            close();
        if (run.line == 0)
            run.line = line;
    };
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = untagged(text.substr(start, end - start));
        start = end + 1;
        ++lineNumber;
        const Tokens t = split(line);
        if (t.empty())
            continue;
        if (t[0] == "#" || t[0].starts_with('#')) {
            Tokens words(t.begin() + (t[0] == "#" ? 1 : 0), t.end());
            if (t[0] != "#")
                words.insert(words.begin(), t[0].substr(1));
            if (words.empty())
                continue;
            if (isHeader(words)) {
                const Columns named = Columns::fromNames(words);
                if (named.usable())
                    columns = named;
            } else if (words[0] == "nccl-tests" && words.size() >= 3 && words[1] == "version") {
                startingAt(lineNumber);
                run.version = std::string(words[2]);
            } else if (words.size() >= 4 && words[0] == "Collective" && words[2] == "starting:") {
                startingAt(lineNumber);
                run.binary = binaryName(words[3]);
            } else if (words[0] == "Collective" && words.size() >= 3 && words[2] == "concluded:") {
                close();
            } else if (words[0] == "nThread") {
                startingAt(lineNumber);
            } else if (words[0] == "Rank" && words.size() >= 2 && isUnsigned(words[1])) {
                startingAt(lineNumber);
                readRank(line, words, run);
            } else if (words.size() >= 5 && words[0] == "Avg" && words[1] == "bus" &&
                       words[2] == "bandwidth") {
                run.averageBusBwGBps = number(words[4]);
            }
            continue;
        }
        if (looksLikeRow(t)) {
            if (++rows > kMaxRows)
                throw ImportError(origin, lineNumber,
                                  "more than " + std::to_string(kMaxRows) +
                                      " result rows: not an nccl-tests log");
            if (run.line == 0)
                run.line = lineNumber;
            run.rows.push_back(readRow(t, columns, origin, lineNumber));
            continue;
        }
        // The command line as typed ("mpirun ... /build/all_reduce_perf -b 8 -e 8G") names
        // the run that follows it.
        for (const std::string_view token : t)
            if (std::string binary = binaryName(token); !binary.empty()) {
                startingAt(lineNumber);
                if (run.binary.empty())
                    run.binary = std::move(binary);
                break;
            }
    }
    close();
    return log;
}

/// A number the -J writer printed with %lf, or null / "nan" where it had none.
std::optional<double> jsonNumber(const JsonCursor& c) {
    if (c.value().is_null() || (c.value().is_string() && c.value().get<std::string>() == "nan"))
        return std::nullopt;
    return c.number(0, kMaxValue);
}

/// The half of a result the -J writer calls "out_of_place" or "in_place": time (cpu_time
/// with -C 1), alg_bw and bus_bw.
struct JsonHalf {
    std::optional<double> timeUs;
    std::optional<double> algBw;
    std::optional<double> busBw;
};

JsonHalf readHalf(const JsonCursor& half) {
    JsonHalf h;
    h.timeUs = jsonNumber(half.has("time") ? half["time"] : half["cpu_time"]);
    h.algBw = jsonNumber(half["alg_bw"]);
    h.busBw = jsonNumber(half["bus_bw"]);
    return h;
}

NcclTestsLog readJson(std::string_view text, const std::string& origin) {
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw JsonError(origin, "", std::string("not valid JSON: ") + e.what());
    }
    const JsonCursor root(document, origin);
    if (!root.isObject() || !root.has("results"))
        root.fail("not an nccl-tests -J file: it has no \"results\" (FabricLab's own figures "
                  "have \"cases\")");
    NcclTestsLog log;
    log.json = true;
    NcclTestsLogRun run;
    if (const auto args = root.find("args"); args && args->size() > 0)
        run.binary = binaryName(args->at(0).string());
    if (const auto version = root.find("nccl_version"); version && version->value().is_number())
        run.version = "NCCL " + std::to_string(version->integer(0, 1'000'000'000));
    if (const auto config = root.find("config")) {
        const long long threads =
            config->has("nthreads") ? (*config)["nthreads"].integer(1, 1024) : 1;
        const long long gpus = config->has("ngpus") ? (*config)["ngpus"].integer(1, 1024) : 1;
        if (const auto devices = config->find("devices")) {
            // One entry per process: each drives threads x GPUs ranks.
            for (std::size_t i = 0; i < devices->size() && i < kMaxRows; ++i) {
                const JsonCursor device = devices->at(i);
                const std::string host = device["hostname"].string();
                if (std::find(run.hosts.begin(), run.hosts.end(), host) == run.hosts.end())
                    run.hosts.push_back(host);
                if (run.gpuName.empty() && device.has("device_info"))
                    run.gpuName = device["device_info"].string();
            }
            run.ranks = static_cast<int>(std::min<long long>(
                static_cast<long long>(devices->size()) * threads * gpus, 1'000'000'000));
        }
    }
    const JsonCursor results = root["results"];
    if (results.size() > kMaxRows)
        results.fail("more than " + std::to_string(kMaxRows) + " results");
    for (std::size_t i = 0; i < results.size(); ++i) {
        const JsonCursor result = results.at(i);
        NcclTestsLogRow row;
        row.bytes = result["size"].number(0, kMaxValue);
        row.count = result.has("count") ? result["count"].number(0, kMaxValue) : 0;
        row.type = result.has("type") ? result["type"].string() : std::string();
        const JsonHalf out = readHalf(result["out_of_place"]);
        if (!out.timeUs || !out.algBw || !out.busBw)
            result["out_of_place"].fail("the out-of-place time and bandwidths are not numbers");
        row.outOfPlaceTimeUs = *out.timeUs;
        row.outOfPlaceAlgBwGBps = *out.algBw;
        row.outOfPlaceBusBwGBps = *out.busBw;
        if (const auto in = result.find("in_place")) {
            const JsonHalf half = readHalf(*in);
            row.inPlaceTimeUs = half.timeUs;
            row.inPlaceBusBwGBps = half.busBw;
        }
        run.rows.push_back(std::move(row));
    }
    // Before 2.17.9 the writer spelled it "average_bus_bandwidith" / "bandwidith".
    for (const auto& [key, inner] : {std::pair{"average_bus_bandwidth", "bandwidth"},
                                     std::pair{"average_bus_bandwidith", "bandwidith"}})
        if (const auto average = root.find(key); average && average->has(inner))
            run.averageBusBwGBps = jsonNumber((*average)[inner]);
    if (!run.rows.empty()) {
        finish(run);
        log.runs.push_back(std::move(run));
    }
    return log;
}

} // namespace

int NcclTestsLogRun::ranksPerHost() const {
    if (ranks <= 0 || hosts.empty() || ranks % static_cast<int>(hosts.size()) != 0)
        return 0;
    return ranks / static_cast<int>(hosts.size());
}

std::optional<CollectiveOp> collectiveOfBinary(std::string_view binary) {
    if (const std::size_t slash = binary.find_last_of('/'); slash != std::string_view::npos)
        binary.remove_prefix(slash + 1);
    if (binary.ends_with("_perf"))
        binary.remove_suffix(5);
    // reduce_perf, gather_perf, scatter_perf, hypercube_perf: not modelled.
    if (binary == "reduce" || binary == "gather" || binary == "scatter" || binary == "hypercube")
        return std::nullopt;
    return collectiveOpFromString(binary);
}

NcclTestsLog readNcclTestsLog(std::string_view text, const std::string& origin) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    NcclTestsLog log = first != std::string_view::npos && text[first] == '{'
                           ? readJson(text, origin)
                           : readText(text, origin);
    if (log.runs.empty())
        throw std::invalid_argument(
            origin + ": no nccl-tests result rows (expected the table all_reduce_perf and its "
                     "siblings print, or the JSON file their -J option writes)");
    return log;
}

} // namespace fabriclab::model
