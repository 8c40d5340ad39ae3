// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/NumberFormat.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace fabriclab::views {
namespace {

QLocale groupedLocale() {
    return numberLocale();
}

} // namespace

QLocale numberLocale() {
    // The C locale omits group separators by default; a figure like 16384 GPUs reads
    // better as 16,384 whatever locale the session runs under.
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

QString numberText(double value, int decimals) {
    const QLocale locale = groupedLocale();
    const double rounded = std::round(value);
    if (std::abs(value - rounded) < 1e-9 && std::abs(rounded) < 1e15)
        return locale.toString(static_cast<qlonglong>(rounded));
    QString text = locale.toString(value, 'f', decimals);
    // "2.50" -> "2.5": the decimals are a ceiling, not a fixed width.
    const QString point = locale.decimalPoint();
    if (text.contains(point)) {
        while (text.endsWith(locale.zeroDigit()))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(point.size());
    }
    return text;
}

QString ratioText(double ratio) {
    return numberText(ratio) + QStringLiteral(":1");
}

QString usdText(double usd) {
    return QStringLiteral("$") +
           groupedLocale().toString(static_cast<qlonglong>(std::llround(usd)));
}

QString bandwidthText(double gbps) {
    const AxisUnit unit = bandwidthAxis(gbps);
    return numberText(gbps / unit.divisor, 1) + QLatin1Char(' ') + unit.unit;
}

QString bandwidthSpreadText(double gbps, double spreadGbps) {
    const AxisUnit unit = bandwidthAxis(gbps);
    return QStringLiteral("%1 ± %2 %3")
        .arg(numberText(gbps / unit.divisor, 1), numberText(spreadGbps / unit.divisor, 1),
             unit.unit);
}

QString bandwidthRangeText(double lowGbps, double highGbps) {
    const AxisUnit unit = bandwidthAxis(std::max(std::abs(lowGbps), std::abs(highGbps)));
    return QObject::tr("%1 to %2 %3")
        .arg(numberText(lowGbps / unit.divisor, 1), numberText(highGbps / unit.divisor, 1),
             unit.unit);
}

QString busBandwidthText(double gBps) {
    return numberText(gBps, 1) + QStringLiteral(" GB/s");
}

QString busBandwidthRangeText(double lowGBps, double highGBps) {
    return QObject::tr("%1 to %2 GB/s").arg(numberText(lowGBps, 1), numberText(highGBps, 1));
}

AxisUnit durationAxis(double maxSeconds) {
    const double s = std::abs(maxSeconds);
    if (s < 1e-6)
        return {1e-9, QStringLiteral("ns")};
    if (s < 1e-3)
        return {1e-6, QStringLiteral("µs")};
    if (s < 1)
        return {1e-3, QStringLiteral("ms")};
    return {1, QStringLiteral("s")};
}

AxisUnit bandwidthAxis(double maxGbps) {
    return std::abs(maxGbps) >= 10000 ? AxisUnit{1000, QStringLiteral("Tb/s")}
                                      : AxisUnit{1, QStringLiteral("Gb/s")};
}

QString durationText(double seconds) {
    if (std::abs(seconds) >= 3600)
        return numberText(seconds / 3600, 1) + QStringLiteral(" h");
    const AxisUnit unit = durationAxis(seconds);
    const double value = seconds / unit.divisor;
    return numberText(value, std::abs(value) < 10 ? 2 : 1) + QLatin1Char(' ') + unit.unit;
}

QString bytesText(double bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (std::abs(bytes) >= 1024 && unit < 4) {
        bytes /= 1024;
        ++unit;
    }
    return numberText(bytes, 1) + QLatin1Char(' ') + QString::fromLatin1(units[unit]);
}

QString percentText(double fraction) {
    const double percent = 100 * fraction;
    return numberText(percent, std::abs(percent) < 1 ? 1 : 0) + QLatin1Char('%');
}

QString signedPercentText(double fraction) {
    const double percent = 100 * fraction;
    if (std::abs(percent) < 0.05)
        return QStringLiteral("0%");
    return (percent > 0 ? QStringLiteral("+") : QStringLiteral("−")) +
           numberText(std::abs(percent), 1) + QLatin1Char('%');
}

} // namespace fabriclab::views
