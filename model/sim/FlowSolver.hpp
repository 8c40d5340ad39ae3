// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
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
    /// `bound` is the largest rate the variable may reach (kUnbounded for none).
    VariableId addVariable(double bound = kUnbounded, double penalty = 1.0,
                           double multiplicity = 1.0);
    /// Declares that the variable uses `consumption` of the constraint per unit of rate.
    void expand(VariableId variable, ConstraintId constraint, double consumption = 1.0);
    /// Takes a variable out of (or back into) the sharing, keeping its expansion.
    void setActive(VariableId variable, bool active);
    void setCapacity(ConstraintId constraint, double capacity);
    void setBound(VariableId variable, double bound);

    /// Computes every active variable's rate. Non-virtual: the shared bookkeeping lives
    /// here, the algorithm in doSolve().
    void solve();

    /// Rate of one of the variable's flows (0 for an inactive variable).
    double rate(VariableId variable) const { return m_rate[variable.value]; }
    /// Capacity in use on a constraint after the last solve.
    double usage(ConstraintId constraint) const;
    double capacity(ConstraintId constraint) const { return m_capacity[constraint.value]; }
    std::size_t variableCount() const { return m_bound.size(); }
    std::size_t constraintCount() const { return m_capacity.size(); }

protected:
    /// One (variable, constraint) pair. Kept flat, in expand() order, so a million flows
    /// cost one allocation rather than a million.
    struct Element {
        std::uint32_t variable;
        std::uint32_t constraint;
        double consumption;
    };

    std::vector<double> m_capacity;
    std::vector<double> m_bound;
    std::vector<double> m_penalty;
    std::vector<double> m_multiplicity;
    std::vector<char> m_active;
    std::vector<Element> m_elements;
    std::vector<double> m_rate;
    /// Changes whenever variables, constraints or elements are added, so solvers can keep
    /// derived indexes across solves that only toggle flows or change capacities.
    std::uint64_t m_structureVersion = 0;

private:
    virtual void doSolve() = 0;

    bool m_dirty = true;
};

/// "heap": progressive filling driven by a heap of constraint fair levels,
/// O((elements) log constraints). "reference": rescans every constraint each round,
/// O(rounds x elements); slow, obviously right, used to check the fast one.
std::unique_ptr<FlowSolver> makeSolver(std::string_view name = "heap");

} // namespace fabriclab::sim
