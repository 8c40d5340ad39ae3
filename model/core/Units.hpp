// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <compare>

namespace fabriclab::model {

/// A number with a unit in its type, so that Gb/s never gets added to dollars.
/// The value is read explicitly through `value`; arithmetic keeps the unit.
template <class Tag> struct Quantity {
    double value{};

    constexpr Quantity() = default;
    constexpr explicit Quantity(double v) : value(v) {}

    friend constexpr auto operator<=>(Quantity, Quantity) = default;
    constexpr Quantity& operator+=(Quantity o) {
        value += o.value;
        return *this;
    }
    friend constexpr Quantity operator+(Quantity a, Quantity b) {
        return Quantity(a.value + b.value);
    }
    friend constexpr Quantity operator-(Quantity a, Quantity b) {
        return Quantity(a.value - b.value);
    }
    friend constexpr Quantity operator*(Quantity a, double k) { return Quantity(a.value * k); }
    friend constexpr Quantity operator*(double k, Quantity a) { return Quantity(a.value * k); }
    friend constexpr Quantity operator/(Quantity a, double k) { return Quantity(a.value / k); }
    friend constexpr double operator/(Quantity a, Quantity b) { return a.value / b.value; }
};

using Gbps = Quantity<struct GbpsTag>;       ///< gigabits per second, one direction
using Usd = Quantity<struct UsdTag>;         ///< US dollars
using Watts = Quantity<struct WattsTag>;     ///< electrical power
using Seconds = Quantity<struct SecondsTag>; ///< simulated or wall time

} // namespace fabriclab::model
