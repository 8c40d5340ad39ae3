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
using GBps = Quantity<struct GBpsTag>;       ///< gigabytes per second: NVLink, algbw, busbw
using Bytes = Quantity<struct BytesTag>;     ///< message and buffer sizes

// The conversions between them, each written once. The arithmetic keeps the order the
// engine has always used (a product, then the power of ten), so figures come out
// bit for bit as before.
inline constexpr double kBitsPerByte = 8;

/// Bytes per second a link of this rate carries.
constexpr double bytesPerSecond(Gbps rate) {
    return rate.value * 1e9 / kBitsPerByte;
}
constexpr double bytesPerSecond(GBps rate) {
    return rate.value * 1e9;
}
constexpr GBps toGBps(Gbps rate) {
    return GBps(rate.value / kBitsPerByte);
}
/// The rate at which `size` moves in `time`.
constexpr GBps rateOf(Bytes size, Seconds time) {
    return GBps(size.value / time.value / 1e9);
}
constexpr Seconds nanoseconds(double ns) {
    return Seconds(ns * 1e-9);
}
constexpr Seconds microseconds(double us) {
    return Seconds(us * 1e-6);
}
constexpr double inMicroseconds(Seconds time) {
    return time.value * 1e6;
}

} // namespace fabriclab::model
