// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/Measure.hpp"

#include "bench/ChildProcess.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace fabriclab::bench {
namespace {

constexpr std::size_t kScalars = 8;

std::vector<double> encode(const Sample& s) {
    std::vector<double> values{
        s.seconds, s.setupSeconds, s.solveSeconds, s.makespan, s.makespanWithLatency,
        s.events,  s.pairs,        s.flows};
    values.insert(values.end(), s.perFlow.begin(), s.perFlow.end());
    return values;
}

Sample decode(const std::vector<double>& values) {
    Sample s;
    if (values.size() < kScalars)
        return s;
    s.seconds = values[0];
    s.setupSeconds = values[1];
    s.solveSeconds = values[2];
    s.makespan = values[3];
    s.makespanWithLatency = values[4];
    s.events = values[5];
    s.pairs = values[6];
    s.flows = values[7];
    s.perFlow.assign(values.begin() + kScalars, values.end());
    return s;
}

} // namespace

SideResult measureSide(int runs, const std::function<Sample()>& body) {
    SideResult result;
    std::vector<Sample> samples;
    for (int run = 0; run < std::max(1, runs); ++run) {
        ChildOutcome outcome = runInChild([&] { return encode(body()); });
        if (!outcome.ok()) {
            result.error = outcome.error;
            return result;
        }
        result.peakMb = std::max(result.peakMb, outcome.peakRssMb);
        samples.push_back(decode(outcome.values));
    }
    // The median run, not the fastest: both sides start cold in a fresh process, and the
    // median is what a user would see.
    std::vector<std::size_t> order(samples.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return samples[x].seconds < samples[y].seconds;
    });
    result.median = std::move(samples[order[order.size() / 2]]);
    result.ran = true;
    return result;
}

double maxRelativeDifference(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size())
        return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] == b[i])
            continue;
        if (!std::isfinite(a[i]) || !std::isfinite(b[i]))
            return std::numeric_limits<double>::infinity();
        const double scale = std::max(std::abs(a[i]), std::abs(b[i]));
        worst = std::max(worst, std::abs(a[i] - b[i]) / scale);
    }
    return worst;
}

double clockSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double elapsedSince(double start) {
    return clockSeconds() - start;
}

} // namespace fabriclab::bench
