// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QLocale>
#include <QString>

#include <string_view>

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
/// FabricLab's unit for links and bisection.
QString bandwidthText(double gbps);
/// A rate and its spread in one unit, the value's: "42.8 ± 0.6 Tb/s", never
/// "42.8 Tb/s ± 639.9 Gb/s".
QString bandwidthSpreadText(double gbps, double spreadGbps);
/// A range of rates in one unit, the larger end's: "9.8 to 10.2 Tb/s".
QString bandwidthRangeText(double lowGbps, double highGbps);
/// Bus or algorithm bandwidth as nccl-tests prints it, in GB/s (bytes): "389.2 GB/s".
QString busBandwidthText(double gBps);
/// A range of bus bandwidths: "47.5 to 94 GB/s".
QString busBandwidthRangeText(double lowGBps, double highGBps);
/// A duration: "850 ns", "12.4 µs", "3.2 ms", "1.25 s", "2.1 h".
QString durationText(double seconds);
/// A message size in binary units, as nccl-tests sizes are: "8 B", "64 KiB", "8 GiB".
QString bytesText(double bytes);
/// The engine's names (toString of its enums) as text.
inline QString engineText(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}
/// A share: "12%" (or "0.4%" below one percent).
QString percentText(double fraction);
/// A difference as a signed share with one decimal: "+1.2%", "−0.8%", and "0%" for anything
/// that rounds to nothing (never "−0.0%").
QString signedPercentText(double fraction);

/// The locale the functions above write in (the user's, thousands always grouped), for
/// what formats numbers itself: chart axes.
QLocale numberLocale();

/// How a chart axis shows a range of values: divide by `divisor`, label with `unit`.
struct AxisUnit {
    double divisor = 1;
    QString unit;
};
/// Gb/s or Tb/s for an axis whose largest value is `maxGbps`, matching bandwidthText.
AxisUnit bandwidthAxis(double maxGbps);
/// ns, µs, ms or s for an axis whose largest value is `maxSeconds`.
AxisUnit durationAxis(double maxSeconds);

} // namespace fabriclab::views
