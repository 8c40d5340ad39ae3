// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/RunReport.hpp"

#include "model/analysis/Connectivity.hpp"
#include "model/fabric/Generators.hpp"

#include <cmath>
#include <stdexcept>

namespace fabriclab::model {
namespace {

/// Rounds for output: reports are read by people and diffed by golden tests, and
/// sub-milli differences are noise from summation order.
double rounded(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

void requireRunnable(const Topology& topology) {
    const auto problems = topology.problems();
    if (!problems.empty())
        throw std::invalid_argument(
            "cannot evaluate this design: " + problems.front() +
            (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : ""));
    if (topology.serverCount() == 0)
        throw std::invalid_argument("cannot evaluate this design: it has no servers");
    if (const auto split = disconnectedServers(topology))
        throw std::invalid_argument("cannot evaluate this design: " + *split);
}

} // namespace

RunReport runDesign(const Design& design, const Catalog& catalog, const RunOptions& options) {
    RunReport report;
    report.designName = design.name;
    report.fabric = design.fabric.spec;
    if (options.fabricId) {
        const Fabric* fabric = catalog.findFabric(*options.fabricId);
        if (!fabric)
            throw std::invalid_argument("unknown fabric \"" + *options.fabricId + "\"");
        report.fabric = *fabric;
    }
    const Topology& topology = design.topology;
    requireRunnable(topology);
    report.gpus = topology.gpuCount();
    report.servers = topology.serverCount();
    report.switches = topology.switchCounts();
    report.bisection = theoreticalBisection(topology);
    report.cost = estimateCost(topology, report.fabric, catalog.prices(),
                               CostOptions{options.amortizationMonths});
    return report;
}

nlohmann::ordered_json reportToJson(const RunReport& r) {
    const auto& c = r.cost;
    return {
        {"gpus", r.gpus},
        {"servers", r.servers},
        {"switches", {{"leaf", r.switches.leaf}, {"spine", r.switches.spine}, {"core", r.switches.core}}},
        {"bisection",
         {{"theoreticalGbps", rounded(r.bisection.minCut.value, 3)},
          {"effectiveGbps", nullptr},
          {"ratio", rounded(r.bisection.ratio, 4)},
          {"halfInjectionGbps", rounded(r.bisection.halfInjection.value, 3)},
          {"split", r.bisection.split}}},
        {"collective", nullptr},
        {"step", nullptr},
        {"cost",
         {{"fabricCapexUsd", rounded(c.capex.value, 2)},
          {"switchesUsd", rounded(c.switches.value, 2)},
          {"nicsUsd", rounded(c.nics.value, 2)},
          {"cablesUsd", rounded(c.cables.value, 2)},
          {"perGpuHourUsd", rounded(c.perGpuHour, 4)},
          {"amortizationMonths", rounded(c.amortizationMonths, 2)},
          {"powerWatts", rounded(c.power.value, 1)}}},
    };
}

Design withServers(const Design& design, int servers) {
    if (!design.generator)
        throw std::invalid_argument("a sweep needs a design with a \"generator\" to regenerate");
    Design scaled;
    scaled.name = design.name;
    scaled.fabric = design.fabric;
    scaled.generator = design.generator;
    scaled.generator->servers = servers;
    scaled.topology = generate(*scaled.generator);
    scaled.collective = design.collective;
    if (design.workload) {
        Workload workload = *design.workload;
        const long long perReplica = static_cast<long long>(workload.tp) * workload.pp;
        const int gpus = scaled.topology.gpuCount();
        if (gpus % perReplica != 0)
            throw std::invalid_argument(std::to_string(servers) + " servers give " +
                                        std::to_string(gpus) + " GPUs, not a multiple of tp x pp = " +
                                        std::to_string(perReplica));
        workload.dp = static_cast<int>(gpus / perReplica);
        scaled.workload = workload;
    }
    return scaled;
}

} // namespace fabriclab::model
