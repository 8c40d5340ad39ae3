// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// A relative comparison whose failure message names the expression, both values and the
// tolerance, so a data row's failure says how far off it was. Each call states its own
// tolerance and, beside it, why.
#pragma once

#include <QString>

#include <algorithm>
#include <cmath>

namespace fabriclab::testing {

/// |actual - expected| <= relTol x |expected| (expected 0 compares against 1e-12).
inline bool within(double actual, double expected, double relTol) {
    return std::abs(actual - expected) <= relTol * std::max(1e-12, std::abs(expected));
}

} // namespace fabriclab::testing

#define COMPARE_WITHIN(actual, expected, tol)                                                      \
    QVERIFY2(::fabriclab::testing::within((actual), (expected), (tol)),                            \
             qPrintable(QStringLiteral("%1 = %2, expected %3 within %4")                           \
                            .arg(QLatin1String(#actual))                                           \
                            .arg((actual), 0, 'g', 12)                                             \
                            .arg((expected), 0, 'g', 12)                                           \
                            .arg(tol)))
