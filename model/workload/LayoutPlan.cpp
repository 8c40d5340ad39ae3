// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/workload/LayoutPlan.hpp"

#include "model/core/Cancellation.hpp"
#include "model/workload/ComputeTime.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace fabriclab::model {

using sim::FabricNetwork;

namespace {

/// Powers of two up to `limit`: the degrees frameworks split by.
std::vector<int> powersOfTwo(int limit) {
    std::vector<int> out;
    for (int n = 1; n <= limit; n *= 2)
        out.push_back(n);
    return out;
}

} // namespace

LayoutPlan planLayouts(const FabricNetwork& network, const model::Workload& job, int top,
                       std::stop_token stop) {
    const auto& servers = network.servers();
    if (servers.empty())
        throw std::invalid_argument("the design has no servers to train on");
    if (top < 1)
        throw std::invalid_argument("plan: --top must be at least 1");
    const int gpusPerServer = network.topology().node(servers.front()).server.gpus;
    const long long gpus = static_cast<long long>(servers.size()) * gpusPerServer;
    const model::ModelSpec& model = job.model.spec;
    const int sequence = job.sequenceLength();
    const int scaleUp = std::min(gpusPerServer, std::max(1, job.gpu.spec.scaleUpDomain));

    LayoutPlan plan;
    std::vector<std::pair<double, PlannedLayout>> candidates;
    for (const int tp : powersOfTwo(scaleUp)) {
        if (gpusPerServer % tp != 0 || (model.attentionHeads > 0 && model.attentionHeads % tp))
            continue;
        for (const int cp : powersOfTwo(8)) {
            if (sequence % (2 * cp) != 0)
                continue;
            for (const int pp : powersOfTwo(std::max(1, model.layers))) {
                if (pp > model.layers)
                    continue;
                const long long perReplica = static_cast<long long>(tp) * cp * pp;
                if (gpus % perReplica != 0)
                    continue;
                const long long dp = gpus / perReplica;
                const double microBatches =
                    static_cast<double>(job.globalBatchTokens) / static_cast<double>(dp) / sequence;
                if (microBatches < pp || microBatches != static_cast<long long>(microBatches))
                    continue;
                for (const int vpp : powersOfTwo(pp > 1 ? 8 : 1)) {
                    if (pp * vpp > model.layers)
                        continue;
                    for (const int ep : powersOfTwo(model.experts > 1 ? model.experts : 1)) {
                        if (dp % ep != 0)
                            continue;
                        model::throwIfStopped(stop);
                        model::Workload w = job;
                        w.mfu.reset();
                        w.tp = tp;
                        w.cp = cp;
                        w.pp = pp;
                        w.vpp = vpp;
                        w.ep = ep;
                        w.dp = static_cast<int>(dp);
                        ++plan.considered;
                        PlannedLayout layout{w, {}, model::memoryPerGpu(w)};
                        if (!layout.memory.fits)
                            continue;
                        ++plan.fitting;
                        const double compute =
                            model::computeTime(w, tensorParallelOnScaleUpSeconds(w)).seconds;
                        candidates.emplace_back(compute, std::move(layout));
                    }
                }
            }
        }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    const std::size_t timed = std::min(candidates.size(), static_cast<std::size_t>(4 * top));
    for (std::size_t i = 0; i < timed; ++i) {
        PlannedLayout& layout = candidates[i].second;
        layout.step = estimateStep(network, layout.workload, stop);
        plan.ranked.push_back(std::move(layout));
    }
    std::stable_sort(plan.ranked.begin(), plan.ranked.end(),
                     [](const PlannedLayout& a, const PlannedLayout& b) {
                         return a.step.stepSeconds < b.step.stepSeconds;
                     });
    if (plan.ranked.size() > static_cast<std::size_t>(top))
        plan.ranked.resize(static_cast<std::size_t>(top));
    return plan;
}

} // namespace fabriclab::model
