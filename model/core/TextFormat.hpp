// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace fabriclab::model {

// How the engine writes numbers into sentences (verdicts, study notes, the CLI's text
// report), so "$1,234,567" reads the same wherever the engine says it.

/// Rounded to whole and grouped by thousands: 1234567.4 -> "1,234,567".
std::string grouped(double value);
/// Fixed decimals: fixed(2.345, 1) -> "2.3".
std::string fixed(double value, int decimals);
/// Whole dollars, grouped: "$1,234,567"; a loss reads "-$1,234".
std::string usd(double value);
/// Dollars and cents, rounded to the cent first: 2.999 -> "$3.00".
std::string usdCents(double value);
/// A price per million tokens: three decimals under a dollar, where cents would show two
/// fabrics 1% apart as equal ("$0.589"), two above ("$3.65").
std::string usdPerMillionTokens(double value);

} // namespace fabriclab::model
