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

/// Compressed adjacency (offsets + element indices) by counting sort on `key`.
template <class Key>
void buildCsr(std::size_t keys, std::size_t elements, Key key, std::vector<std::uint32_t>& start,
              std::vector<std::uint32_t>& entries) {
    start.assign(keys + 1, 0);
    for (std::size_t e = 0; e < elements; ++e)
        ++start[key(e) + 1];
    for (std::size_t k = 0; k < keys; ++k)
        start[k + 1] += start[k];
    entries.resize(elements);
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < elements; ++e)
        entries[fill[key(e)]++] = static_cast<std::uint32_t>(e);
}

} // namespace

void HeapFlowSolver::index() {
    if (m_indexedVersion == m_structureVersion)
        return;
    buildCsr(m_bound.size(), m_elements.size(), [&](std::size_t e) { return m_elements[e].variable; },
             m_variableStart, m_variableElements);
    buildCsr(m_capacity.size(), m_elements.size(), [&](std::size_t e) { return m_elements[e].constraint; },
             m_constraintStart, m_constraintElements);
    m_indexedVersion = m_structureVersion;
}

void HeapFlowSolver::doSolve() {
    index();
    const std::size_t variables = m_bound.size();
    const std::size_t constraints = m_capacity.size();
    struct View {
        const std::vector<std::uint32_t>& start;
        const std::vector<std::uint32_t>& entries;
    };
    const View byVariable{m_variableStart, m_variableElements};
    const View byConstraint{m_constraintStart, m_constraintElements};

    std::vector<double> remaining(m_capacity);
    std::vector<double> weight(constraints, 0.0);
    std::vector<std::uint32_t> growing(constraints, 0); // active variables not yet frozen
    std::vector<std::uint32_t> version(constraints, 0);
    std::vector<char> frozen(variables, 0);
    for (std::size_t v = 0; v < variables; ++v)
        frozen[v] = !m_active[v];
    for (std::uint32_t v = 0; v < variables; ++v) {
        if (frozen[v])
            continue;
        for (std::uint32_t i = byVariable.start[v]; i < byVariable.start[v + 1]; ++i) {
            const Element& e = m_elements[byVariable.entries[i]];
            weight[e.constraint] += e.consumption * m_multiplicity[v] / m_penalty[v];
            ++growing[e.constraint];
        }
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

    // Freezing a variable updates its constraints; their new levels are pushed once per
    // event (not once per frozen variable), which keeps the heap near the number of
    // constraints even when a saturating link freezes thousands of flows.
    std::vector<std::uint32_t> touched;
    std::vector<char> isTouched(constraints, 0);
    const auto freeze = [&](std::uint32_t v, double rate) {
        frozen[v] = 1;
        m_rate[v] = rate;
        const double perUnit = m_multiplicity[v];
        for (std::uint32_t i = byVariable.start[v]; i < byVariable.start[v + 1]; ++i) {
            const Element& e = m_elements[byVariable.entries[i]];
            const std::uint32_t c = e.constraint;
            remaining[c] = std::max(0.0, remaining[c] - e.consumption * perUnit * rate);
            weight[c] -= e.consumption * perUnit / m_penalty[v];
            --growing[c];
            if (!isTouched[c]) {
                isTouched[c] = 1;
                touched.push_back(c);
            }
        }
    };
    const auto publish = [&]() {
        for (const std::uint32_t c : touched) {
            isTouched[c] = 0;
            if (growing[c] > 0 && weight[c] > 0)
                heap.push({remaining[c] / weight[c], c, ++version[c]});
        }
        touched.clear();
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
            publish();
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
        publish();
    }
    // Active variables that met neither a constraint nor a bound are unlimited.
    for (std::size_t v = 0; v < variables; ++v)
        if (!frozen[v])
            m_rate[v] = kUnbounded;
}

} // namespace fabriclab::sim
