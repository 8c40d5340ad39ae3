// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/FabricNetwork.hpp"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace fabriclab::sim {

/// One point-to-point transfer between two NICs.
struct Transfer {
    Endpoint from;
    Endpoint to;
    double bytes = 0;
    std::vector<std::uint32_t> after; ///< indices of transfers that must finish first
    std::uint64_t flowKey = 0;        ///< queue pair / channel index, feeds the ECMP hash
    double extraLatency = 0;          ///< seconds added to the start-up latency (protocol)
};

/// A point of the playback timeline.
struct Sample {
    double time = 0;                    ///< simulated seconds
    double throughputGbps = 0;          ///< sum of all flow rates
    std::vector<float> linkUtilization; ///< per channel, 0-1, when recording links
};

struct SimulationOptions {
    bool recordLinks = false;     ///< per-channel utilization in samples (for views)
    std::size_t maxSamples = 512; ///< the timeline is thinned to at most this many points
    /// Rate changes simulated exactly before the rest of the drain is finished at the
    /// busiest channel's pace (remaining bytes through it / its capacity). Keeps huge
    /// all-to-alls, whose flows finish at thousands of distinct moments, to seconds.
    std::size_t maxEvents = 256;
    /// The same bound also stops exact simulation once the solves have visited this many
    /// (flow, channel) pairs in total.
    std::size_t maxWork = 60'000'000;
};

struct Progress {
    int permille = 0;
    double simulatedSeconds = 0;
};

struct SimulationResult {
    double seconds = 0;              ///< when the last transfer finished
    double dataSeconds = 0;          ///< when the last byte moved (without start-up latency)
    std::vector<double> finishTimes; ///< per transfer
    std::vector<double> latencies;   ///< per transfer: its start-up seconds
    /// Per transfer: when its last byte moved (its finish time less its latency), kept
    /// apart because latency can be 1e7 times the data time of a tiny transfer, and
    /// subtracting it again would lose the data time's low digits (scaleSizes).
    std::vector<double> dataFinishTimes;
    std::vector<Sample> timeline;
    std::size_t events = 0;      ///< solver runs, for benchmarks
    bool drainEstimated = false; ///< maxEvents was reached; the tail is a bound
    bool independent = true;     ///< no transfer waited on another: all released at 0
};

/// Lists the transfers to a routing that weighs whole patterns (FabricNetwork::expectFlows)
/// before they are routed; nothing for any other routing. Every caller that routes a set of
/// transfers at once calls it first, so they all see the same routes.
void expectTransfers(const FabricNetwork& network, std::span<const Transfer> transfers);

/// The result the same transfers would give with every size multiplied by `factor`.
/// Exact for independent transfers: max-min rates do not depend on sizes, so every rate
/// change happens `factor` times later, while each transfer's start-up latency stays.
/// Throws std::invalid_argument for a result with dependencies.
SimulationResult scaleSizes(const SimulationResult& result, double factor);

/// Event-driven flow-level simulation: transfers start once the ones they depend on have
/// finished plus their start-up latency; active transfers share the fabric max-min fairly
/// (FlowSolver); at each completion the finished flows retire, dependants are released
/// and the rates are solved again. An instance holds no global state: run as many side by
/// side as you like. The stop token is polled while routing, inside each solve and once
/// per event; a stopped run throws model::Cancelled.
class FlowSimulator {
public:
    SimulationResult run(const FabricNetwork& network, const std::vector<Transfer>& transfers,
                         std::stop_token stop = {}, const SimulationOptions& options = {},
                         const std::function<void(const Progress&)>& progress = {}) const;
};

} // namespace fabriclab::sim
