// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/Playback.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace fabriclab::sim {
namespace {

/// frames x links floats kept at most: about 64 MB, for playback of the largest fabrics.
constexpr std::size_t kMaxCells = 16'000'000;

} // namespace

std::size_t Playback::frameAt(double t) const {
    const auto after = std::upper_bound(times.begin(), times.end(), t);
    return after == times.begin() ? 0 : static_cast<std::size_t>(after - times.begin()) - 1;
}

float Playback::peakUtilization(std::size_t link) const {
    float peak = 0;
    for (std::size_t f = 0; f < frameCount(); ++f)
        peak = std::max(peak, utilizationAt(f, link));
    return peak;
}

Playback buildPlayback(const FabricNetwork& network, const CollectiveResult& collective,
                       int maxTiles) {
    Playback playback;
    playback.seconds = collective.seconds;
    playback.steps = std::max(1, collective.phaseRepeats);
    const auto& samples = collective.phase.timeline;

    // Columns: the links any sample loads, in first-use order.
    std::unordered_map<std::uint32_t, std::size_t> column;
    for (const Sample& sample : samples)
        for (std::uint32_t c = 0; c < sample.linkUtilization.size(); ++c)
            if (sample.linkUtilization[c] > 0)
                for (const model::LinkId link : network.linksOf(c))
                    if (column.emplace(link.value, playback.links.size()).second)
                        playback.links.push_back(link);
    const std::size_t links = playback.links.size();
    // Each sample as a row of per-link utilization: the busiest channel of the link.
    std::vector<std::vector<float>> rows;
    rows.reserve(samples.size());
    for (const Sample& sample : samples) {
        std::vector<float> row(links, 0.0f);
        for (std::uint32_t c = 0; c < sample.linkUtilization.size(); ++c)
            if (const float u = sample.linkUtilization[c]; u > 0)
                for (const model::LinkId link : network.linksOf(c)) {
                    float& cell = row[column.at(link.value)];
                    cell = std::max(cell, std::min(u, 1.0f));
                }
        rows.push_back(std::move(row));
    }

    int tiles = std::clamp(playback.steps, 1, std::max(1, maxTiles));
    const std::size_t perTile = std::max<std::size_t>(1, samples.size());
    if (links > 0)
        tiles = static_cast<int>(std::clamp<std::size_t>(kMaxCells / (perTile * links), 1,
                                                         static_cast<std::size_t>(tiles)));
    playback.stepsPerTile = (playback.steps + tiles - 1) / tiles;
    // As many tiles as it takes at that many steps each: 30 steps in at most 24 tiles
    // are 15 tiles of 2, not 24 tiles that would stand for 48.
    tiles = (playback.steps + playback.stepsPerTile - 1) / playback.stepsPerTile;
    const double stretch = static_cast<double>(playback.steps) / tiles;
    const double tileSeconds = collective.seconds / tiles;
    // Tile t spans [tileStart(t), tileStart(t + 1)]; the last ends exactly at the end, so
    // no frame lands a rounding error past the next tile's start or the closing frame.
    const auto tileStart = [&](int t) { return t == tiles ? collective.seconds : t * tileSeconds; };
    if (samples.empty()) { // no simulated phase (SHARP, one server): idle from the start
        playback.times.push_back(0);
        playback.throughputGbps.push_back(0);
        playback.utilization.insert(playback.utilization.end(), links, 0.0f);
    }
    for (int t = 0; t < tiles; ++t) {
        for (std::size_t s = 0; s < samples.size(); ++s) {
            playback.times.push_back(
                std::min(tileStart(t) + samples[s].time * stretch, tileStart(t + 1)));
            playback.throughputGbps.push_back(samples[s].throughputGbps);
            playback.utilization.insert(playback.utilization.end(), rows[s].begin(), rows[s].end());
        }
    }
    // The end: everything idle.
    playback.times.push_back(collective.seconds);
    playback.throughputGbps.push_back(0);
    playback.utilization.insert(playback.utilization.end(), links, 0.0f);
    return playback;
}

} // namespace fabriclab::sim
