// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/routing/UgalRouting.hpp"

#include "model/core/Hash.hpp"

#include <algorithm>
#include <cmath>

namespace fabriclab::sim::routing {
namespace {

constexpr std::uint64_t kChoiceSalt = 0x3C6EF372FE94F82BULL; // apart from ECMP's and Valiant's
/// Passes over the pattern: the first weighs minimal loads alone, later ones the detours
/// the passes before chose, half-way each time so the shares settle rather than swing.
constexpr int kPasses = 6;
/// UGAL weighs a path's queue by its hops: a detour crosses two global links to one.
constexpr double kDetourHops = 2;

/// A well-mixed hash mapped onto [0, 1).
double unit(std::uint64_t hash) {
    return static_cast<double>(model::mix(hash) >> 11) * 0x1.0p-53;
}

} // namespace

UgalRouting::UgalRouting(std::shared_ptr<const FabricStructure> structure)
    : m_minimal(structure), m_valiant(structure), m_capacity(m_valiant.globalCapacityGbps()),
      m_share(m_capacity.size(), 0.0) {}

std::unique_ptr<RoutingPolicy> UgalRouting::clone() const {
    return std::make_unique<UgalRouting>(*this);
}

double UgalRouting::detourShare(int a, int b) const {
    const auto g = static_cast<std::size_t>(m_valiant.groupCount());
    return m_share[static_cast<std::size_t>(a) * g + static_cast<std::size_t>(b)];
}

void UgalRouting::expectFlows(std::span<const ExpectedFlow> flows) const {
    const int groups = m_valiant.groupCount();
    std::fill(m_share.begin(), m_share.end(), 0.0);
    if (groups < 3)
        return;
    const auto g = static_cast<std::size_t>(groups);
    std::vector<double> demand(g * g, 0.0);
    for (const ExpectedFlow& flow : flows) {
        const int a = m_valiant.groupOf(flow.from);
        const int b = m_valiant.groupOf(flow.to);
        if (a >= 0 && b >= 0 && a != b)
            demand[static_cast<std::size_t>(a) * g + static_cast<std::size_t>(b)] += flow.gbps;
    }
    double capacitySum = 0;
    for (const double c : m_capacity)
        capacitySum += c;
    const double meanCapacity = capacitySum / static_cast<double>(g * (g - 1));
    if (!(meanCapacity > 0))
        return;
    const double others = static_cast<double>(groups - 2);
    const auto at = [g](std::size_t a, std::size_t b) { return a * g + b; };

    std::vector<double> load(g * g);
    for (int pass = 0; pass < kPasses; ++pass) {
        // Each global link's load: its pair's minimal flows, plus the detours through it.
        std::fill(load.begin(), load.end(), 0.0);
        for (std::size_t a = 0; a < g; ++a)
            for (std::size_t b = 0; b < g; ++b) {
                const double d = demand[at(a, b)];
                if (a == b || d <= 0)
                    continue;
                load[at(a, b)] += d * (1 - m_share[at(a, b)]);
                const double detoured = d * m_share[at(a, b)] / others;
                for (std::size_t c = 0; c < g; ++c)
                    if (c != a && c != b) {
                        load[at(a, c)] += detoured;
                        load[at(c, b)] += detoured;
                    }
            }
        for (std::size_t a = 0; a < g; ++a)
            for (std::size_t b = 0; b < g; ++b) {
                const double d = demand[at(a, b)];
                const double direct = m_capacity[at(a, b)];
                if (a == b || d <= 0 || !(direct > 0))
                    continue;
                // What the direct links carry besides this pair's own minimal flows, and
                // how loaded a detour's links are on average (the worse of its two hops).
                const double own = d * (1 - m_share[at(a, b)]);
                const double background = (load[at(a, b)] - own) / direct;
                // Only groups with global links to both ends can carry a detour (a failure or
                // an edit may leave a pair of groups without any).
                double detourLoad = 0;
                int detourGroups = 0;
                for (std::size_t c = 0; c < g; ++c)
                    if (c != a && c != b && m_capacity[at(a, c)] > 0 && m_capacity[at(c, b)] > 0) {
                        detourLoad += std::max(load[at(a, c)] / m_capacity[at(a, c)],
                                               load[at(c, b)] / m_capacity[at(c, b)]);
                        ++detourGroups;
                    }
                if (detourGroups == 0)
                    continue;
                detourLoad /= detourGroups;
                // Balance: background + (d - x) / direct = hops x (detourLoad + x / spread),
                // the detoured x spread over every other group's links.
                const double spread = detourGroups * meanCapacity;
                const double x = (background + d / direct - kDetourHops * detourLoad) /
                                 (1 / direct + kDetourHops / spread);
                const double share = std::isfinite(x) ? std::clamp(x / d, 0.0, 1.0) : 0.0;
                m_share[at(a, b)] = pass == 0 ? share : 0.5 * (m_share[at(a, b)] + share);
            }
    }
}

int UgalRouting::hops(std::uint32_t from, std::uint32_t to) const {
    return m_minimal.hops(from, to);
}

void UgalRouting::appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t flowKey,
                               Route& route) const {
    const int a = m_valiant.groupOf(from);
    const int b = m_valiant.groupOf(to);
    if (a >= 0 && b >= 0 && a != b && m_valiant.groupCount() >= 3 &&
        unit(flowKey ^ kChoiceSalt) < detourShare(a, b))
        m_valiant.appendMiddle(from, to, flowKey, route);
    else
        m_minimal.appendMiddle(from, to, flowKey, route);
}

} // namespace fabriclab::sim::routing
