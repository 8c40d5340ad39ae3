// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/FlowSolver.hpp"

#include "model/sim/HeapFlowSolver.hpp"
#include "model/sim/ReferenceFlowSolver.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fabriclab::sim {

void FlowSolver::reserve(std::size_t variables, std::size_t elements) {
    // The optional arrays are left alone: most loads never need them.
    m_active.reserve(variables);
    m_rate.reserve(variables);
    m_elementVariable.reserve(elements);
    m_elementConstraint.reserve(elements);
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

VariableId FlowSolver::addPaths(std::span<const std::uint32_t> offsets,
                                std::span<const std::uint32_t> constraints) {
    const auto first = static_cast<std::uint32_t>(variableCount());
    if (offsets.size() < 2)
        return VariableId{first};
    const std::size_t flows = offsets.size() - 1;
    for (std::size_t f = 0; f < flows; ++f)
        if (offsets[f + 1] < offsets[f])
            throw std::invalid_argument("addPaths: offsets go backwards at flow " +
                                        std::to_string(f));
    if (offsets.back() - offsets.front() != constraints.size())
        throw std::invalid_argument("addPaths: the offsets do not span the constraints given");
    std::uint32_t largest = 0;
    for (const std::uint32_t c : constraints)
        largest = std::max(largest, c);
    if (!constraints.empty() && largest >= m_capacity.size())
        throw std::out_of_range("addPaths: unknown constraint " + std::to_string(largest));

    if (m_boundsStored)
        m_bound.resize(m_bound.size() + flows, kUnbounded);
    if (m_weightsStored) {
        m_penalty.resize(m_penalty.size() + flows, 1.0);
        m_multiplicity.resize(m_multiplicity.size() + flows, 1.0);
    }
    m_active.resize(m_active.size() + flows, 1);
    m_rate.resize(m_rate.size() + flows, 0.0);
    if (m_consumptionsStored)
        m_elementConsumption.resize(m_elementConsumption.size() + constraints.size(), 1.0);
    m_elementConstraint.insert(m_elementConstraint.end(), constraints.begin(), constraints.end());
    m_elementVariable.reserve(m_elementVariable.size() + constraints.size());
    for (std::size_t f = 0; f < flows; ++f)
        m_elementVariable.insert(m_elementVariable.end(), offsets[f + 1] - offsets[f],
                                 first + static_cast<std::uint32_t>(f));
    ++m_structureVersion;
    m_dirty = true;
    return VariableId{first};
}

void FlowSolver::storeBounds() {
    m_bound.assign(variableCount(), kUnbounded);
    m_boundsStored = true;
}

void FlowSolver::storeWeights() {
    m_penalty.assign(variableCount(), 1.0);
    m_multiplicity.assign(variableCount(), 1.0);
    m_weightsStored = true;
}

void FlowSolver::storeConsumptions() {
    m_elementConsumption.assign(elementCount(), 1.0);
    m_consumptionsStored = true;
}

void FlowSolver::refuseVariable() {
    throw std::invalid_argument("a flow needs a bound >= 0, a penalty > 0 and a multiplicity > 0");
}

void FlowSolver::refuseExpand(VariableId variable, ConstraintId constraint) const {
    if (variable.value >= variableCount() || constraint.value >= m_capacity.size())
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
    if (variable.value >= variableCount())
        throw std::out_of_range("setBound: unknown variable");
    if (bound != kUnbounded && !m_boundsStored)
        storeBounds();
    if (m_boundsStored)
        m_bound[variable.value] = bound;
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
            used += consumptionOf(i) * multiplicityOf(v) * m_rate[v];
        }
    return used;
}

void FlowSolver::usages(std::vector<double>& used) const {
    used.assign(m_capacity.size(), 0.0);
    for (std::size_t i = 0; i < elementCount(); ++i) {
        const std::uint32_t v = m_elementVariable[i];
        if (m_rate[v] > 0)
            used[m_elementConstraint[i]] += consumptionOf(i) * multiplicityOf(v) * m_rate[v];
    }
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
