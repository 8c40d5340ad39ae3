// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace fabriclab::views {

/// How the panels, tables and the status bar write numbers, so that "1,024 GPUs" in the
/// status bar and "1,024" in the inspector never disagree. All use the user's locale with
/// thousands grouped, even where the locale (C) would omit the separator.

/// Whole numbers grouped ("1,024"); others with up to `decimals` decimals, trailing zeros
/// dropped ("2.5").
QString numberText(double value, int decimals = 2);
/// A down:up ratio as people write it: "1:1", "1.5:1", "2.33:1".
QString ratioText(double ratio);
/// Whole US dollars, grouped: "$12,345,678".
QString usdText(double usd);
/// A rate in Gb/s as people read it: "800 Gb/s", "204.8 Tb/s" from 10 Tb/s up.
QString bandwidthText(double gbps);

} // namespace fabriclab::views
