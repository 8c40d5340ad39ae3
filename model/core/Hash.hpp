// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace fabriclab::model {

/// splitmix64's finaliser: a cheap, well-mixed 64-bit hash. ECMP choices use it to look
/// random but repeat; the effective bisection uses it to fingerprint solver rows.
constexpr std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace fabriclab::model
