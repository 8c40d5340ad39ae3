// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/Slowdown.hpp"

#include "model/analysis/Oversubscription.hpp"
#include "model/core/TextFormat.hpp"
#include "model/design/Failures.hpp"
#include "model/sim/Playback.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace fabriclab::model {
namespace {

/// Saturated links named per reason: enough to point at, few enough to select.
constexpr std::size_t kMaxLinksNamed = 64;

std::string percent(double fraction) {
    return fixed(100 * fraction, fraction < 0.1 ? 1 : 0) + "%";
}

std::string opName(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::AllReduce:
        return "all-reduce";
    case CollectiveOp::AllGather:
        return "all-gather";
    case CollectiveOp::ReduceScatter:
        return "reduce-scatter";
    case CollectiveOp::AllToAll:
        return "all-to-all";
    case CollectiveOp::Broadcast:
        return "broadcast";
    case CollectiveOp::SendRecv:
        return "send/receive";
    }
    return "collective";
}

std::string tierName(LinkTier tier) {
    switch (tier) {
    case LinkTier::Server:
        return "Server links";
    case LinkTier::LeafSpine:
        return "Leaf-spine links";
    case LinkTier::SpineCore:
        return "Spine-core links";
    case LinkTier::Other:
        break;
    }
    return "Other links";
}

/// What the servers' NICs carry per server, GB/s of goodput: the line rate of the
/// collective's NICs times the fabric's line efficiency.
double serverNicGBps(const Topology& topology, const Fabric& fabric) {
    // One pass over the cables, summed per server: asking each server for its links scans
    // every cable per server, seconds of CPU at 16K GPUs.
    std::unordered_map<std::uint32_t, double> nicGbps;
    for (const auto& [id, link] : topology.links())
        for (const NodeId end : {link.a, link.b})
            if (topology.node(end).kind == NodeKind::Server)
                nicGbps[end.value] += link.capacity().value;
    double slowest = -1;
    for (const auto& [server, gbps] : nicGbps)
        if (gbps > 0 && (slowest < 0 || gbps < slowest))
            slowest = gbps;
    return model::toGBps(model::Gbps(std::max(0.0, slowest) * fabric.goodputShare())).value;
}

/// Adds a reason per tier that runs full; returns which tiers do.
std::array<bool, kLinkTierCount> saturatedTiers(const Design& design, const RunReport& report,
                                                std::vector<SlowdownReason>& reasons) {
    std::array<bool, kLinkTierCount> full{};
    if (!report.playback || report.playback->frameCount() == 0)
        return full;
    const sim::Playback& p = *report.playback;
    const Topology& topology = design.topology;
    std::array<double, kLinkTierCount> waited{};
    std::array<std::vector<LinkId>, kLinkTierCount> named;
    for (std::size_t f = 0; f < p.frameCount(); ++f) {
        const double end = f + 1 < p.frameCount() ? p.times[f + 1] : p.seconds;
        const double dt = std::max(0.0, end - p.times[f]);
        std::array<bool, kLinkTierCount> hit{};
        for (std::size_t l = 0; l < p.links.size(); ++l) {
            if (p.utilizationAt(f, l) < sim::Playback::kSaturated ||
                !topology.links().count(p.links[l]))
                continue;
            const auto tier = static_cast<std::size_t>(topology.tierOf(topology.link(p.links[l])));
            hit[tier] = true;
            auto& list = named[tier];
            if (list.size() < kMaxLinksNamed &&
                std::find(list.begin(), list.end(), p.links[l]) == list.end())
                list.push_back(p.links[l]);
        }
        for (std::size_t t = 0; t < kLinkTierCount; ++t)
            waited[t] += hit[t] ? dt : 0;
    }
    const std::string op = opName(report.collective.op);
    for (std::size_t t = 0; t < kLinkTierCount; ++t) {
        const double share = p.seconds > 0 ? waited[t] / p.seconds : 0;
        if (share < 0.01)
            continue;
        full[t] = true;
        const auto tier = static_cast<LinkTier>(t);
        std::string text = tierName(tier) + " run full for " + percent(share) + " of the " + op +
                           "'s time: the flows crossing them wait on them";
        text += tier == LinkTier::Server ? " (the NICs set the pace, as they should)."
                                         : ", not on the NICs.";
        reasons.push_back({std::move(text), named[t], {}});
    }
    return full;
}

} // namespace

std::vector<SlowdownReason> explainSlowdown(const Design& design, const RunReport& report) {
    std::vector<SlowdownReason> reasons;
    const Topology& topology = design.topology;
    const std::string op = opName(report.collective.op);

    // 1. The collective against the NICs. For reductions and gathers nccl-tests' bus
    // bandwidth reaches what a server's NICs carry (NVLink does the rest inside). An
    // all-to-all's reaches each GPU's share of them, scaled up by the part of its data
    // that stays inside its server: per GPU x servers / (servers - 1) x (n - 1) / n.
    double bound = serverNicGBps(topology, report.fabric);
    const int servers = report.servers;
    if (report.collective.op == CollectiveOp::AllToAll && servers > 1 && report.gpus > 0) {
        const double n = report.collective.ranks;
        bound = bound / (static_cast<double>(report.gpus) / servers) * servers / (servers - 1) *
                (n - 1) / n;
    }
    // A send/receive crosses each server boundary from one GPU: its share of the NICs.
    const bool perGpu = report.collective.op == CollectiveOp::SendRecv && servers > 1;
    if (perGpu && report.gpus > 0)
        bound = bound / (static_cast<double>(report.gpus) / servers);
    if (bound > 0 && report.collective.busBwGBps > 0) {
        const double share = report.collective.busBwGBps / bound;
        std::string text =
            "The " + op + " reaches " + fixed(report.collective.busBwGBps, 1) +
            " GB/s bus bandwidth, " + percent(share) + " of the " + fixed(bound, 1) +
            (report.collective.op == CollectiveOp::AllToAll
                 ? " GB/s the NICs allow it (each GPU's share, data kept inside a server excluded)"
             : perGpu ? " GB/s the NICs next to one GPU carry"
                      : " GB/s each server's NICs carry");
        if (share > 1.02)
            text += ": NVLink inside the servers carries the rest (" +
                    std::string(toString(report.collective.algorithm)) + ").";
        else if (share > 0.85)
            text += ": the NICs are the limit, the fabric keeps up.";
        else
            text += ": the rest is lost in the fabric or to latency (see below).";
        reasons.push_back({std::move(text), {}, {}});
    }

    // 2. Where the collective waits.
    const auto full = saturatedTiers(design, report, reasons);

    // 3. Oversubscription.
    if (const auto ratio = leafOversubscription(topology); ratio && *ratio > 1.01) {
        std::vector<NodeId> leaves;
        for (const auto& [id, node] : topology.nodes())
            if (node.kind == NodeKind::Leaf)
                leaves.push_back(id);
        const bool costs = !report.playback || full[static_cast<std::size_t>(LinkTier::LeafSpine)];
        reasons.push_back(
            {"Leaves are " + fixed(*ratio, *ratio == std::floor(*ratio) ? 0 : 1) +
                 ":1 oversubscribed: when every server sends off its leaf, each uplink carries " +
                 fixed(*ratio, 1) + "x what a server link does" +
                 (costs ? "." : "; this " + op + " keeps within the leaves and never fills them."),
             {},
             std::move(leaves)});
    }

    // 4. Static ECMP.
    if (report.fabric.routing == Routing::Ecmp && report.effective.routingEfficiency < 0.98) {
        std::string text = "Static ECMP keeps " + percent(report.effective.routingEfficiency) +
                           " of the min cut for random traffic: flows hashed onto the same "
                           "uplink share it while others idle";
        for (const RoutingBisection& other : report.otherRoutings)
            text += "; " + std::string(describe(other.routing)) + " would keep " +
                    percent(other.effective.routingEfficiency);
        reasons.push_back({text + ".", {}, {}});
    }

    // 4b. Spraying over cables that carry less than their share (what a failure left).
    if (report.fabric.routing == Routing::Spray)
        for (const RoutingBisection& other : report.otherRoutings)
            if (other.routing == Routing::Adaptive &&
                other.effective.routingEfficiency > report.effective.routingEfficiency + 0.02)
                reasons.push_back(
                    {"Packet spraying keeps " + percent(report.effective.routingEfficiency) +
                         " of the min cut for random traffic: every equal-cost cable gets its "
                         "share whatever it can carry, so a degraded cable holds back each flow "
                         "crossing it; adaptive routing, steering by what each cable drains, "
                         "would keep " +
                         percent(other.effective.routingEfficiency) + ".",
                     {},
                     {}});

    // 4c. Valiant's detours on a dragonfly: what protecting the worst pattern costs here.
    for (const RoutingBisection& other : report.otherRoutings)
        if (other.routing == Routing::Valiant)
            reasons.push_back(
                {"Valiant routing, detouring each flow between groups through a random third "
                 "group, would keep " +
                     percent(other.effective.routingEfficiency) +
                     " of the min cut for random "
                     "traffic where " +
                     std::string(describe(report.fabric.routing)) + " keeps " +
                     percent(report.effective.routingEfficiency) +
                     ": a second global hop on every such flow, the price of spreading a "
                     "pattern that sends a whole group to one other over all the global links.",
                 {},
                 {}});

    // 4d. The pattern that tells a dragonfly's routings apart: every group to the next.
    if (!report.groupShift.empty()) {
        const sim::GroupShift& own = report.groupShift.front().shift;
        std::string others;
        for (std::size_t i = 1; i < report.groupShift.size(); ++i)
            others += std::string(i == 1 ? "" : ", ") +
                      std::string(describe(report.groupShift[i].routing)) + " " +
                      percent(report.groupShift[i].shift.deliveredGbps / own.offeredGbps);
        reasons.push_back(
            {"Sending every group's traffic to the next group, the pattern minimal routing "
             "handles worst on a dragonfly, " +
                 std::string(describe(report.fabric.routing)) + " delivers " +
                 percent(own.deliveredGbps / own.offeredGbps) + " of what the servers inject (" +
                 others + "); no routing can deliver more than " +
                 percent(own.capacityGbps / own.offeredGbps) +
                 ", each flow crossing its direct global links or at least two.",
             {},
             {}});
    }

    // 5. Failures.
    if (!design.failures.empty()) {
        const FailedElements failed = failedElements(topology, design.failures);
        std::vector<NodeId> nodes(failed.nodesDown.begin(), failed.nodesDown.end());
        nodes.insert(nodes.end(), failed.nodesDegraded.begin(), failed.nodesDegraded.end());
        std::vector<LinkId> links(failed.linksDown.begin(), failed.linksDown.end());
        links.insert(links.end(), failed.linksDegraded.begin(), failed.linksDegraded.end());
        const std::size_t count = design.failures.size();
        reasons.push_back({std::to_string(count) + (count == 1 ? " failure" : " failures") +
                               " applied: the min cut is " +
                               grouped(report.bisection.minCut.value) + " Gb/s, " +
                               percent(report.bisection.ratio) + " of half the injection.",
                           std::move(links), std::move(nodes)});
    }

    // 6. The step.
    if (report.step && report.step->computeSeconds > 0) {
        const model::StepTime& s = *report.step;
        reasons.push_back({"The training step waits " + fixed(s.exposedCommSeconds * 1e3, 1) +
                               " ms on communication beyond what an ideal fabric would take, " +
                               percent(s.exposedCommSeconds / s.computeSeconds) +
                               " of its compute time.",
                           {},
                           {}});
    }
    return reasons;
}

} // namespace fabriclab::model
