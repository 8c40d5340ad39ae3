// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/EffectiveBisection.hpp"

#include "model/core/Cancellation.hpp"
#include "model/sim/FlowSolver.hpp"
#include "model/sim/RepeatedConstraints.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <future>
#include <random>
#include <span>

namespace fabriclab::sim {

namespace {

/// Route elements a draw keeps between its visits (32 MB): a static-ECMP permutation of
/// 131K GPUs is about a million and is read back instead of routed again; an adaptive
/// one is nine million, cheaper routed again than held.
constexpr std::size_t kKeptElements = std::size_t{2} << 20;

/// Every flow of a draw: for each pair of partners and each NIC they share, the flow from
/// the first half and the flow back, in that order (even flows go forward, odd ones
/// back). Routed on the first visit and kept if they fit in kKeptElements; routed again
/// on each later visit if not.
class DrawFlows {
public:
    DrawFlows(const FabricNetwork& network, const std::vector<model::NodeId>& first,
              const std::vector<model::NodeId>& second, std::uint64_t seed, std::stop_token stop)
        : m_network(network), m_first(first), m_second(second), m_seed(seed),
          m_stop(std::move(stop)) {}

    void operator()(const FlowVisitor& visit) {
        if (m_complete) {
            for (std::size_t f = 0; f < m_kept.flowCount(); ++f)
                visit(m_kept.of(f));
            return;
        }
        bool keep = !m_routedOnce;
        if (!m_routedOnce)
            expectPattern();
        m_routedOnce = true;
        Route route;
        const auto pass = [&] {
            visit(route.elements);
            if (!keep)
                return;
            if (m_kept.elements.size() + route.elements.size() > kKeptElements) {
                keep = false;
                m_kept = FlowPaths{};
            } else {
                m_kept.add(route.elements);
            }
        };
        for (std::size_t i = 0; i < m_first.size() && i < m_second.size(); ++i) {
            // Every pair: the first routes between two switches work out their adaptive
            // spread, so a thousand pairs can take half a second on a 16K-GPU fat-tree,
            // while a look at the token is one atomic load.
            model::throwIfStopped(m_stop);
            const int nics =
                std::min(m_network.nicCount(m_first[i]), m_network.nicCount(m_second[i]));
            for (int nic = 0; nic < nics; ++nic) {
                m_network.routeInto({m_first[i], nic}, {m_second[i], nic}, m_seed, route);
                pass();
                m_network.routeInto({m_second[i], nic}, {m_first[i], nic}, m_seed, route);
                pass();
            }
        }
        m_complete = keep;
    }

private:
    /// The draw's flows, both ways on every NIC, for a routing that weighs whole patterns.
    void expectPattern() const {
        if (!m_network.weighsPatterns())
            return;
        std::vector<std::pair<Endpoint, Endpoint>> pairs;
        for (std::size_t i = 0; i < m_first.size() && i < m_second.size(); ++i) {
            const int nics =
                std::min(m_network.nicCount(m_first[i]), m_network.nicCount(m_second[i]));
            for (int nic = 0; nic < nics; ++nic) {
                pairs.emplace_back(Endpoint{m_first[i], nic}, Endpoint{m_second[i], nic});
                pairs.emplace_back(Endpoint{m_second[i], nic}, Endpoint{m_first[i], nic});
            }
        }
        m_network.expectFlows(pairs);
    }

    const FabricNetwork& m_network;
    const std::vector<model::NodeId>& m_first;
    const std::vector<model::NodeId>& m_second;
    std::uint64_t m_seed;
    std::stop_token m_stop;
    FlowPaths m_kept;
    bool m_routedOnce = false;
    bool m_complete = false;
};

/// What each tier's cables carry at the solved rates, from the flows' whole routes.
void addTierLoads(const FabricNetwork& network, const FlowSource& flows, const FlowSolver& solver,
                  EffectiveBisection& result) {
    const auto& topology = network.topology();
    std::vector<std::uint8_t> tierOf(network.channelCount());
    for (std::uint32_t c = 0; c < tierOf.size(); ++c)
        tierOf[c] =
            static_cast<std::uint8_t>(topology.tierOf(topology.link(network.linksOf(c).front())));
    for (std::uint32_t c = 0; c < network.linkChannelCount(); ++c)
        result.tiers[tierOf[c]].capacityGbps += network.capacityGbps(c);
    std::uint32_t f = 0;
    flows([&](std::span<const PathElement> path) {
        const double rate = solver.rate(VariableId{f++});
        for (const PathElement& e : path)
            result.tiers[tierOf[e.channel]].carriedGbps += rate * e.fraction;
    });
}

/// One draw: a permutation and the flows' hash keys from `seed`.
EffectiveBisection oneDraw(const FabricNetwork& network, const model::BisectionResult& theoretical,
                           std::span<const double> capacity, std::uint64_t seed,
                           std::stop_token stop, bool tiers) {
    EffectiveBisection result;
    const auto& first = theoretical.firstHalf;
    auto second = theoretical.secondHalf;
    if (std::min(first.size(), second.size()) == 0 || theoretical.minCut.value <= 0)
        return result;
    std::mt19937_64 random(seed);
    std::shuffle(second.begin(), second.end(), random);

    DrawFlows draw(network, first, second, seed, stop);
    const FlowSource flows = [&draw](const FlowVisitor& visit) { draw(visit); };
    // Dropping repeated constraints leaves every rate as it was, and most of the work.
    FlowPaths kept;
    repeatedChannels(flows, capacity, &kept);

    const auto solver = makeSolver("heap");
    solver->setStopToken(stop);
    solver->addConstraints(capacity);
    solver->reserve(kept.flowCount(), kept.elements.size());
    for (std::size_t f = 0; f < kept.flowCount(); ++f) {
        const VariableId v = solver->addVariable();
        for (const PathElement& e : kept.of(f))
            solver->expand(v, ConstraintId{e.channel}, e.fraction);
    }
    solver->solve();
    double there = 0;
    double back = 0;
    for (std::uint32_t f = 0; f < solver->variableCount(); ++f)
        (f % 2 == 0 ? there : back) += solver->rate(VariableId{f});
    result.gbps = std::min(there, back);
    result.ratio = result.gbps / theoretical.minCut.value;
    if (tiers)
        addTierLoads(network, flows, *solver, result);
    return result;
}

/// Flows in one draw from which the draws are shared with a second thread: below it,
/// copying the network and warming its caches again costs more than the draws.
constexpr std::size_t kFlowsWorthAThread = 16'384;

} // namespace

EffectiveBisection effectiveBisection(const FabricNetwork& network,
                                      const model::BisectionResult& theoretical, std::uint64_t seed,
                                      std::stop_token stop, bool tiers, int seeds) {
    seeds = std::max(1, seeds);
    // Every draw's solver starts from the same capacities (copies share the structure).
    std::vector<double> capacity(network.channelCount());
    for (std::uint32_t c = 0; c < capacity.size(); ++c)
        capacity[c] = network.capacityGbps(c);
    const auto drawWith = [&](const FabricNetwork& on, int i) {
        return oneDraw(on, theoretical, capacity, seed + static_cast<std::uint64_t>(i), stop,
                       tiers);
    };
    std::vector<EffectiveBisection> results(static_cast<std::size_t>(seeds));
    // On a large fabric the draws are shared with a second thread, which routes on a copy
    // of the network (a network's route caches belong to one thread; copied before any
    // draw, while the caches are as the caller left them). Each takes the next draw not
    // yet taken; every result lands in its own slot and they are summed in order below,
    // so the figures do not depend on which thread drew what.
    const std::size_t pairs = std::min(theoretical.firstHalf.size(), theoretical.secondHalf.size());
    const std::size_t flows =
        pairs == 0
            ? 0
            : 2 * pairs * static_cast<std::size_t>(network.nicCount(theoretical.firstHalf.front()));
    std::atomic<int> next{0};
    const auto drawAll = [&](const FabricNetwork& on) {
        for (int i = next++; i < seeds; i = next++)
            results[static_cast<std::size_t>(i)] = drawWith(on, i);
    };
    std::future<void> helper;
    if (seeds > 1 && flows >= kFlowsWorthAThread)
        helper = std::async(std::launch::async, [&drawAll, copy = network] { drawAll(copy); });
    drawAll(network);
    if (helper.valid())
        helper.get();

    EffectiveBisection mean;
    std::vector<double> draws;
    for (const EffectiveBisection& draw : results) {
        draws.push_back(draw.gbps);
        for (std::size_t t = 0; t < mean.tiers.size(); ++t) {
            mean.tiers[t].capacityGbps = draw.tiers[t].capacityGbps;
            mean.tiers[t].carriedGbps += draw.tiers[t].carriedGbps / seeds;
        }
    }
    double sum = 0;
    for (const double g : draws)
        sum += g;
    mean.gbps = sum / seeds;
    double squares = 0;
    for (const double g : draws)
        squares += (g - mean.gbps) * (g - mean.gbps);
    mean.stddevGbps = std::sqrt(squares / seeds);
    mean.minGbps = *std::min_element(draws.begin(), draws.end());
    mean.maxGbps = *std::max_element(draws.begin(), draws.end());
    mean.seeds = seeds;
    mean.ratio = theoretical.minCut.value > 0 ? mean.gbps / theoretical.minCut.value : 0;
    const auto& fabric = network.fabric();
    mean.lineEfficiency = fabric.goodputShare();
    mean.routingEfficiency = mean.ratio / mean.lineEfficiency;
    return mean;
}

} // namespace fabriclab::sim
