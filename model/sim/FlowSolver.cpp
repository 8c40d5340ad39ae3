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
    m_elementVariable.reserve(elements);
    m_elementConstraint.reserve(elements);
    m_elementConsumption.reserve(elements);
}

ConstraintId FlowSolver::addConstraint(double capacity) {
    return addConstraints({&capacity, 1});
}

ConstraintId FlowSolver::addConstraints(std::span<const double> capacities) {
    for (const double capacity : capacities)
        if (!(capacity >= 0))
            throw std::invalid_argument("constraint capacity must be zero or more");
    const auto first = static_cast<std::uint32_t>(m_capacity.size());
    m_capacity.insert(m_capacity.end(), capacities.begin(), capacities.end());
    ++m_structureVersion;
    m_dirty = true;
    return ConstraintId{first};
}

void FlowSolver::refuseVariable() {
    throw std::invalid_argument("a flow needs a bound >= 0, a penalty > 0 and a multiplicity > 0");
}

void FlowSolver::refuseExpand(VariableId variable, ConstraintId constraint) const {
    if (variable.value >= m_bound.size() || constraint.value >= m_capacity.size())
        throw std::out_of_range("expand: unknown variable or constraint");
    throw std::invalid_argument("expand: consumption must be positive");
}

void FlowSolver::setActive(VariableId variable, bool active) {
    if (static_cast<bool>(m_active.at(variable.value)) != active) {
        m_active[variable.value] = active;
        if (active)
            --m_inactiveCount;
        else
            ++m_inactiveCount;
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
    for (std::size_t i = 0; i < elementCount(); ++i)
        if (m_elementConstraint[i] == constraint.value) {
            const std::uint32_t v = m_elementVariable[i];
            used += m_elementConsumption[i] * m_multiplicity[v] * m_rate[v];
        }
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
