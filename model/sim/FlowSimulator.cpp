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
    std::map<std::pair<std::uint32_t, int>, std::set<std::pair<std::uint32_t, int>>> senders;
    for (const Transfer& t : transfers)
        if (t.from.server != t.to.server)
            senders[{t.to.server.value, t.to.nic}].insert({t.from.server.value, t.from.nic});
    for (const auto& [receiver, sources] : senders) {
        if (sources.size() < 2)
            continue;
        for (const std::uint32_t down :
             network.nicDowns({model::NodeId{receiver.first}, receiver.second}))
            capacity[down] *= incast;
    }
    return capacity;
}

struct Pending {
    double start;
    std::uint32_t transfer;
    bool operator>(const Pending& other) const { return start > other.start; }
};
using PendingQueue = std::priority_queue<Pending, std::vector<Pending>, std::greater<>>;

/// One run of the simulator: the transfers loaded into a solver, and the state of the
/// event loop. The steps read as the algorithm does: load, then until every transfer
/// has landed, retire what landed and release what is due, solve the rates, record the
/// timeline, advance to the next completion.
class Run {
public:
    Run(const FabricNetwork& network, const std::vector<Transfer>& transfers, std::stop_token stop,
        const SimulationOptions& options)
        : m_network(network), m_transfers(transfers), m_stop(std::move(stop)), m_options(options),
          m_count(transfers.size()) {
        m_result.finishTimes.assign(m_count, 0);
        m_result.dataFinishTimes.assign(m_count, 0);
        m_rate.assign(m_count, 0);
    }

    SimulationResult run(const std::function<void(const Progress&)>& progress) {
        if (m_count == 0)
            return std::move(m_result);
        load();
        while (m_finished < m_count) {
            model::throwIfStopped(m_stop);
            landAndRelease();
            const double next = nextEvent();
            if (m_active.empty()) {
                if (m_finished == m_count)
                    break;
                if (!std::isfinite(next))
                    throw std::invalid_argument("transfers wait on each other in a cycle");
                m_now = next;
                continue;
            }
            ++m_result.events;
            m_work += m_activeElements;
            if ((m_result.events > m_options.maxEvents || m_work > m_options.maxWork) &&
                m_released.empty()) {
                drainAtBusiestPace();
                continue;
            }
            m_solver->solve();
            const auto [step, throughput] = stepToNextCompletion(next);
            recordSample(throughput);
            advance(step);
            if (progress && (m_result.events % 64) == 0)
                progress(Progress{static_cast<int>(1000 * m_finished / m_count), m_now});
        }
        m_result.seconds =
            *std::max_element(m_result.finishTimes.begin(), m_result.finishTimes.end());
        m_result.timeline.push_back(Sample{m_now, 0, {}});
        m_result.latencies = std::move(m_latency);
        if (progress)
            progress(Progress{1000, m_now});
        return std::move(m_result);
    }

private:
    /// Routes every transfer into the solver (inactive until released), with its
    /// start-up latency, and links each to the transfers waiting on it.
    void load() {
        m_solver = makeSolver("heap");
        m_solver->setStopToken(m_stop);
        m_solver->addConstraints(channelCapacities(m_network, m_transfers));
        m_latency.assign(m_count, 0);
        m_remaining.assign(m_count, 0);
        m_dependants.assign(m_count, {});
        m_waitingOn.assign(m_count, 0);
        m_local.assign(m_count, 0);
        m_elementCount.reserve(m_count);
        Route route; // one for every transfer: routing allocates nothing per flow
        expectTransfers(m_network, m_transfers);
        for (std::uint32_t i = 0; i < m_count; ++i) {
            // Routing a million flows takes a while: look at the stop token on the way.
            if ((i & kStopPollMask) == 0)
                model::throwIfStopped(m_stop);
            const Transfer& t = m_transfers[i];
            if (!(t.bytes >= 0) || !std::isfinite(t.bytes) || !(t.extraLatency >= 0))
                throw std::invalid_argument("transfer " + std::to_string(i) +
                                            " has an invalid size or latency");
            m_network.routeInto(t.from, t.to, t.flowKey, route);
            m_local[i] = route.elements.empty();
            m_elementCount.push_back(route.elements.size());
            m_latency[i] = m_network.latency(route).value + t.extraLatency;
            m_remaining[i] = t.bytes;
            const VariableId v = m_solver->addVariable();
            for (const PathElement& e : route.elements)
                m_solver->expand(v, ConstraintId{e.channel}, e.fraction);
            m_solver->setActive(v, false);
            for (const std::uint32_t before : t.after) {
                if (before >= m_count || before == i)
                    throw std::invalid_argument("transfer " + std::to_string(i) +
                                                " waits on a transfer that does not exist");
                m_dependants[before].push_back(i);
                ++m_waitingOn[i];
                m_result.independent = false;
            }
        }
        // A transfer's bytes flow as soon as it is released; its start-up latency (NIC,
        // switches, wire, protocol) is paid once, between its last byte and its
        // completion, the usual alpha + size / rate. Flows released together thus share
        // the fabric from the same instant and finish together, which keeps a phase to a
        // few solves.
        for (std::uint32_t i = 0; i < m_count; ++i)
            if (m_waitingOn[i] == 0)
                m_released.push({0.0, i});
    }

    bool due(const PendingQueue& queue) const {
        return !queue.empty() && queue.top().start <= m_now * (1 + 1e-12) + 1e-15;
    }

    /// Finishes the transfers whose latency has run out (releasing their dependants) and
    /// starts the released ones: their flows join the sharing, or, inside one server or
    /// empty, go straight to paying their latency.
    void landAndRelease() {
        while (due(m_landing)) {
            const std::uint32_t i = m_landing.top().transfer;
            m_landing.pop();
            finish(i);
        }
        while (due(m_released)) {
            const std::uint32_t i = m_released.top().transfer;
            m_released.pop();
            if (m_local[i] || m_remaining[i] <= 0) {
                m_result.dataFinishTimes[i] = m_now;
                m_landing.push({m_now + m_latency[i], i});
                continue;
            }
            m_solver->setActive(VariableId{i}, true);
            m_active.push_back(i);
            m_activeElements += m_elementCount[i];
        }
    }

    void finish(std::uint32_t i) {
        m_result.finishTimes[i] = m_now;
        ++m_finished;
        for (const std::uint32_t next : m_dependants[i])
            if (--m_waitingOn[next] == 0)
                m_released.push({m_now, next});
    }

    /// When the next transfer lands or is released, kUnbounded if none will.
    double nextEvent() const {
        double next = kUnbounded;
        if (!m_landing.empty())
            next = std::min(next, m_landing.top().start);
        if (!m_released.empty())
            next = std::min(next, m_released.top().start);
        return next;
    }

    /// Past the event budget: finishes the drain at the pace of the busiest channel. With
    /// max-min sharing a saturated channel stays saturated while it has flows, so this is
    /// close.
    void drainAtBusiestPace() {
        std::vector<double> load(m_network.channelCount(), 0.0);
        Route route;
        for (const std::uint32_t i : m_active) {
            const Transfer& t = m_transfers[i];
            m_network.routeInto(t.from, t.to, t.flowKey, route);
            for (const PathElement& e : route.elements)
                load[e.channel] += m_remaining[i] * e.fraction;
        }
        double drain = 0;
        for (std::uint32_t c = 0; c < load.size(); ++c)
            if (load[c] > 0)
                drain = std::max(drain, load[c] / model::bytesPerSecond(model::Gbps(
                                                      m_solver->capacity(ConstraintId{c}))));
        m_now += drain;
        m_result.dataSeconds = std::max(m_result.dataSeconds, m_now);
        for (const std::uint32_t i : m_active) {
            m_remaining[i] = 0;
            m_result.dataFinishTimes[i] = m_now;
            m_landing.push({m_now + m_latency[i], i});
        }
        m_active.clear();
        m_activeElements = 0;
        m_result.drainEstimated = true;
    }

    /// The solved rates, and how long they hold: until the first active transfer runs
    /// out of bytes or the next event, whichever is first. Returns that step and the
    /// total throughput (Gb/s).
    std::pair<double, double> stepToNextCompletion(double next) {
        double step = next - m_now;
        double throughput = 0;
        for (const std::uint32_t i : m_active) {
            m_rate[i] = model::bytesPerSecond(model::Gbps(m_solver->rate(VariableId{i})));
            throughput += m_solver->rate(VariableId{i});
            if (m_rate[i] > 0)
                step = std::min(step, m_remaining[i] / m_rate[i]);
        }
        if (!std::isfinite(step))
            throw std::invalid_argument(
                "transfers cannot progress: a link on their path has no capacity");
        return {step, throughput};
    }

    /// Keeps every `stride`-th event on the timeline (the stride doubles whenever it fills
    /// up, and the kept samples thin to the new stride), so only the samples kept pay for
    /// a per-channel snapshot: a 16K-GPU tree sampling every event spent half its time
    /// zeroing snapshots that were thinned away.
    void recordSample(double throughput) {
        const std::size_t event = m_result.events - 1;
        if (event % m_stride != 0)
            return;
        Sample sample{m_now, throughput, {}};
        if (m_options.recordLinks) {
            // Per channel, from the solver's own sums (rates of inactive flows are 0).
            m_solver->usages(m_used);
            if (!m_spare.empty()) {
                sample.linkUtilization = std::move(m_spare.back());
                m_spare.pop_back();
            }
            sample.linkUtilization.resize(m_used.size());
            for (std::uint32_t c = 0; c < m_used.size(); ++c)
                sample.linkUtilization[c] = static_cast<float>(
                    m_used[c] / std::max(1e-12, m_solver->capacity(ConstraintId{c})));
        }
        m_result.timeline.push_back(std::move(sample));
        m_sampledEvent.push_back(event);
        if (m_result.timeline.size() < 2 * m_options.maxSamples)
            return;
        // Thin to every other point: playback needs shape, not every event.
        m_stride *= 2;
        std::size_t kept = 0;
        for (std::size_t k = 0; k < m_result.timeline.size(); ++k) {
            if (m_sampledEvent[k] % m_stride != 0) {
                m_spare.push_back(std::move(m_result.timeline[k].linkUtilization));
                continue;
            }
            m_result.timeline[kept] = std::move(m_result.timeline[k]);
            m_sampledEvent[kept++] = m_sampledEvent[k];
        }
        m_result.timeline.resize(kept);
        m_sampledEvent.resize(kept);
    }

    /// Moves time on by `step` at the solved rates; transfers out of bytes leave the
    /// sharing and start paying their latency.
    void advance(double step) {
        m_now += step;
        m_stillActive.clear();
        for (const std::uint32_t i : m_active) {
            m_remaining[i] -= m_rate[i] * step;
            // Relative slack: a transfer within a few ulps of done is done.
            if (m_remaining[i] <= 1e-9 * m_transfers[i].bytes + 1e-9) {
                m_remaining[i] = 0;
                m_result.dataSeconds = std::max(m_result.dataSeconds, m_now);
                m_solver->setActive(VariableId{i}, false);
                m_activeElements -= m_elementCount[i];
                m_result.dataFinishTimes[i] = m_now;
                m_landing.push({m_now + m_latency[i], i});
            } else {
                m_stillActive.push_back(i);
            }
        }
        m_active.swap(m_stillActive);
    }

    const FabricNetwork& m_network;
    const std::vector<Transfer>& m_transfers;
    std::stop_token m_stop;
    const SimulationOptions& m_options;
    const std::size_t m_count;
    SimulationResult m_result;

    std::unique_ptr<FlowSolver> m_solver;
    std::vector<double> m_latency;   ///< per transfer, seconds
    std::vector<double> m_remaining; ///< per transfer, bytes
    std::vector<std::vector<std::uint32_t>> m_dependants;
    std::vector<std::uint32_t> m_waitingOn;
    std::vector<char> m_local; ///< inside one server: no fabric share to compute
    std::vector<std::size_t> m_elementCount;
    std::vector<double> m_rate; ///< per transfer, bytes per second

    PendingQueue m_released;
    PendingQueue m_landing;
    std::vector<std::uint32_t> m_active;
    std::vector<std::uint32_t> m_stillActive;
    std::size_t m_finished = 0;
    double m_now = 0;
    std::size_t m_activeElements = 0; ///< (flow, channel) pairs the next solve visits
    std::size_t m_work = 0;

    std::size_t m_stride = 1;
    std::vector<std::size_t> m_sampledEvent; ///< event number of each timeline sample
    std::vector<double> m_used;              ///< per channel, for a sample's snapshot
    /// Snapshots of thinned samples, reused: fresh ones cost a page fault per 4 KiB.
    std::vector<std::vector<float>> m_spare;
};

} // namespace

SimulationResult FlowSimulator::run(const FabricNetwork& network,
                                    const std::vector<Transfer>& transfers, std::stop_token stop,
                                    const SimulationOptions& options,
                                    const std::function<void(const Progress&)>& progress) const {
    return Run(network, transfers, std::move(stop), options).run(progress);
}

void expectTransfers(const FabricNetwork& network, std::span<const Transfer> transfers) {
    if (!network.weighsPatterns())
        return;
    std::vector<std::pair<Endpoint, Endpoint>> pairs;
    pairs.reserve(transfers.size());
    for (const Transfer& t : transfers)
        pairs.emplace_back(t.from, t.to);
    network.expectFlows(pairs);
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
