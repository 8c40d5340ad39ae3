// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/NcclTests.hpp"

#include "model/analysis/Connectivity.hpp"
#include "model/design/Failures.hpp"
#include "model/sim/FabricNetwork.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace fabriclab::model {
namespace {

double rounded(double value, int digits) {
    const double scale = std::pow(10.0, digits);
    return std::round(value * scale) / scale;
}

/// The collectives whose buffer nccl-tests splits over the ranks: their size is a whole
/// number of elements per rank, and the count it prints is per rank.
bool splitOverRanks(CollectiveOp op) {
    return op == CollectiveOp::AllGather || op == CollectiveOp::ReduceScatter ||
           op == CollectiveOp::AllToAll;
}

/// nccl-tests' redop column: the reduction for the collectives that reduce, "none" else.
std::string defaultRedop(CollectiveOp op) {
    return op == CollectiveOp::AllReduce || op == CollectiveOp::ReduceScatter ||
                   op == CollectiveOp::SendRecv
               ? "sum"
               : "none";
}

/// nccl-tests' root column: the root for broadcast, -1 for the rest.
int rootOf(CollectiveOp op, int root) {
    return op == CollectiveOp::Broadcast ? root : -1;
}

/// "chosen by": who picked the algorithm and protocol, or that the user forced them.
std::string chooser(const NcclTestsOptions& options, const NcclTestsRow& row) {
    const bool algorithm = options.algorithm != CollectiveAlgorithm::Auto;
    const bool protocol = options.protocol != CollectiveProtocol::Auto;
    if (algorithm && protocol)
        return "forced (--algo, --proto)";
    if (algorithm)
        return std::string("forced (--algo); protocol ") + row.chosenBy;
    if (protocol)
        return std::string("forced (--proto); algorithm ") + row.chosenBy;
    return row.chosenBy;
}

} // namespace

std::string ncclTestsBinary(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::AllReduce:
        return "all_reduce_perf";
    case CollectiveOp::AllGather:
        return "all_gather_perf";
    case CollectiveOp::ReduceScatter:
        return "reduce_scatter_perf";
    case CollectiveOp::AllToAll:
        return "alltoall_perf";
    case CollectiveOp::Broadcast:
        return "broadcast_perf";
    case CollectiveOp::SendRecv:
        return "sendrecv_perf";
    }
    return "?";
}

std::optional<int> ncclTestsTypeBytes(std::string_view type) {
    static constexpr std::pair<std::string_view, int> kTypes[] = {
        {"int8", 1},     {"char", 1},   {"uint8", 1},  {"fp8_e4m3", 1}, {"f8e4m3", 1},
        {"fp8_e5m2", 1}, {"f8e5m2", 1}, {"half", 2},   {"float16", 2},  {"bfloat16", 2},
        {"int32", 4},    {"int", 4},    {"uint32", 4}, {"float", 4},    {"float32", 4},
        {"int64", 8},    {"uint64", 8}, {"double", 8}, {"float64", 8}};
    for (const auto& [name, bytes] : kTypes)
        if (name == type)
            return bytes;
    return std::nullopt;
}

NcclTestsReport runNcclTests(const Design& design, const Catalog& catalog,
                             const NcclTestsOptions& options) {
    Fabric fabric = design.fabric.spec;
    if (options.fabricId) {
        const Fabric* found = catalog.findFabric(*options.fabricId);
        if (!found)
            throw std::invalid_argument(catalog.unknownFabric(*options.fabricId));
        fabric = *found;
    }
    const GpuSpec gpu = design.workload ? design.workload->gpu.spec : *catalog.findGpu("h100-sxm");
    // The design's what-if failures apply, as in its run report and the app's chart, and a
    // server they leave without a cable takes no part.
    Topology running =
        design.failures.empty() ? design.topology : afterFailures(design.topology, design.failures);
    for (const NodeId unlinked : serverReach(running).unlinked)
        running.removeNode(unlinked);
    const sim::FabricNetwork network(running, fabric, options.seed);
    const int available = static_cast<int>(network.servers().size());
    const int servers = options.servers.value_or(available);
    if (servers < 1 || servers > available)
        throw std::invalid_argument("--servers " + std::to_string(servers) + ": the design has " +
                                    std::to_string(available) + " servers");
    sim::CollectiveGroup group =
        sim::groupOfServers(network, gpu, static_cast<std::size_t>(servers));
    group.inNetworkReduction = design.sharp;

    const double typeBytes = ncclTestsTypeBytes(options.dataType).value_or(4);
    const double ranks = static_cast<double>(group.ranks());
    std::vector<double> sizes = options.sizes;
    if (sizes.empty())
        sizes = sim::messageSizes(options.minBytes, options.maxBytes, options.factor);
    {
        if (options.roundSizesAsNcclTests) {
            // As nccl-tests sizes its buffers: whole elements, per rank where it splits them.
            const double unit = splitOverRanks(options.op) ? typeBytes * ranks : typeBytes;
            std::vector<double> whole;
            for (const double size : sizes)
                if (const double rounded = std::floor(size / unit) * unit; rounded > 0)
                    whole.push_back(rounded);
            whole.erase(std::unique(whole.begin(), whole.end()), whole.end());
            sizes = std::move(whole);
        }
    }
    CollectiveSpec spec;
    spec.op = options.op;
    spec.algorithm = options.algorithm;
    spec.protocol = options.protocol;
    const auto curve = sim::busBandwidthCurve(network, group, spec, sizes, options.stop);

    NcclTestsReport report;
    report.fabricId = fabric.id;
    report.gpuId = gpu.id;
    report.gpuName = gpu.name;
    report.designName = design.name;
    report.options = options;
    report.options.stop = {};
    report.type = options.dataType;
    for (const NodeId server : group.servers)
        report.hosts.push_back(running.node(server).name);
    report.op = options.op;
    report.servers = servers;
    report.gpusPerServer = group.gpusPerServer;
    report.ranks = group.ranks();
    for (const auto& point : curve) {
        NcclTestsRow row;
        row.bytes = point.bytes;
        // nccl-tests prints elements per rank for the collectives that split the buffer.
        row.count = std::floor(point.bytes / typeBytes /
                               (splitOverRanks(options.op) ? std::max(1.0, ranks) : 1.0));
        row.timeUs = model::inMicroseconds(model::Seconds(point.seconds));
        row.algBwGBps = point.algBwGBps;
        row.busBwGBps = point.busBwGBps;
        row.algorithm = point.algorithm;
        row.protocol = point.protocol;
        row.chosenBy = point.chosenBy;
        row.busBwMinGBps = point.busBwMinGBps;
        row.busBwMaxGBps = point.busBwMaxGBps;
        row.ecmpDraws = point.ecmpDraws;
        report.rows.push_back(row);
    }
    return report;
}

std::string formatNcclTests(const NcclTestsReport& r, bool explain) {
    const NcclTestsOptions& o = r.options;
    std::string out;
    char line[512];
    const std::string binary = ncclTestsBinary(r.op);
    std::snprintf(line, sizeof line,
                  "# FabricLab's nccl-tests twin: simulated on \"%s\", fabric %s (not a "
                  "measurement)\n# Collective test starting: %s\n",
                  r.designName.c_str(), r.fabricId.c_str(), binary.c_str());
    out += line;
    const double first = r.rows.empty() ? o.minBytes : r.rows.front().bytes;
    const double last = r.rows.empty() ? o.maxBytes : r.rows.back().bytes;
    char step[48];
    if (o.stepBytes)
        std::snprintf(step, sizeof step, "%.0f(bytes)", *o.stepBytes);
    else
        std::snprintf(step, sizeof step, "%g(factor)", o.factor);
    std::snprintf(line, sizeof line,
                  "# nThread %d nGpus %d minBytes %.0f maxBytes %.0f step: %s warmup iters: %d "
                  "iters: %d agg iters: %d validation: %d graph: %d\n",
                  o.threads, o.gpusPerThread, first, last, step, o.warmupIters, o.iters, o.aggIters,
                  o.check, o.graph);
    out += line;
    out += "#\n# Using devices\n";
    for (std::size_t h = 0; h < r.hosts.size(); ++h)
        for (int g = 0; g < r.gpusPerServer; ++g) {
            const int rank = static_cast<int>(h) * r.gpusPerServer + g;
            std::snprintf(line, sizeof line,
                          "#  Rank %2d Group  0 Pid %6d on %10s device %2d [0000:%02x:00] %s\n",
                          rank, static_cast<int>(h) + 1, r.hosts[h].c_str(), g, g,
                          r.gpuName.c_str());
            out += line;
        }
    out += "#\n";
    out += "#                                                              out-of-place          "
           "             in-place          \n";
    std::string header = "#       size         count      type   redop    root     time   algbw "
                         "  busbw #wrong     time   algbw   busbw #wrong";
    std::string units = "#        (B)    (elements)                               (us)  (GB/s) "
                        " (GB/s)            (us)  (GB/s)  (GB/s)       ";
    if (explain) {
        header += "  algorithm      protocol  chosen by";
    }
    out += header + "\n" + units + "\n";
    const std::string redop = o.redop.empty() ? defaultRedop(r.op) : o.redop;
    const int root = rootOf(r.op, o.root);
    double busBwSum = 0;
    for (const auto& row : r.rows) {
        // The simulation has one figure per size: in place is out of place. Nothing is
        // checked, so #wrong is N/A as nccl-tests prints it under -c 0.
        std::snprintf(line, sizeof line,
                      "%12.0f  %12.0f  %8s  %6s  %6d  %7.2f  %6.2f  %6.2f  %6s  %7.2f  %6.2f  "
                      "%6.2f  %6s",
                      row.bytes, row.count, r.type.c_str(), redop.c_str(), root, row.timeUs,
                      row.algBwGBps, row.busBwGBps, "N/A", row.timeUs, row.algBwGBps, row.busBwGBps,
                      "N/A");
        out += line;
        if (explain) {
            std::snprintf(line, sizeof line, "  %-14s %-9s %s", toString(row.algorithm).data(),
                          toString(row.protocol).data(), chooser(o, row).c_str());
            out += line;
        }
        out += "\n";
        busBwSum += 2 * row.busBwGBps; // nccl-tests averages both halves
    }
    const double average =
        r.rows.empty() ? 0 : busBwSum / (2.0 * static_cast<double>(r.rows.size()));
    out += "# Out of bounds values : 0 OK\n";
    std::snprintf(line, sizeof line,
                  "# Avg bus bandwidth    : %g \n#\n# Collective test concluded: %s\n#\n", average,
                  binary.c_str());
    out += line;
    return out;
}

std::string ncclTestsJson(const NcclTestsReport& r) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : r.rows)
        rows.push_back({{"bytes", std::llround(row.bytes)}, // whole bytes, as nccl-tests sizes
                        {"count", std::llround(row.count)},
                        {"type", r.type},
                        {"timeUs", rounded(row.timeUs, 3)},
                        {"algBwGBps", rounded(row.algBwGBps, 3)},
                        {"busBwGBps", rounded(row.busBwGBps, 3)},
                        {"algorithm", toString(row.algorithm)},
                        {"protocol", toString(row.protocol)},
                        {"chosenBy", chooser(r.options, row)},
                        {"busBwMinGBps", rounded(row.busBwMinGBps, 3)},
                        {"busBwMaxGBps", rounded(row.busBwMaxGBps, 3)},
                        {"ecmpDraws", row.ecmpDraws}});
    return rows.dump(2) + "\n";
}

std::string ncclTestsOutputFileJson(const NcclTestsReport& r, const std::string& startTime,
                                    const nlohmann::ordered_json& provenance) {
    using Json = nlohmann::ordered_json;
    const NcclTestsOptions& o = r.options;
    const auto number = [](double value) { return std::to_string(std::llround(value)); };
    const double first = r.rows.empty() ? o.minBytes : r.rows.front().bytes;
    const double last = r.rows.empty() ? o.maxBytes : r.rows.back().bytes;
    Json devices = Json::array();
    for (std::size_t h = 0; h < r.hosts.size(); ++h)
        for (int g = 0; g < r.gpusPerServer; ++g) {
            char hex[16];
            std::snprintf(hex, sizeof hex, "0000:%02x:00", g & 0xff);
            devices.push_back({{"rank", static_cast<int>(h) * r.gpusPerServer + g},
                               {"group", 0},
                               {"pid", static_cast<int>(h) + 1},
                               {"hostname", r.hosts[h]},
                               {"device", g},
                               {"device_hex", hex},
                               {"device_info", r.gpuName}});
        }
    const std::string redop = o.redop.empty() ? defaultRedop(r.op) : o.redop;
    char root[16];
    std::snprintf(root, sizeof root, "%6i", rootOf(r.op, o.root));
    Json results = Json::array();
    double busBwSum = 0;
    for (const NcclTestsRow& row : r.rows) {
        const Json half = {{"time", row.timeUs},
                           {"alg_bw", row.algBwGBps},
                           {"bus_bw", row.busBwGBps},
                           {"nwrong", nullptr}};
        results.push_back({{"size", std::llround(row.bytes)},
                           {"count", std::llround(row.count)},
                           {"type", r.type},
                           {"redop", redop},
                           {"root", root},
                           {"out_of_place", half},
                           {"in_place", half},
                           {"actual_iterations", o.iters},
                           {"experiment_name", ""}});
        busBwSum += row.busBwGBps;
    }
    Json config = {{"nthreads", o.threads},
                   {"ngpus", o.gpusPerThread},
                   {"minimum_bytes", std::llround(first)},
                   {"maximum_bytes", std::llround(last)}};
    // One or the other, as nccl-tests writes them: a step in bytes, or a factor.
    if (o.stepBytes)
        config["step_bytes"] = std::llround(*o.stepBytes);
    else
        config["step_factor"] = std::llround(o.factor);
    config.update(Json{{"warmup_iters", o.warmupIters},
                       {"iterations", o.iters},
                       {"aggregated_iterations", o.aggIters},
                       {"validation", o.check},
                       {"graph", o.graph},
                       {"blocking_collectives", "false"},
                       {"per_iter_timing", "false"},
                       {"per_iter_skip", 0},
                       {"parallel_init", "false"},
                       {"devices", std::move(devices)}});
    Json document = {
        {"version", 3},
        {"start_time", startTime},
        {"args", {ncclTestsBinary(r.op), "-b", number(first), "-e", number(last), "-d", r.type}},
        {"env", Json::array()},
        {"nccl_version", 0}, // no NCCL ran: FabricLab simulated it
        {"config", std::move(config)},
        {"results", std::move(results)},
        {"out_of_bounds", {{"count", 0}, {"okay", "true"}}},
        {"average_bus_bandwidth",
         {{"bandwidth", r.rows.empty() ? 0.0 : busBwSum / static_cast<double>(r.rows.size())},
          {"okay", "unchecked"}}},
        {"errors", Json::array()},
        {"end_time", startTime}};
    // nccl-tests' readers look its keys up by name: one more, last, leaves them as they were.
    if (!provenance.is_null())
        document["fabriclab"] = provenance;
    return document.dump(1) + "\n";
}

} // namespace fabriclab::model
