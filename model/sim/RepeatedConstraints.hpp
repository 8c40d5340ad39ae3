// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/FabricNetwork.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace fabriclab::sim {

/// The routes of many flows in one flat list: flow f loads
/// elements[start[f]] .. elements[start[f + 1] - 1]. Routing a whole draw into one list
/// allocates nothing per flow.
struct FlowPaths {
    std::vector<PathElement> elements;
    std::vector<std::uint32_t> start{0};

    std::size_t flowCount() const { return start.size() - 1; }
    std::span<const PathElement> of(std::size_t flow) const {
        return {elements.data() + start[flow], elements.data() + start[flow + 1]};
    }
    void add(std::span<const PathElement> path) {
        elements.insert(elements.end(), path.begin(), path.end());
        start.push_back(static_cast<std::uint32_t>(elements.size()));
    }
};

/// Sees one flow's route.
using FlowVisitor = std::function<void(std::span<const PathElement>)>;
/// Shows a visitor every flow, in the same order each time it is called: a permutation of
/// a 131K-GPU fabric is nine million route elements, cheaper routed again than stored.
using FlowSource = std::function<void(const FlowVisitor&)>;

/// Channels whose constraint repeats an earlier channel's for these flows: the same flows
/// load both, each by the same share of the channel's capacity. Such channels fill at the
/// same pace and saturate at the same moment, so a max-min solve that keeps only the
/// first gives every flow the same rate. On an adaptive fat-tree a flow entering a pod
/// spreads evenly over all of its spines, and so does every other flow entering it: the
/// pod's 64 spine channels are one constraint written 64 times, and dropping the repeats
/// takes a 131K-GPU permutation from 70 channels a flow to 7.
///
/// Exact, not a heuristic: fingerprints of the rows only propose groups; each group is
/// then proven flow by flow (a flow loading one of its channels loads all of them, by the
/// same share bit for bit), and a group that fails keeps every channel. Routes list a
/// channel at most once, as FabricNetwork's do. A channel only one flow uses is never
/// marked: it is a bound on that flow, which the solver handles on its own. Returns one
/// flag per channel; `capacity` holds each channel's capacity. `flows` is called twice:
/// once to fingerprint the rows, once for the proof (three times if a proof fails and
/// `kept` is wanted). `kept`, when given, receives every flow's route without the
/// repeated channels: what to hand the solver, without visiting the flows again.
std::vector<char> repeatedChannels(const FlowSource& flows, std::span<const double> capacity,
                                   FlowPaths* kept = nullptr);
/// The same for flows held in a list.
std::vector<char> repeatedChannels(const FlowPaths& paths, std::span<const double> capacity,
                                   FlowPaths* kept = nullptr);

} // namespace fabriclab::sim
