// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/MeasuredLog.hpp"

#include "model/io/JsonTable.hpp"
#include "model/report/NcclTests.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace fabriclab::model {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

std::string where(const std::string& logName, int line) {
    return line > 0 ? logName + ":" + std::to_string(line) : logName;
}

double median(std::vector<double> values) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// The model words of a GPU's name ("H100", "B200", "MI300X"): what tells two GPUs apart
/// whatever the vendor's wording around them.
std::set<std::string> modelWords(const std::string& name) {
    std::set<std::string> words;
    std::string word;
    const auto flush = [&] {
        if (std::any_of(word.begin(), word.end(), [](char c) { return std::isdigit(c); }) &&
            std::any_of(word.begin(), word.end(), [](char c) { return std::isalpha(c); }) &&
            word.size() >= 3)
            words.insert(word);
        word.clear();
    };
    for (const char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        else
            flush();
    }
    flush();
    return words;
}

/// Servers and GPUs per server the run used, from the hosts its ranks listed.
void matchToDesign(const NcclTestsLogRun& log, const Design& design, const std::string& at,
                   MeasuredRun& run) {
    const int available = design.topology.serverCount();
    run.ranks = log.ranks;
    if (log.ranks > 0 && !log.hosts.empty()) {
        run.servers = static_cast<int>(log.hosts.size());
        run.gpusPerServer = log.ranksPerHost();
        if (run.gpusPerServer == 0)
            throw std::invalid_argument(at + ": the run's " + std::to_string(log.ranks) +
                                        " ranks do not spread evenly over its " +
                                        std::to_string(log.hosts.size()) +
                                        " hosts; FabricLab runs whole servers");
    } else {
        run.servers = available;
        run.notes.push_back("the log names no ranks: predicted on all " +
                            std::to_string(available) + " servers of the design");
    }
    if (run.servers > available)
        throw std::invalid_argument(at + ": the run used " + std::to_string(run.servers) +
                                    " servers (" + std::to_string(log.ranks) +
                                    " ranks); the design has " + std::to_string(available));
}

} // namespace

MeasuredTolerance measuredTolerance(CollectiveOp op, double bytes) {
    if (bytes < kMiB)
        return {true, 0.25};
    if (op == CollectiveOp::AllToAll)
        return {false, 0.20};
    return {false, bytes >= kGiB ? 0.10 : 0.25};
}

UnknownCollective::UnknownCollective(const std::string& logName, int line)
    : std::invalid_argument(where(logName, line) +
                            ": the log does not say which collective it measured (no \"Collective "
                            "test starting\" line or test binary, and not an all-reduce's bus "
                            "factor)") {}

MeasuredComparison compareMeasured(const Design& design, const Catalog& catalog,
                                   const NcclTestsLog& log, const std::string& logName,
                                   const MeasuredOptions& options) {
    MeasuredComparison result;
    result.logName = logName;
    result.designName = design.name;
    result.json = log.json;
    std::vector<double> allErrors;
    int done = 0;
    for (const NcclTestsLogRun& logRun : log.runs) {
        const std::string at = where(logName, logRun.line);
        MeasuredRun run;
        run.line = logRun.line;
        if (logRun.op) {
            run.op = *logRun.op;
        } else if (!logRun.binary.empty()) {
            throw std::invalid_argument(at + ": " + logRun.binary +
                                        " times a collective FabricLab does not model (it models "
                                        "all_reduce, all_gather, reduce_scatter, alltoall, "
                                        "broadcast and sendrecv)");
        } else if (options.op) {
            run.op = *options.op;
            run.notes.push_back("the log does not name its collective: compared as " +
                                ncclTestsBinary(run.op) + ", as asked");
        } else {
            throw UnknownCollective(logName, logRun.line);
        }
        run.binary = logRun.binary.empty() ? ncclTestsBinary(run.op) : logRun.binary;
        run.measuredGpu = logRun.gpuName;
        matchToDesign(logRun, design, at, run);

        NcclTestsOptions ncclOptions;
        ncclOptions.op = run.op;
        ncclOptions.servers = run.servers;
        ncclOptions.fabricId = options.fabricId;
        ncclOptions.seed = options.seed;
        ncclOptions.stop = options.stop;
        for (const NcclTestsLogRow& row : logRun.rows)
            if (row.bytes > 0 && row.outOfPlaceTimeUs > 0)
                ncclOptions.sizes.push_back(row.bytes);
        std::sort(ncclOptions.sizes.begin(), ncclOptions.sizes.end());
        ncclOptions.sizes.erase(std::unique(ncclOptions.sizes.begin(), ncclOptions.sizes.end()),
                                ncclOptions.sizes.end());
        if (ncclOptions.sizes.empty())
            ncclOptions.sizes.push_back(8); // a run of only empty rows: nothing is compared
        NcclTestsReport predicted;
        try {
            predicted = runNcclTests(design, catalog, ncclOptions);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(at + ": " + e.what());
        }
        result.fabricId = predicted.fabricId;
        result.gpuId = predicted.gpuId;
        if (run.gpusPerServer == 0) // the log listed no ranks: the design's servers
            run.gpusPerServer = predicted.gpusPerServer;
        else if (run.gpusPerServer != predicted.gpusPerServer)
            throw std::invalid_argument(
                at + ": the run used " + std::to_string(run.gpusPerServer) + " GPU" +
                (run.gpusPerServer == 1 ? "" : "s") + " per host; the design's servers have " +
                std::to_string(predicted.gpusPerServer) +
                " (FabricLab runs every GPU of a server, as NCCL jobs on a cluster do)");
        if (run.ranks == 0)
            run.ranks = predicted.ranks;
        if (const GpuSpec* gpu = catalog.findGpu(predicted.gpuId);
            gpu && !run.measuredGpu.empty()) {
            const auto measured = modelWords(run.measuredGpu);
            const auto designed = modelWords(gpu->name);
            if (std::none_of(measured.begin(), measured.end(),
                             [&](const std::string& w) { return designed.count(w) > 0; }))
                run.notes.push_back("measured on " + run.measuredGpu +
                                    "; predicted for the design's " + gpu->name);
        }

        std::map<double, const NcclTestsRow*> bySize;
        for (const NcclTestsRow& row : predicted.rows)
            bySize[row.bytes] = &row;
        std::vector<double> errors;
        int empty = 0;
        for (const NcclTestsLogRow& row : logRun.rows) {
            MeasuredPoint point;
            point.line = row.line;
            point.bytes = row.bytes;
            point.measuredTimeUs = row.outOfPlaceTimeUs;
            point.measuredBusBwGBps = row.outOfPlaceBusBwGBps;
            point.measuredInPlaceBusBwGBps = row.inPlaceBusBwGBps;
            const auto found = bySize.find(row.bytes);
            if (row.bytes <= 0 || row.outOfPlaceTimeUs <= 0 || found == bySize.end()) {
                ++empty;
                run.points.push_back(point);
                continue;
            }
            const NcclTestsRow& p = *found->second;
            point.predictedTimeUs = p.timeUs;
            point.predictedBusBwGBps = p.busBwGBps;
            point.algorithm = p.algorithm;
            point.protocol = p.protocol;
            const MeasuredTolerance tolerance = measuredTolerance(run.op, row.bytes);
            point.byTime = tolerance.byTime || row.outOfPlaceBusBwGBps <= 0;
            point.tolerance = tolerance.relative;
            point.error = point.byTime
                              ? (p.timeUs - row.outOfPlaceTimeUs) / row.outOfPlaceTimeUs
                              : (p.busBwGBps - row.outOfPlaceBusBwGBps) / row.outOfPlaceBusBwGBps;
            point.compared = true;
            point.within = std::abs(point.error) <= point.tolerance;
            ++run.compared;
            run.within += point.within ? 1 : 0;
            errors.push_back(std::abs(point.error));
            run.points.push_back(point);
        }
        if (empty > 0)
            run.notes.push_back(std::to_string(empty) + " row" + (empty == 1 ? "" : "s") +
                                " of size 0 or without a time: shown, not compared");
        run.medianAbsError = median(errors);
        allErrors.insert(allErrors.end(), errors.begin(), errors.end());
        result.compared += run.compared;
        result.within += run.within;
        result.runs.push_back(std::move(run));
        if (options.progress)
            options.progress(++done, static_cast<int>(log.runs.size()));
    }
    result.medianAbsError = median(allErrors);
    double sum = 0;
    for (const double e : allErrors)
        sum += e;
    result.meanAbsError = allErrors.empty() ? 0 : sum / static_cast<double>(allErrors.size());
    return result;
}

std::string formatMeasured(const MeasuredComparison& c) {
    std::string out;
    char line[320];
    std::snprintf(line, sizeof line, "# %s against %s (fabric %s, GPU %s)\n", c.logName.c_str(),
                  c.designName.c_str(), c.fabricId.c_str(), c.gpuId.c_str());
    out += line;
    for (const MeasuredRun& run : c.runs) {
        std::snprintf(
            line, sizeof line, "#\n# %s (line %d): %d ranks on %d server%s x %d GPUs%s%s\n",
            run.binary.c_str(), run.line, run.ranks, run.servers, run.servers == 1 ? "" : "s",
            run.gpusPerServer, run.measuredGpu.empty() ? "" : ", ", run.measuredGpu.c_str());
        out += line;
        for (const std::string& note : run.notes)
            out += "#   " + note + "\n";
        std::snprintf(line, sizeof line, "# %12s %10s %10s %10s %10s %8s %5s  %-7s %-14s %s\n",
                      "size", "busbw", "busbw", "time", "time", "error", "tol", "verdict",
                      "algorithm", "protocol");
        out += line;
        std::snprintf(line, sizeof line, "# %12s %10s %10s %10s %10s %8s\n", "(B)", "measured",
                      "FabricLab", "measured", "FabricLab", "");
        out += line;
        std::snprintf(line, sizeof line, "# %12s %10s %10s %10s %10s %8s\n", "", "(GB/s)", "(GB/s)",
                      "(us)", "(us)", "");
        out += line;
        for (const MeasuredPoint& p : run.points) {
            if (!p.compared) {
                std::snprintf(line, sizeof line, "  %12.0f %10.2f %10s %10.2f %10s %8s %5s  %s\n",
                              p.bytes, p.measuredBusBwGBps, "-", p.measuredTimeUs, "-", "-", "-",
                              "not compared");
                out += line;
                continue;
            }
            char error[32];
            std::snprintf(error, sizeof error, "%+.1f%%%s", 100 * p.error, p.byTime ? "t" : "");
            std::snprintf(line, sizeof line,
                          "  %12.0f %10.2f %10.2f %10.2f %10.2f %8s %4.0f%%  %-7s %-14s %s\n",
                          p.bytes, p.measuredBusBwGBps, p.predictedBusBwGBps, p.measuredTimeUs,
                          p.predictedTimeUs, error, 100 * p.tolerance, p.within ? "within" : "MISS",
                          toString(p.algorithm).data(), toString(p.protocol).data());
            out += line;
        }
        std::snprintf(line, sizeof line,
                      "# %s: %d of %d sizes within tolerance, |error| median %.1f%%\n",
                      run.binary.c_str(), run.within, run.compared, 100 * run.medianAbsError);
        out += line;
    }
    std::snprintf(line, sizeof line,
                  "#\n# score: %d of %d sizes within tolerance, |error| mean %.1f%%, median "
                  "%.1f%% (error t: of the time, below 1 MiB; otherwise of the out-of-place "
                  "busbw)\n",
                  c.within, c.compared, 100 * c.meanAbsError, 100 * c.medianAbsError);
    out += line;
    return out;
}

namespace {

double rounded(double value, int digits) {
    const double scale = std::pow(10.0, digits);
    return std::round(value * scale) / scale;
}

nlohmann::ordered_json pointJson(const MeasuredRun& run, const MeasuredPoint& p) {
    nlohmann::ordered_json json = {{"binary", run.binary},
                                   {"line", p.line},
                                   {"bytes", std::llround(p.bytes)},
                                   {"measuredTimeUs", p.measuredTimeUs},
                                   {"measuredBusBwGBps", p.measuredBusBwGBps}};
    json["measuredInPlaceBusBwGBps"] =
        p.measuredInPlaceBusBwGBps ? nlohmann::ordered_json(*p.measuredInPlaceBusBwGBps) : nullptr;
    json["compared"] = p.compared;
    if (!p.compared)
        return json;
    json["predictedTimeUs"] = rounded(p.predictedTimeUs, 3);
    json["predictedBusBwGBps"] = rounded(p.predictedBusBwGBps, 3);
    json["comparedOn"] = p.byTime ? "time" : "busbw";
    json["error"] = rounded(p.error, 4);
    json["tolerance"] = p.tolerance;
    json["withinTolerance"] = p.within;
    json["algorithm"] = toString(p.algorithm);
    json["protocol"] = toString(p.protocol);
    return json;
}

} // namespace

std::string measuredJson(const MeasuredComparison& c) {
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    for (const MeasuredRun& run : c.runs) {
        nlohmann::ordered_json points = nlohmann::ordered_json::array();
        for (const MeasuredPoint& p : run.points)
            points.push_back(pointJson(run, p));
        runs.push_back({{"binary", run.binary},
                        {"op", toString(run.op)},
                        {"line", run.line},
                        {"ranks", run.ranks},
                        {"servers", run.servers},
                        {"gpusPerServer", run.gpusPerServer},
                        {"measuredGpuName", run.measuredGpu},
                        {"warnings", run.notes},
                        {"comparedCount", run.compared},
                        {"withinCount", run.within},
                        {"medianAbsError", rounded(run.medianAbsError, 4)},
                        {"points", std::move(points)}});
    }
    const nlohmann::ordered_json json = {{"log", c.logName},
                                         {"design", c.designName},
                                         {"fabric", c.fabricId},
                                         {"gpu", c.gpuId},
                                         {"comparedCount", c.compared},
                                         {"withinCount", c.within},
                                         {"meanAbsError", rounded(c.meanAbsError, 4)},
                                         {"medianAbsError", rounded(c.medianAbsError, 4)},
                                         {"runs", std::move(runs)}};
    return json.dump(2) + "\n";
}

std::string measuredCsv(const MeasuredComparison& c) {
    std::vector<nlohmann::ordered_json> rows;
    for (const MeasuredRun& run : c.runs)
        for (const MeasuredPoint& p : run.points)
            rows.push_back(pointJson(run, p));
    return jsonRowsToCsv(rows);
}

} // namespace fabriclab::model
