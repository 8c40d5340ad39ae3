// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fabriclab::model {

/// splitmix64's finaliser: a cheap, well-mixed 64-bit hash. ECMP choices use it to look
/// random but repeat; the effective bisection uses it to fingerprint solver rows.
constexpr std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// FNV-1a over bytes: a stable 64-bit fingerprint of a text (not a secure one), the same on
/// every platform and in every version, so outputs can name the design they came from.
constexpr std::uint64_t fnv1a64(std::string_view bytes) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

/// fnv1a64 as outputs print it: "fnv1a64:" and 16 lower-case hex digits.
inline std::string contentHash(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text = "fnv1a64:";
    const std::uint64_t hash = fnv1a64(bytes);
    for (int shift = 60; shift >= 0; shift -= 4)
        text += kDigits[(hash >> shift) & 0xf];
    return text;
}

} // namespace fabriclab::model
