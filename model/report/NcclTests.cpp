// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/NcclTests.hpp"

#include "model/analysis/Connectivity.hpp"
#include "model/design/Failures.hpp"
#include "model/sim/FabricNetwork.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace fabriclab::model {
namespace {

constexpr double kTypeBytes = 4; // float

double rounded(double value, int digits) {
    const double scale = std::pow(10.0, digits);
    return std::round(value * scale) / scale;
}

} // namespace

NcclTestsReport runNcclTests(const Design& design, const Catalog& catalog,
                             const NcclTestsOptions& options) {
    Fabric fabric = design.fabric.spec;
    if (options.fabricId) {
        const Fabric* found = catalog.findFabric(*options.fabricId);
        if (!found)
            throw std::invalid_argument("unknown fabric \"" + *options.fabricId + "\"");
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

    CollectiveSpec spec;
    spec.op = options.op;
    spec.algorithm = options.algorithm;
    spec.protocol = options.protocol;
    const auto curve = sim::busBandwidthCurve(
        network, group, spec,
        options.sizes.empty()
            ? sim::messageSizes(options.minBytes, options.maxBytes, options.factor)
            : options.sizes,
        options.stop);

    NcclTestsReport report;
    report.fabricId = fabric.id;
    report.gpuId = gpu.id;
    report.op = options.op;
    report.servers = servers;
    report.gpusPerServer = group.gpusPerServer;
    report.ranks = group.ranks();
    for (const auto& point : curve) {
        NcclTestsRow row;
        row.bytes = point.bytes;
        row.count = std::floor(point.bytes / kTypeBytes);
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

std::string formatNcclTests(const NcclTestsReport& r) {
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "# %s on %d servers x %d %s (%d ranks), fabric %s\n",
                  toString(r.op).data(), r.servers, r.gpusPerServer, r.gpuId.c_str(), r.ranks,
                  r.fabricId.c_str());
    out += line;
    out += "#\n";
    std::snprintf(line, sizeof line, "# %12s %12s %8s %10s %8s %8s  %-14s %-9s %s\n", "size",
                  "count", "type", "time", "algbw", "busbw", "algorithm", "protocol", "chosen by");
    out += line;
    std::snprintf(line, sizeof line, "# %12s %12s %8s %10s %8s %8s\n", "(B)", "(elements)", "",
                  "(us)", "(GB/s)", "(GB/s)");
    out += line;
    for (const auto& row : r.rows) {
        std::snprintf(line, sizeof line, "  %12.0f %12.0f %8s %10.1f %8.2f %8.2f  %-14s %-9s %s\n",
                      row.bytes, row.count, r.type, row.timeUs, row.algBwGBps, row.busBwGBps,
                      toString(row.algorithm).data(), toString(row.protocol).data(),
                      row.chosenBy.c_str());
        out += line;
    }
    return out;
}

std::string ncclTestsJson(const NcclTestsReport& r) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : r.rows)
        rows.push_back({{"bytes", std::llround(row.bytes)}, // whole bytes, as nccl-tests sizes
                        {"count", std::llround(row.count)},
                        {"type", r.type},
                        {"timeUs", rounded(row.timeUs, 3)},
                        {"algbwGBps", rounded(row.algBwGBps, 3)},
                        {"busbwGBps", rounded(row.busBwGBps, 3)},
                        {"algorithm", toString(row.algorithm)},
                        {"protocol", toString(row.protocol)},
                        {"chosenBy", row.chosenBy},
                        {"busbwMinGBps", rounded(row.busBwMinGBps, 3)},
                        {"busbwMaxGBps", rounded(row.busBwMaxGBps, 3)},
                        {"ecmpDraws", row.ecmpDraws}});
    return rows.dump(2) + "\n";
}

} // namespace fabriclab::model
