// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/LargeVector.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <stop_token>
#include <string_view>
#include <vector>

namespace fabriclab::sim {

/// A shared resource: one direction of one cable (or of a bundle treated as one).
struct ConstraintId {
    std::uint32_t value{};
};
/// A flow, or a class of `multiplicity` identical flows solved as one.
struct VariableId {
    std::uint32_t value{};
};

inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

/// Weighted max-min fair sharing of constraint capacities among variables.
///
/// Variable v has a sharing penalty p_v, a rate bound b_v (its NIC's line rate) and a
/// multiplicity m_v; it consumes a_vc of constraint c per unit of rate. The solution is
/// the max-min fair one: every variable is limited either by its bound or by a saturated
/// constraint on which no other variable has a larger penalty-weighted rate:
///
///     sum_v m_v * a_vc * x_v <= C_c  for every constraint c
///     x_v = min(b_v, lambda_v / p_v), with lambda_v the fair level where v first meets
///     a saturated constraint (progressive filling).
///
/// Examples: two flows on one 100G link with penalties 1 and 2 get 66.7G and 33.3G; a
/// flow sprayed over two paths consumes a = 1/2 on each.
///
/// A solver is an object, not a global: any number can coexist, each used from one thread
/// at a time. solve() does nothing when nothing changed since the last call.
class FlowSolver {
public:
    virtual ~FlowSolver() = default;

    /// Room for this many variables and (variable, constraint) elements, to load a
    /// million flows without regrowing.
    void reserve(std::size_t variables, std::size_t elements);
    ConstraintId addConstraint(double capacity);
    /// Adds one constraint per capacity; returns the first id, the others follow it.
    ConstraintId addConstraints(std::span<const double> capacities);
    /// `bound` is the largest rate the variable may reach (kUnbounded for none).
    VariableId addVariable(double bound = kUnbounded, double penalty = 1.0,
                           double multiplicity = 1.0);
    /// Declares that the variable uses `consumption` of the constraint per unit of rate.
    void expand(VariableId variable, ConstraintId constraint, double consumption = 1.0);
    /// Adds one plain flow per path in one go (unbounded, penalty 1, multiplicity 1, each
    /// constraint used once per unit of rate), as addVariable() and expand() per element
    /// would, but without the per-element calls: flow f uses
    /// constraints[offsets[f] - offsets[0], offsets[f + 1] - offsets[0]). Returns the first
    /// flow's id; the others follow it. Throws, adding nothing, on an unknown constraint
    /// or offsets that go backwards.
    VariableId addPaths(std::span<const std::uint32_t> offsets,
                        std::span<const std::uint32_t> constraints);
    /// Takes a variable out of (or back into) the sharing, keeping its expansion.
    void setActive(VariableId variable, bool active);
    void setCapacity(ConstraintId constraint, double capacity);
    void setBound(VariableId variable, double bound);

    /// Computes every active variable's rate. Non-virtual: the shared bookkeeping lives
    /// here, the algorithm in doSolve().
    void solve();
    /// Later solves poll `stop` every few thousand saturations and throw
    /// model::Cancelled once it is requested, so a million-flow solve can be abandoned.
    void setStopToken(std::stop_token stop) { m_stop = std::move(stop); }

    /// Rate of one of the variable's flows (0 for an inactive variable).
    double rate(VariableId variable) const { return m_rate[variable.value]; }
    /// Capacity in use on a constraint after the last solve.
    double usage(ConstraintId constraint) const;
    /// Capacity in use on every constraint after the last solve, in one pass over the
    /// elements (usage() per constraint passes over all of them each time).
    void usages(std::vector<double>& used) const;
    double capacity(ConstraintId constraint) const { return m_capacity[constraint.value]; }
    std::size_t variableCount() const { return m_active.size(); }
    std::size_t constraintCount() const { return m_capacity.size(); }

protected:
    /// One (variable, constraint) pair, as read back by solvers that want it whole.
    struct Element {
        std::uint32_t variable;
        std::uint32_t constraint;
        double consumption;
    };
    std::size_t elementCount() const { return m_elementConstraint.size(); }
    Element element(std::size_t i) const {
        return {m_elementVariable[i], m_elementConstraint[i], consumptionOf(i)};
    }
    double boundOf(std::uint32_t variable) const {
        return m_boundsStored ? m_bound[variable] : kUnbounded;
    }
    double penaltyOf(std::uint32_t variable) const {
        return m_weightsStored ? m_penalty[variable] : 1.0;
    }
    double multiplicityOf(std::uint32_t variable) const {
        return m_weightsStored ? m_multiplicity[variable] : 1.0;
    }
    double consumptionOf(std::size_t element) const {
        return m_consumptionsStored ? m_elementConsumption[element] : 1.0;
    }
    /// Every variable active, with penalty 1 and multiplicity 1, and every consumption
    /// 1: plain flows on single paths, which a solver may share out with less arithmetic
    /// and less memory traffic.
    bool allUnitFlows() const {
        return m_inactiveCount == 0 && !m_weightsStored && !m_consumptionsStored;
    }

    model::LargeVector<double> m_capacity;
    model::LargeVector<char> m_active; ///< one per variable: its size is the variable count
    model::LargeVector<double> m_rate;
    // Kept empty until a variable or element differs from the default (no bound, penalty
    // and multiplicity 1, consumption 1): plain flows cost 13 bytes a flow and 8 an
    // element, which for a million flows is tens of megabytes of memory not touched.
    // Read them through boundOf(), penaltyOf(), multiplicityOf() and consumptionOf().
    model::LargeVector<double> m_bound;
    model::LargeVector<double> m_penalty;
    model::LargeVector<double> m_multiplicity;
    bool m_boundsStored = false;
    bool m_weightsStored = false;
    bool m_consumptionsStored = false;
    // Elements in expand() order, one array per field: the hot loops of a solve read
    // only the constraints of a variable, so they touch 4 bytes an element, not 16.
    model::LargeVector<std::uint32_t> m_elementVariable;
    model::LargeVector<std::uint32_t> m_elementConstraint;
    model::LargeVector<double> m_elementConsumption;
    /// Changes whenever variables, constraints or elements are added, so solvers can keep
    /// derived indexes across solves that only toggle flows or change capacities.
    std::uint64_t m_structureVersion = 0;
    std::stop_token m_stop;

private:
    virtual void doSolve() = 0;

    [[noreturn]] static void refuseVariable();
    void storeBounds();
    void storeWeights();
    void storeConsumptions();
    [[noreturn]] void refuseExpand(VariableId variable, ConstraintId constraint) const;

    bool m_dirty = true;
    std::size_t m_inactiveCount = 0; ///< variables switched off
};

// addVariable() and expand() run once per flow and per hop when a million flows are
// loaded: inline, with the refusals out of line.
inline VariableId FlowSolver::addVariable(double bound, double penalty, double multiplicity) {
    if (!(bound >= 0) || !(penalty > 0) || !(multiplicity > 0))
        refuseVariable();
    if (bound != kUnbounded && !m_boundsStored)
        storeBounds();
    if ((penalty != 1.0 || multiplicity != 1.0) && !m_weightsStored)
        storeWeights();
    if (m_boundsStored)
        m_bound.push_back(bound);
    if (m_weightsStored) {
        m_penalty.push_back(penalty);
        m_multiplicity.push_back(multiplicity);
    }
    m_active.push_back(1);
    m_rate.push_back(0);
    ++m_structureVersion;
    m_dirty = true;
    return VariableId{static_cast<std::uint32_t>(m_active.size() - 1)};
}

inline void FlowSolver::expand(VariableId variable, ConstraintId constraint, double consumption) {
    if (variable.value >= m_active.size() || constraint.value >= m_capacity.size() ||
        !(consumption > 0))
        refuseExpand(variable, constraint);
    if (consumption != 1.0 && !m_consumptionsStored)
        storeConsumptions();
    if (m_consumptionsStored)
        m_elementConsumption.push_back(consumption);
    m_elementVariable.push_back(variable.value);
    m_elementConstraint.push_back(constraint.value);
    ++m_structureVersion;
    m_dirty = true;
}

/// "heap": progressive filling driven by a heap of constraint fair levels,
/// O((elements) log constraints). "reference": rescans every constraint each round,
/// O(rounds x elements); slow, obviously right, used to check the fast one.
std::unique_ptr<FlowSolver> makeSolver(std::string_view name = "heap");

} // namespace fabriclab::sim
