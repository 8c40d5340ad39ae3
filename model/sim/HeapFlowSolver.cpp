// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/HeapFlowSolver.hpp"

#include <algorithm>
#include <cmath>
#include <queue>

namespace fabriclab::sim {
namespace {

struct LevelEntry {
    double level;
    std::uint32_t constraint;
    std::uint32_t version;
    bool operator>(const LevelEntry& other) const { return level > other.level; }
};

/// Offsets and entries of a compressed adjacency list built by counting sort.
struct Csr {
    std::vector<std::uint32_t> start;
    std::vector<std::uint32_t> entries; ///< element indices
};

template <class Key> Csr buildCsr(std::size_t keys, std::size_t elements, Key key) {
    Csr csr;
    csr.start.assign(keys + 1, 0);
    for (std::size_t e = 0; e < elements; ++e)
        ++csr.start[key(e) + 1];
    for (std::size_t k = 0; k < keys; ++k)
        csr.start[k + 1] += csr.start[k];
    csr.entries.resize(elements);
    std::vector<std::uint32_t> fill(csr.start.begin(), csr.start.end() - 1);
    for (std::size_t e = 0; e < elements; ++e)
        csr.entries[fill[key(e)]++] = static_cast<std::uint32_t>(e);
    return csr;
}

} // namespace

void HeapFlowSolver::doSolve() {
    const std::size_t variables = m_bound.size();
    const std::size_t constraints = m_capacity.size();
    const std::size_t elements = m_elements.size();
    const Csr byVariable =
        buildCsr(variables, elements, [&](std::size_t e) { return m_elements[e].variable; });
    const Csr byConstraint =
        buildCsr(constraints, elements, [&](std::size_t e) { return m_elements[e].constraint; });

    std::vector<double> remaining(m_capacity);
    std::vector<double> weight(constraints, 0.0);
    std::vector<std::uint32_t> growing(constraints, 0); // active variables not yet frozen
    std::vector<std::uint32_t> version(constraints, 0);
    std::vector<char> frozen(variables, 0);
    for (std::size_t v = 0; v < variables; ++v)
        frozen[v] = !m_active[v];
    for (const Element& e : m_elements) {
        if (frozen[e.variable])
            continue;
        weight[e.constraint] += e.consumption * m_multiplicity[e.variable] / m_penalty[e.variable];
        ++growing[e.constraint];
    }

    std::vector<LevelEntry> initial;
    initial.reserve(constraints);
    for (std::uint32_t c = 0; c < constraints; ++c)
        if (growing[c] > 0)
            initial.push_back({remaining[c] / weight[c], c, 0});
    std::priority_queue<LevelEntry, std::vector<LevelEntry>, std::greater<>> heap(
        std::greater<>{}, std::move(initial));

    // Bounds as fair levels (b_v * p_v), smallest first.
    std::vector<std::pair<double, std::uint32_t>> bounds;
    for (std::uint32_t v = 0; v < variables; ++v)
        if (!frozen[v] && std::isfinite(m_bound[v]))
            bounds.emplace_back(m_bound[v] * m_penalty[v], v);
    std::sort(bounds.begin(), bounds.end());
    std::size_t nextBound = 0;

    const auto freeze = [&](std::uint32_t v, double rate) {
        frozen[v] = 1;
        m_rate[v] = rate;
        const double perUnit = m_multiplicity[v];
        for (std::uint32_t i = byVariable.start[v]; i < byVariable.start[v + 1]; ++i) {
            const Element& e = m_elements[byVariable.entries[i]];
            const std::uint32_t c = e.constraint;
            remaining[c] = std::max(0.0, remaining[c] - e.consumption * perUnit * rate);
            weight[c] -= e.consumption * perUnit / m_penalty[v];
            if (--growing[c] > 0 && weight[c] > 0)
                heap.push({remaining[c] / weight[c], c, ++version[c]});
        }
    };

    while (true) {
        while (!heap.empty() &&
               (heap.top().version != version[heap.top().constraint] || growing[heap.top().constraint] == 0))
            heap.pop();
        while (nextBound < bounds.size() && frozen[bounds[nextBound].second])
            ++nextBound;
        const bool haveConstraint = !heap.empty();
        const bool haveBound = nextBound < bounds.size();
        if (!haveConstraint && !haveBound)
            break;
        if (haveBound && (!haveConstraint || bounds[nextBound].first <= heap.top().level)) {
            const auto [level, v] = bounds[nextBound++];
            freeze(v, level / m_penalty[v]);
            continue;
        }
        const LevelEntry top = heap.top();
        heap.pop();
        // The constraint saturates at this level: everything still growing on it stops.
        for (std::uint32_t i = byConstraint.start[top.constraint];
             i < byConstraint.start[top.constraint + 1]; ++i) {
            const std::uint32_t v = m_elements[byConstraint.entries[i]].variable;
            if (!frozen[v])
                freeze(v, top.level / m_penalty[v]);
        }
    }
    // Active variables that met neither a constraint nor a bound are unlimited.
    for (std::size_t v = 0; v < variables; ++v)
        if (!frozen[v])
            m_rate[v] = kUnbounded;
}

} // namespace fabriclab::sim
