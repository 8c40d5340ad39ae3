// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/core/TextFormat.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace fabriclab::model {

std::string grouped(double value) {
    const long long whole = std::llround(value);
    const std::string digits = std::to_string(whole < 0 ? -whole : whole);
    std::string text = whole < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            text += ',';
        text += digits[i];
    }
    return text;
}

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

// Strings are appended piece by piece below: GCC 12 at -O3 warns falsely (-Wrestrict) on
// "$" + std::string.
std::string usd(double value) {
    std::string text = std::llround(value) < 0 ? "-$" : "$";
    text += grouped(std::abs(value));
    return text;
}

std::string usdCents(double value) {
    const long long cents = std::llround(std::abs(value) * 100);
    std::string text = value < 0 && cents > 0 ? "-$" : "$";
    text += grouped(static_cast<double>(cents / 100));
    text += '.';
    text += std::to_string(100 + cents % 100).substr(1);
    return text;
}

std::string usdPerMillionTokens(double value) {
    std::string text = "$";
    return text.append(fixed(value, value < 1 ? 3 : 2));
}

} // namespace fabriclab::model
