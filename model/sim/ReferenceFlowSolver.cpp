// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/ReferenceFlowSolver.hpp"

#include <algorithm>
#include <cmath>

namespace fabriclab::sim {

void ReferenceFlowSolver::doSolve() {
    const std::size_t variables = variableCount();
    const std::size_t constraints = m_capacity.size();
    std::vector<char> frozen(variables, 0);
    for (std::size_t v = 0; v < variables; ++v)
        frozen[v] = !m_active[v];
    std::vector<double> used(constraints, 0.0);

    while (true) {
        // Fair level of every constraint with growing variables, from scratch.
        std::vector<double> weight(constraints, 0.0);
        for (std::size_t i = 0; i < elementCount(); ++i)
            if (const Element e = element(i); !frozen[e.variable])
                weight[e.constraint] +=
                    e.consumption * multiplicityOf(e.variable) / penaltyOf(e.variable);
        double level = kUnbounded;
        for (std::size_t c = 0; c < constraints; ++c)
            if (weight[c] > 0)
                level = std::min(level, std::max(0.0, m_capacity[c] - used[c]) / weight[c]);
        for (std::size_t v = 0; v < variables; ++v)
            if (!frozen[v])
                level = std::min(level, boundOf(v) * penaltyOf(v));
        if (!std::isfinite(level))
            break;

        // Freeze what this level limits: variables at their bound and those on any
        // constraint whose level equals it (within rounding).
        std::vector<char> saturated(constraints, 0);
        for (std::size_t c = 0; c < constraints; ++c)
            if (weight[c] > 0 &&
                std::max(0.0, m_capacity[c] - used[c]) / weight[c] <= level * (1 + 1e-12))
                saturated[c] = 1;
        std::vector<char> freezeNow(variables, 0);
        for (std::size_t v = 0; v < variables; ++v)
            if (!frozen[v] && boundOf(v) * penaltyOf(v) <= level * (1 + 1e-12))
                freezeNow[v] = 1;
        for (std::size_t i = 0; i < elementCount(); ++i)
            if (const Element e = element(i); !frozen[e.variable] && saturated[e.constraint])
                freezeNow[e.variable] = 1;
        bool any = false;
        for (std::size_t v = 0; v < variables; ++v) {
            if (!freezeNow[v])
                continue;
            any = true;
            frozen[v] = 1;
            m_rate[v] = std::min(boundOf(v), level / penaltyOf(v));
        }
        for (std::size_t i = 0; i < elementCount(); ++i)
            if (const Element e = element(i); freezeNow[e.variable])
                used[e.constraint] +=
                    e.consumption * multiplicityOf(e.variable) * m_rate[e.variable];
        if (!any)
            break;
    }
    for (std::size_t v = 0; v < variables; ++v)
        if (!frozen[v])
            m_rate[v] = kUnbounded;
}

} // namespace fabriclab::sim
