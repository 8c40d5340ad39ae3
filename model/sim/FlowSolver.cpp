// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/FlowSolver.hpp"

#include "model/sim/HeapFlowSolver.hpp"
#include "model/sim/ReferenceFlowSolver.hpp"

#include <stdexcept>
#include <string>

namespace fabriclab::sim {

void FlowSolver::reserve(std::size_t variables, std::size_t elements) {
    m_bound.reserve(variables);
    m_penalty.reserve(variables);
    m_multiplicity.reserve(variables);
    m_active.reserve(variables);
    m_rate.reserve(variables);
    m_elements.reserve(elements);
}

ConstraintId FlowSolver::addConstraint(double capacity) {
    if (!(capacity >= 0))
        throw std::invalid_argument("constraint capacity must be zero or more");
    m_capacity.push_back(capacity);
    ++m_structureVersion;
    m_dirty = true;
    return ConstraintId{static_cast<std::uint32_t>(m_capacity.size() - 1)};
}

VariableId FlowSolver::addVariable(double bound, double penalty, double multiplicity) {
    if (!(bound >= 0) || !(penalty > 0) || !(multiplicity > 0))
        throw std::invalid_argument(
            "a flow needs a bound >= 0, a penalty > 0 and a multiplicity > 0");
    m_bound.push_back(bound);
    m_penalty.push_back(penalty);
    m_multiplicity.push_back(multiplicity);
    m_active.push_back(1);
    m_rate.push_back(0);
    ++m_structureVersion;
    m_dirty = true;
    return VariableId{static_cast<std::uint32_t>(m_bound.size() - 1)};
}

void FlowSolver::expand(VariableId variable, ConstraintId constraint, double consumption) {
    if (variable.value >= m_bound.size() || constraint.value >= m_capacity.size())
        throw std::out_of_range("expand: unknown variable or constraint");
    if (!(consumption > 0))
        throw std::invalid_argument("expand: consumption must be positive");
    m_elements.push_back(Element{variable.value, constraint.value, consumption});
    ++m_structureVersion;
    m_dirty = true;
}

void FlowSolver::setActive(VariableId variable, bool active) {
    if (static_cast<bool>(m_active.at(variable.value)) != active) {
        m_active[variable.value] = active;
        m_dirty = true;
    }
}

void FlowSolver::setCapacity(ConstraintId constraint, double capacity) {
    if (!(capacity >= 0))
        throw std::invalid_argument("constraint capacity must be zero or more");
    m_capacity.at(constraint.value) = capacity;
    m_dirty = true;
}

void FlowSolver::setBound(VariableId variable, double bound) {
    if (!(bound >= 0))
        throw std::invalid_argument("a flow's bound must be zero or more");
    m_bound.at(variable.value) = bound;
    m_dirty = true;
}

void FlowSolver::solve() {
    if (!m_dirty)
        return;
    doSolve();
    for (std::size_t v = 0; v < m_rate.size(); ++v)
        if (!m_active[v])
            m_rate[v] = 0;
    m_dirty = false;
}

double FlowSolver::usage(ConstraintId constraint) const {
    double used = 0;
    for (const Element& e : m_elements)
        if (e.constraint == constraint.value)
            used += e.consumption * m_multiplicity[e.variable] * m_rate[e.variable];
    return used;
}

std::unique_ptr<FlowSolver> makeSolver(std::string_view name) {
    if (name == "heap")
        return std::make_unique<HeapFlowSolver>();
    if (name == "reference")
        return std::make_unique<ReferenceFlowSolver>();
    throw std::invalid_argument("unknown solver \"" + std::string(name) +
                                "\" (expected heap or reference)");
}

} // namespace fabriclab::sim
