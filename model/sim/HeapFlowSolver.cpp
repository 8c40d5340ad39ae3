// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/HeapFlowSolver.hpp"

#include "model/core/Cancellation.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>

namespace fabriclab::sim {

namespace {
constexpr double kInfinite = std::numeric_limits<double>::infinity();
/// How far ahead a saturating constraint's variables are fetched. Two stages: a
/// variable's element range first, then its elements, which needs the range.
constexpr std::uint32_t kPrefetchRange = 16;
constexpr std::uint32_t kPrefetchElements = 8;
using HeapEntry = std::pair<double, std::uint32_t>;
/// Saturation steps between two looks at the stop token.
constexpr std::uint32_t kStopPollInterval = 4096;
constexpr auto kLater = std::greater<HeapEntry>{};
} // namespace

void HeapFlowSolver::index() {
    if (m_indexedVersion == m_structureVersion)
        return;
    const std::size_t variables = variableCount();
    const std::size_t constraints = m_capacity.size();
    const std::size_t elements = elementCount();

    m_variableStart.assign(variables + 1, 0);
    bool inOrder = true;
    for (std::size_t e = 0; e < elements; ++e) {
        ++m_variableStart[m_elementVariable[e] + 1];
        inOrder = inOrder && (e == 0 || m_elementVariable[e] >= m_elementVariable[e - 1]);
    }
    for (std::size_t v = 0; v < variables; ++v)
        m_variableStart[v + 1] += m_variableStart[v];
    m_variableElements.clear();
    if (!inOrder) {
        // Counting sort; callers that expand variable by variable skip it entirely.
        m_variableElements.resize(elements);
        std::vector<std::uint32_t> fill(m_variableStart.begin(), m_variableStart.end() - 1);
        for (std::size_t e = 0; e < elements; ++e)
            m_variableElements[fill[m_elementVariable[e]]++] = static_cast<std::uint32_t>(e);
    }

    m_constraintStart.assign(constraints + 1, 0);
    for (const std::uint32_t c : m_elementConstraint)
        ++m_constraintStart[c + 1];
    for (std::size_t c = 0; c < constraints; ++c)
        m_constraintStart[c + 1] += m_constraintStart[c];
    // Fill back to front from each range's end, which leaves every start where it was.
    m_constraintVariables.resize(elements);
    for (std::size_t c = 0; c < constraints; ++c)
        m_constraintStart[c] = m_constraintStart[c + 1];
    for (std::size_t e = elements; e-- > 0;)
        m_constraintVariables[--m_constraintStart[m_elementConstraint[e]]] = m_elementVariable[e];
    m_indexedVersion = m_structureVersion;
}

void HeapFlowSolver::doSolve() {
    index();
    const auto variables = static_cast<std::uint32_t>(variableCount());
    m_heap.clear();
    m_bounds.clear();
    m_boundLevel.resize(variables);
    for (std::uint32_t v = 0; v < variables; ++v)
        m_boundLevel[v] = boundOf(v); // penalties are applied once single-flow constraints are in

    if (allUnitFlows()) {
        setUpUnitFlows();
        // Heap entries here are slot numbers; slots hold their constraint.
        const auto level = [&](std::uint32_t slot) {
            const UnitSlot& s = m_unitSlots[slot];
            return s.growing > 0 ? s.left / s.growing : kInfinite;
        };
        const auto constraintOf = [&](std::uint32_t slot) { return m_unitSlots[slot].constraint; };
        const auto freeze = [&](std::uint32_t v, double rate) {
            for (std::uint32_t i = m_variableStart[v]; i < m_variableStart[v + 1]; ++i) {
                // A constraint with one variable is its bound, never read again: skipping
                // it saves a cache miss on most of a permutation's elements.
                const std::uint32_t c = m_elementConstraint[elementAt(i)];
                if (!m_shared.test(c))
                    continue;
                UnitSlot& slot = m_unitSlots[m_compactSlots ? m_shared.rank(c) : c];
                slot.left = std::max(0.0, slot.left - rate);
                --slot.growing;
            }
        };
        fill(level, constraintOf, freeze, [](std::uint32_t) { return 1.0; });
    } else {
        setUpGeneral();
        const auto level = [&](std::uint32_t c) {
            const Slot& slot = m_slots[c];
            return slot.growing > 0 && slot.weight > 0 ? slot.left / slot.weight : kInfinite;
        };
        const auto freeze = [&](std::uint32_t v, double rate) {
            const double multiplicity = multiplicityOf(v);
            const double unitWeight = multiplicity / penaltyOf(v);
            for (std::uint32_t i = m_variableStart[v]; i < m_variableStart[v + 1]; ++i) {
                const std::uint32_t e = elementAt(i);
                Slot& slot = m_slots[m_elementConstraint[e]];
                const double consumption = consumptionOf(e);
                slot.left = std::max(0.0, slot.left - consumption * multiplicity * rate);
                slot.weight -= consumption * unitWeight;
                --slot.growing;
            }
        };
        fill(
            level, [](std::uint32_t c) { return c; }, freeze,
            [&](std::uint32_t v) { return penaltyOf(v); });
    }
    // Active variables that met neither a constraint nor a bound are unlimited.
    for (std::uint32_t v = 0; v < variables; ++v)
        if (!m_frozen[v])
            m_rate[v] = kUnbounded;
}

void HeapFlowSolver::setUpUnitFlows() {
    // Constraint by constraint, straight from the index: every variable is active, so a
    // constraint's growing count is the length of its list, and nothing is visited at
    // random.
    //
    // Only shared constraints (two elements or more) are ever read again. When they are
    // few (in a permutation, one constraint in eight) they get slots numbered by their
    // rank among the shared ones, which keeps the slots in the second-level cache; when
    // most are shared (an all-to-all) a slot per constraint spares computing ranks.
    const auto constraints = static_cast<std::uint32_t>(m_capacity.size());
    std::uint32_t shared = 0;
    for (std::uint32_t c = 0; c < constraints; ++c)
        shared += m_constraintStart[c + 1] - m_constraintStart[c] > 1 ? 1 : 0;
    m_compactSlots = shared < constraints / 2;
    m_unitSlots.resize(m_compactSlots ? shared : constraints);
    m_heap.reserve(shared);
    m_shared.reset(constraints);
    m_frozen.assign(variableCount(), 0);
    std::uint32_t slot = 0;
    for (std::uint32_t c = 0; c < constraints; ++c) {
        const std::uint32_t users = m_constraintStart[c + 1] - m_constraintStart[c];
        const double capacity = m_capacity[c];
        if (users == 1) {
            // Saturates exactly when its one variable reaches its capacity.
            double& bound = m_boundLevel[m_constraintVariables[m_constraintStart[c]]];
            bound = std::min(bound, capacity);
        } else if (users > 1) {
            const std::uint32_t at = m_compactSlots ? slot++ : c;
            m_unitSlots[at] = UnitSlot{capacity, users, c};
            m_heap.emplace_back(capacity / users, at);
            m_shared.set(c);
        }
    }
    m_shared.countRanks();
    m_bounds.reserve(m_boundLevel.size());
    for (std::uint32_t v = 0; v < m_boundLevel.size(); ++v)
        if (std::isfinite(m_boundLevel[v]))
            m_bounds.push_back(v);
}

void HeapFlowSolver::setUpGeneral() {
    const auto variables = static_cast<std::uint32_t>(variableCount());
    // New slots start with stamp 0, which no generation uses; old ones keep theirs.
    m_slots.resize(m_capacity.size());
    if (++m_generation == 0) { // wrapped: forget every stamp
        for (Slot& slot : m_slots)
            slot.stamp = 0;
        m_generation = 1;
    }
    // Initialise only what active variables use.
    m_frozen.assign(variables, 0);
    for (std::uint32_t v = 0; v < variables; ++v) {
        if (!m_active[v]) {
            m_frozen[v] = 1;
            continue;
        }
        const double unitWeight = multiplicityOf(v) / penaltyOf(v);
        for (std::uint32_t i = m_variableStart[v]; i < m_variableStart[v + 1]; ++i) {
            const std::uint32_t e = elementAt(i);
            const std::uint32_t c = m_elementConstraint[e];
            Slot& slot = m_slots[c];
            if (slot.stamp != m_generation) {
                slot = Slot{m_capacity[c], 0, 0, 0, m_generation, 0};
                m_heap.emplace_back(0.0, c);
            }
            const double consumption = consumptionOf(e);
            slot.weight += consumption * unitWeight;
            ++slot.growing;
            slot.lastVariable = v;
            slot.lastConsumption = consumption;
        }
    }
    // A constraint with a single active variable saturates exactly when that variable
    // reaches capacity / (consumption x multiplicity): fold it into the variable's bound.
    std::size_t shared = 0;
    for (std::size_t k = 0; k < m_heap.size(); ++k) {
        const std::uint32_t c = m_heap[k].second;
        const Slot& slot = m_slots[c];
        if (slot.growing == 1) {
            const std::uint32_t v = slot.lastVariable;
            m_boundLevel[v] = std::min(m_boundLevel[v],
                                       m_capacity[c] / (slot.lastConsumption * multiplicityOf(v)));
            continue;
        }
        m_heap[shared++] = {slot.weight > 0 ? slot.left / slot.weight : kInfinite, c};
    }
    m_heap.resize(shared);
    // Bounds as fair levels (b_v * p_v).
    m_bounds.reserve(variables);
    for (std::uint32_t v = 0; v < variables; ++v) {
        m_boundLevel[v] *= penaltyOf(v);
        if (!m_frozen[v] && std::isfinite(m_boundLevel[v]))
            m_bounds.push_back(v);
    }
}

template <typename Level, typename ConstraintOf, typename Freeze, typename Penalty>
void HeapFlowSolver::fill(const Level& level, const ConstraintOf& constraintOf,
                          const Freeze& freeze, const Penalty& penalty) {
    std::make_heap(m_heap.begin(), m_heap.end(), kLater);
    // Bounds are listed by variable; when they are all alike (every NIC the same speed,
    // as in most fabrics) that is already their order, and checking is cheaper than sorting.
    const auto lowerBound = [&](std::uint32_t a, std::uint32_t b) {
        return m_boundLevel[a] < m_boundLevel[b] || (m_boundLevel[a] == m_boundLevel[b] && a < b);
    };
    if (!std::is_sorted(m_bounds.begin(), m_bounds.end(), lowerBound))
        std::sort(m_bounds.begin(), m_bounds.end(), lowerBound);
    std::size_t nextBound = 0;

    const auto freezeAt = [&](std::uint32_t v, double fairLevel) {
        const double rate = fairLevel / penalty(v);
        m_frozen[v] = 1;
        m_rate[v] = rate;
        freeze(v, rate);
    };
    // The lowest current level: pop until the top's stored level is still its level.
    // Stored levels never exceed current ones (freezing only raises levels), so a top
    // that is up to date is the true minimum.
    const auto lowest = [&]() -> bool {
        while (!m_heap.empty()) {
            const auto [stored, c] = m_heap.front();
            const double current = level(c);
            if (current <= stored * (1 + 1e-12))
                return std::isfinite(current);
            std::pop_heap(m_heap.begin(), m_heap.end(), kLater);
            if (!std::isfinite(current)) { // nothing grows on it any more
                m_heap.pop_back();
                continue;
            }
            m_heap.back().first = current;
            std::push_heap(m_heap.begin(), m_heap.end(), kLater);
        }
        return false;
    };

    // A cancelled run stops within a few thousand saturations, a fraction of a millisecond.
    std::uint32_t untilPoll = kStopPollInterval;
    while (true) {
        if (--untilPoll == 0) {
            untilPoll = kStopPollInterval;
            model::throwIfStopped(m_stop);
        }
        while (nextBound < m_bounds.size() && m_frozen[m_bounds[nextBound]])
            ++nextBound;
        const bool haveConstraint = lowest();
        const bool haveBound = nextBound < m_bounds.size();
        if (!haveConstraint && !haveBound)
            break;
        if (haveBound && (!haveConstraint ||
                          m_boundLevel[m_bounds[nextBound]] <= level(m_heap.front().second))) {
            const std::uint32_t v = m_bounds[nextBound++];
            freezeAt(v, m_boundLevel[v]);
            continue;
        }
        // The constraint saturates at this level: everything still growing on it stops.
        const std::uint32_t entry = m_heap.front().second;
        const double saturation = level(entry);
        const std::uint32_t c = constraintOf(entry);
        std::pop_heap(m_heap.begin(), m_heap.end(), kLater);
        m_heap.pop_back();
        const std::uint32_t end = m_constraintStart[c + 1];
        for (std::uint32_t i = m_constraintStart[c]; i < end; ++i) {
            // The variables of a constraint sit far apart in memory: fetch ahead, so a
            // million-flow solve waits on memory less.
            if (i + kPrefetchRange < end)
                __builtin_prefetch(&m_variableStart[m_constraintVariables[i + kPrefetchRange]]);
            if (i + kPrefetchElements < end) {
                const std::uint32_t ahead = m_constraintVariables[i + kPrefetchElements];
                __builtin_prefetch(&m_frozen[ahead]);
                __builtin_prefetch(&m_elementConstraint[elementAt(m_variableStart[ahead])]);
            }
            const std::uint32_t v = m_constraintVariables[i];
            if (!m_frozen[v])
                freezeAt(v, saturation);
        }
    }
}

} // namespace fabriclab::sim
