// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/FlowSolver.hpp"

#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace fabriclab::sim {

/// Progressive filling driven by a min-heap of constraint fair levels R_c / W_c, where
/// R_c is the capacity left and W_c the penalty-weighted consumption of the variables
/// still growing. Freezing a variable only raises the levels of its constraints, so the
/// heap is updated lazily: a popped entry whose level has risen since it was pushed goes
/// back in with its new level, and most constraints (those whose flows all freeze
/// elsewhere first) are never touched again. A solve costs O(elements + pops x log
/// constraints). A constraint only one variable uses is just a bound on that variable
/// and never enters the heap: in a permutation most cables are.
///
/// Two ways in, one filling. Plain flows (FlowSolver::allUnitFlows(), as every first
/// solve of a static-ECMP simulation is) are set up constraint by constraint from the
/// index, with 16-byte slots whose level is capacity left / flows growing. Anything else
/// (penalties, multiplicities, fractions, flows switched off) is set up variable by
/// variable and visits only the constraints active variables use, so toggling a few
/// flows between solves stays cheap. Both give bit-identical rates on plain flows.
class HeapFlowSolver final : public FlowSolver {
private:
    void doSolve() override;
    /// Rebuilds the by-variable and by-constraint indexes after structural changes.
    void index();
    void setUpUnitFlows();
    void setUpGeneral();
    /// Freezes variables in order of their fair levels until none grows. Heap entries
    /// name a constraint's record: `level(entry)` is its current fair level and
    /// `constraintOf(entry)` the constraint; `freeze(v, rate)` hands a frozen variable's
    /// share back to its constraints; `penalty(v)` is its sharing penalty.
    template <typename Level, typename ConstraintOf, typename Freeze, typename Penalty>
    void fill(const Level& level, const ConstraintOf& constraintOf, const Freeze& freeze,
              const Penalty& penalty);

    std::uint32_t elementAt(std::uint32_t i) const {
        return m_variableElements.empty() ? i : m_variableElements[i];
    }

    // Indexes, kept across solves while the structure is unchanged.
    model::LargeVector<std::uint32_t> m_variableStart; ///< element range of each variable
    model::LargeVector<std::uint32_t>
        m_variableElements; ///< empty when elements are in variable order
    model::LargeVector<std::uint32_t> m_constraintStart;
    model::LargeVector<std::uint32_t> m_constraintVariables;
    std::uint64_t m_indexedVersion = ~std::uint64_t{0};

    /// Per-constraint scratch in one record, so touching a constraint is one cache line.
    struct Slot {
        double left = 0;            ///< capacity not yet given to frozen variables
        double weight = 0;          ///< sum of consumption x multiplicity / penalty, growing ones
        double lastConsumption = 0; ///< of `lastVariable` on this constraint
        std::uint32_t growing = 0;  ///< elements of active variables not yet frozen
        std::uint32_t stamp = 0;    ///< generation that initialised this slot
        std::uint32_t lastVariable = 0;
    };
    /// The same for plain flows, where the weight is the count: four to a cache line.
    struct UnitSlot {
        double left = 0;
        std::uint32_t growing = 0;
        std::uint32_t constraint = 0;
    };
    /// One bit per constraint, with the count of bits set before each word: a few
    /// kilobytes that stay in the first-level cache, and give a set bit's rank.
    class RankedBits {
    public:
        void reset(std::size_t size) {
            m_words.assign((size + 63) / 64, 0);
            m_before.assign(m_words.size(), 0);
        }
        void set(std::uint32_t i) { m_words[i >> 6] |= std::uint64_t{1} << (i & 63); }
        bool test(std::uint32_t i) const { return (m_words[i >> 6] >> (i & 63)) & 1; }
        /// Call once every bit is set, before rank().
        void countRanks() {
            std::uint32_t count = 0;
            for (std::size_t w = 0; w < m_words.size(); ++w) {
                m_before[w] = count;
                count += static_cast<std::uint32_t>(std::popcount(m_words[w]));
            }
        }
        /// How many bits are set below i.
        std::uint32_t rank(std::uint32_t i) const {
            const std::uint64_t below = (std::uint64_t{1} << (i & 63)) - 1;
            return m_before[i >> 6] +
                   static_cast<std::uint32_t>(std::popcount(m_words[i >> 6] & below));
        }

    private:
        std::vector<std::uint64_t> m_words;
        std::vector<std::uint32_t> m_before;
    };
    // Sized once; `stamp` marks what a general solve has initialised, so unused
    // constraints cost nothing.
    model::LargeVector<Slot> m_slots;
    model::LargeVector<UnitSlot> m_unitSlots;
    RankedBits m_shared;         ///< plain flows: constraints with two elements or more
    bool m_compactSlots = false; ///< slot of constraint c: its rank in m_shared, else c
    model::LargeVector<std::pair<double, std::uint32_t>>
        m_heap; ///< (level when pushed, constraint)
    /// Per variable, the fair level at which it stops on its own: bound x penalty, with
    /// the bound tightened by the constraints only it uses.
    model::LargeVector<double> m_boundLevel;
    model::LargeVector<std::uint32_t>
        m_bounds; ///< variables with a finite bound level, lowest first
    model::LargeVector<char> m_frozen;
    std::uint32_t m_generation = 0;
};

} // namespace fabriclab::sim
