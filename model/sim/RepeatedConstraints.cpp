// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/RepeatedConstraints.hpp"

#include "model/core/Hash.hpp"

#include <algorithm>
#include <bit>
#include <unordered_map>

namespace fabriclab::sim {
namespace {

using model::mix;

/// A channel's row (the flows on it, in flow order, with the share of the channel's
/// capacity a unit of each flow's rate takes) folded into two independent 64-bit hashes.
struct Fingerprint {
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    std::uint32_t count = 0;
    bool operator==(const Fingerprint&) const = default;
};

/// A flow's elements on one candidate group, tallied while checking the flow.
struct Tally {
    std::uint32_t group;
    std::uint32_t count;
    std::uint64_t share;
};

} // namespace

std::vector<char> repeatedChannels(const FlowSource& flows, std::span<const double> capacity,
                                   FlowPaths* kept) {
    constexpr auto kNone = ~std::uint32_t{0};
    const std::size_t channels = capacity.size();
    const auto shareBits = [&](const PathElement& e) {
        return std::bit_cast<std::uint64_t>(e.fraction / capacity[e.channel]);
    };
    // One pass in flow order folds every row into its fingerprint.
    std::vector<Fingerprint> prints(channels);
    std::uint32_t f = 0;
    flows([&](std::span<const PathElement> path) {
        for (const PathElement& e : path) {
            Fingerprint& p = prints[e.channel];
            const std::uint64_t share = shareBits(e);
            p.a = mix(p.a ^ f) ^ share;
            p.b = mix(p.b + 0x632be59bd9b4e019ULL * (f + 1)) + mix(share);
            ++p.count;
        }
        ++f;
    });
    // Candidates: channels whose fingerprint an earlier channel has. A channel one flow
    // uses is a bound on it, which the solver handles on its own.
    std::vector<std::uint32_t> groupOf(channels, kNone);
    std::vector<std::uint32_t> groupSize(channels, 0);
    std::unordered_map<std::uint64_t, std::uint32_t> firstWithPrint;
    for (std::uint32_t c = 0; c < channels; ++c) {
        const Fingerprint& p = prints[c];
        if (p.count < 2)
            continue;
        const auto [first, inserted] = firstWithPrint.try_emplace(p.a ^ mix(p.b), c);
        if (!inserted && prints[first->second] == p) {
            groupOf[c] = groupOf[first->second] = first->second;
            ++groupSize[first->second];
        }
    }
    for (std::uint32_t c = 0; c < channels; ++c)
        if (groupOf[c] == c)
            ++groupSize[c]; // the first member counts itself
    // The proof, flow by flow: a flow that loads any channel of a group loads every one
    // of them once (routes never list a channel twice) by the same share. A group that
    // fails keeps all its channels.
    // The same pass keeps what the solver will need, supposing every group holds.
    std::vector<char> broken(channels, 0);
    std::vector<Tally> tallies;
    std::vector<PathElement> mine;
    if (kept)
        *kept = FlowPaths{};
    flows([&](std::span<const PathElement> path) {
        tallies.clear();
        mine.clear();
        for (const PathElement& e : path) {
            const std::uint32_t group = groupOf[e.channel];
            if (group == kNone || group == e.channel)
                mine.push_back(e);
            if (group == kNone)
                continue;
            const auto tally = std::find_if(tallies.begin(), tallies.end(),
                                            [&](const Tally& t) { return t.group == group; });
            if (tally == tallies.end())
                tallies.push_back({group, 1, shareBits(e)});
            else if (++tally->count, tally->share != shareBits(e))
                broken[group] = 1;
        }
        for (const Tally& t : tallies)
            if (t.count != groupSize[t.group])
                broken[t.group] = 1;
        if (kept)
            kept->add(mine);
    });
    std::vector<char> repeated(channels, 0);
    for (std::uint32_t c = 0; c < channels; ++c)
        repeated[c] = groupOf[c] != kNone && groupOf[c] != c && !broken[groupOf[c]];
    if (kept && std::find(broken.begin(), broken.end(), 1) != broken.end()) {
        // A group fell apart after its channels were left out: keep them after all.
        *kept = FlowPaths{};
        flows([&](std::span<const PathElement> path) {
            mine.clear();
            for (const PathElement& e : path)
                if (!repeated[e.channel])
                    mine.push_back(e);
            kept->add(mine);
        });
    }
    return repeated;
}

std::vector<char> repeatedChannels(const FlowPaths& paths, std::span<const double> capacity,
                                   FlowPaths* kept) {
    return repeatedChannels(
        [&](const FlowVisitor& visit) {
            for (std::size_t f = 0; f < paths.flowCount(); ++f)
                visit(paths.of(f));
        },
        capacity, kept);
}

} // namespace fabriclab::sim
