// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/FlowSimulator.hpp"

#include "model/core/Cancellation.hpp"
#include "model/sim/FlowSolver.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>

namespace fabriclab::sim {
namespace {

constexpr double kBytesPerGbit = 1e9 / 8;
/// Flows routed between two looks at the stop token (a power of two, less one).
constexpr std::uint32_t kStopPollMask = 4095;

/// Receivers that several sources send to at once suffer the fabric's incast loss
/// (congestion control reacting to many-to-one traffic); a lone sender does not.
std::vector<double> channelCapacities(const FabricNetwork& network,
                                      const std::vector<Transfer>& transfers) {
    std::vector<double> capacity(network.channelCount());
    for (std::uint32_t c = 0; c < capacity.size(); ++c)
        capacity[c] = network.capacityGbps(c);
    const double incast = network.fabric().incastEfficiency;
    if (incast >= 1)
        return capacity;
    std::map<std::uint32_t, std::set<std::pair<std::uint32_t, int>>> senders;
    for (const Transfer& t : transfers)
        if (t.from.server != t.to.server)
            senders[network.nicDown(t.to)].insert({t.from.server.value, t.from.nic});
    for (const auto& [channel, sources] : senders)
        if (sources.size() > 1)
            capacity[channel] *= incast;
    return capacity;
}

struct Pending {
    double start;
    std::uint32_t transfer;
    bool operator>(const Pending& other) const { return start > other.start; }
};

} // namespace

SimulationResult FlowSimulator::run(const FabricNetwork& network,
                                    const std::vector<Transfer>& transfers, std::stop_token stop,
                                    const SimulationOptions& options,
                                    const std::function<void(const Progress&)>& progress) const {
    const std::size_t count = transfers.size();
    SimulationResult result;
    result.finishTimes.assign(count, 0);
    result.dataFinishTimes.assign(count, 0);
    if (count == 0)
        return result;

    const auto solver = makeSolver("heap");
    solver->setStopToken(stop);
    solver->addConstraints(channelCapacities(network, transfers));

    std::vector<double> latency(count, 0);
    std::vector<double> remaining(count, 0);
    std::vector<std::vector<std::uint32_t>> dependants(count);
    std::vector<std::uint32_t> waitingOn(count, 0);
    std::vector<char> local(count, 0); // inside one server: no fabric share to compute
    std::vector<std::size_t> elementCountOf;
    elementCountOf.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        // Routing a million flows takes a while: look at the stop token on the way.
        if ((i & kStopPollMask) == 0)
            model::throwIfStopped(stop);
        const Transfer& t = transfers[i];
        if (!(t.bytes >= 0) || !std::isfinite(t.bytes) || !(t.extraLatency >= 0))
            throw std::invalid_argument("transfer " + std::to_string(i) +
                                        " has an invalid size or latency");
        const Route route = network.route(t.from, t.to, t.flowKey);
        local[i] = route.elements.empty();
        elementCountOf.push_back(route.elements.size());
        latency[i] = network.latencySeconds(route) + t.extraLatency;
        remaining[i] = t.bytes;
        const VariableId v = solver->addVariable();
        for (const PathElement& e : route.elements)
            solver->expand(v, ConstraintId{e.channel}, e.fraction);
        solver->setActive(v, false);
        for (const std::uint32_t before : t.after) {
            if (before >= count || before == i)
                throw std::invalid_argument("transfer " + std::to_string(i) +
                                            " waits on a transfer that does not exist");
            dependants[before].push_back(i);
            ++waitingOn[i];
            result.independent = false;
        }
    }

    // A transfer's bytes flow as soon as it is released; its start-up latency (NIC,
    // switches, wire, protocol) is paid once, between its last byte and its completion,
    // the usual alpha + size / rate. Flows released together thus share the fabric from
    // the same instant and finish together, which keeps a phase to a few solves.
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> released;
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> landing;
    for (std::uint32_t i = 0; i < count; ++i)
        if (waitingOn[i] == 0)
            released.push({0.0, i});

    std::vector<std::uint32_t> active;
    std::vector<std::uint32_t> stillActive;
    // The timeline keeps every `stride`-th event (the stride doubles whenever it fills up,
    // and the kept samples thin to the new stride), so only the samples kept pay for a
    // per-channel snapshot: a 16K-GPU tree sampling every event spent half its time
    // zeroing snapshots that were thinned away.
    std::size_t stride = 1;
    std::vector<std::size_t> sampledEvent; // event number of each timeline sample
    std::vector<double> used;              // per channel, for a sample's snapshot
    // Snapshots of thinned samples, reused: fresh ones cost a page fault per 4 KiB.
    std::vector<std::vector<float>> spare;
    std::size_t finished = 0;
    double now = 0;
    std::vector<double> rate(count, 0);
    std::size_t activeElements = 0; // (flow, channel) pairs the next solve visits
    std::size_t work = 0;
    const auto finish = [&](std::uint32_t i) {
        result.finishTimes[i] = now;
        ++finished;
        for (const std::uint32_t next : dependants[i])
            if (--waitingOn[next] == 0)
                released.push({now, next});
    };

    while (finished < count) {
        model::throwIfStopped(stop);
        const auto due = [&](const auto& queue) {
            return !queue.empty() && queue.top().start <= now * (1 + 1e-12) + 1e-15;
        };
        while (due(landing)) {
            const std::uint32_t i = landing.top().transfer;
            landing.pop();
            finish(i);
        }
        while (due(released)) {
            const std::uint32_t i = released.top().transfer;
            released.pop();
            if (local[i] || remaining[i] <= 0) {
                result.dataFinishTimes[i] = now;
                landing.push({now + latency[i], i});
                continue;
            }
            solver->setActive(VariableId{i}, true);
            active.push_back(i);
            activeElements += elementCountOf[i];
        }
        double next = kUnbounded;
        if (!landing.empty())
            next = std::min(next, landing.top().start);
        if (!released.empty())
            next = std::min(next, released.top().start);
        if (active.empty()) {
            if (finished == count)
                break;
            if (!std::isfinite(next))
                throw std::invalid_argument("transfers wait on each other in a cycle");
            now = next;
            continue;
        }

        ++result.events;
        work += activeElements;
        if ((result.events > options.maxEvents || work > options.maxWork) && released.empty()) {
            // Finish the drain at the pace of the busiest channel: with max-min sharing a
            // saturated channel stays saturated while it has flows, so this is close.
            std::vector<double> load(network.channelCount(), 0.0);
            for (const std::uint32_t i : active)
                for (const PathElement& e :
                     network.route(transfers[i].from, transfers[i].to, transfers[i].flowKey)
                         .elements)
                    load[e.channel] += remaining[i] * e.fraction;
            double drain = 0;
            for (std::uint32_t c = 0; c < load.size(); ++c)
                if (load[c] > 0)
                    drain = std::max(drain,
                                     load[c] / (solver->capacity(ConstraintId{c}) * kBytesPerGbit));
            now += drain;
            result.dataSeconds = std::max(result.dataSeconds, now);
            for (const std::uint32_t i : active) {
                remaining[i] = 0;
                result.dataFinishTimes[i] = now;
                landing.push({now + latency[i], i});
            }
            active.clear();
            activeElements = 0;
            result.drainEstimated = true;
            continue;
        }
        solver->solve();
        double step = next - now;
        double throughput = 0;
        for (const std::uint32_t i : active) {
            rate[i] = solver->rate(VariableId{i}) * kBytesPerGbit;
            throughput += solver->rate(VariableId{i});
            if (rate[i] > 0)
                step = std::min(step, remaining[i] / rate[i]);
        }
        if (!std::isfinite(step))
            throw std::invalid_argument(
                "transfers cannot progress: a link on their path has no capacity");

        const std::size_t event = result.events - 1;
        if (event % stride == 0) {
            Sample sample{now, throughput, {}};
            if (options.recordLinks) {
                // Per channel, from the solver's own sums (rates of inactive flows are 0).
                solver->usages(used);
                if (!spare.empty()) {
                    sample.linkUtilization = std::move(spare.back());
                    spare.pop_back();
                }
                sample.linkUtilization.resize(used.size());
                for (std::uint32_t c = 0; c < used.size(); ++c)
                    sample.linkUtilization[c] = static_cast<float>(
                        used[c] / std::max(1e-12, solver->capacity(ConstraintId{c})));
            }
            result.timeline.push_back(std::move(sample));
            sampledEvent.push_back(event);
            if (result.timeline.size() >= 2 * options.maxSamples) {
                // Thin to every other point: playback needs shape, not every event.
                stride *= 2;
                std::size_t kept = 0;
                for (std::size_t k = 0; k < result.timeline.size(); ++k) {
                    if (sampledEvent[k] % stride != 0) {
                        spare.push_back(std::move(result.timeline[k].linkUtilization));
                        continue;
                    }
                    result.timeline[kept] = std::move(result.timeline[k]);
                    sampledEvent[kept++] = sampledEvent[k];
                }
                result.timeline.resize(kept);
                sampledEvent.resize(kept);
            }
        }

        now += step;
        stillActive.clear();
        for (const std::uint32_t i : active) {
            remaining[i] -= rate[i] * step;
            // Relative slack: a transfer within a few ulps of done is done.
            if (remaining[i] <= 1e-9 * transfers[i].bytes + 1e-9) {
                remaining[i] = 0;
                result.dataSeconds = std::max(result.dataSeconds, now);
                solver->setActive(VariableId{i}, false);
                activeElements -= elementCountOf[i];
                result.dataFinishTimes[i] = now;
                landing.push({now + latency[i], i});
            } else {
                stillActive.push_back(i);
            }
        }
        active.swap(stillActive);
        if (progress && (result.events % 64) == 0)
            progress(Progress{static_cast<int>(1000 * finished / count), now});
    }
    result.seconds = *std::max_element(result.finishTimes.begin(), result.finishTimes.end());
    result.timeline.push_back(Sample{now, 0, {}});
    result.latencies = std::move(latency);
    if (progress)
        progress(Progress{1000, now});
    return result;
}

SimulationResult scaleSizes(const SimulationResult& result, double factor) {
    if (!result.independent)
        throw std::invalid_argument("only independent transfers scale with their sizes");
    SimulationResult scaled = result;
    scaled.seconds = 0;
    for (std::size_t i = 0; i < scaled.finishTimes.size(); ++i) {
        scaled.dataFinishTimes[i] = result.dataFinishTimes[i] * factor;
        scaled.finishTimes[i] = scaled.dataFinishTimes[i] + result.latencies[i];
        scaled.seconds = std::max(scaled.seconds, scaled.finishTimes[i]);
    }
    scaled.dataSeconds = result.dataSeconds * factor;
    for (Sample& sample : scaled.timeline)
        sample.time *= factor;
    // The last sample marks the end, after the latencies, which do not scale.
    if (!scaled.timeline.empty())
        scaled.timeline.back().time = scaled.seconds;
    return scaled;
}

} // namespace fabriclab::sim
