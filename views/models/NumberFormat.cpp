// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/NumberFormat.hpp"

#include <QLocale>

#include <cmath>

namespace fabriclab::views {
namespace {

QLocale groupedLocale() {
    // The C locale omits group separators by default; a figure like 16384 GPUs reads
    // better as 16,384 whatever locale the session runs under.
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

} // namespace

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
    if (std::abs(gbps) >= 10000)
        return numberText(gbps / 1000, 1) + QStringLiteral(" Tb/s");
    return numberText(gbps, 1) + QStringLiteral(" Gb/s");
}

} // namespace fabriclab::views
