// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/CanvasPalette.hpp"

#include <algorithm>

#include <array>
#include <cmath>

namespace fabriclab::views {
namespace {

// Hues in degrees. Tiers are far apart from each other; rails use a qualitative set
// (after ColorBrewer "Set1"/"Dark2") so that neighbouring rails never look alike.
constexpr int kLeafHue = 170;
constexpr int kSpineHue = 215;
constexpr int kCoreHue = 280;
constexpr std::array<int, 8> kRailHues{205, 25, 120, 350, 270, 45, 180, 320};

QColor accent(int hue, const QPalette& palette) {
    // Dark themes need lighter accents to keep contrast against a dark base.
    return CanvasPalette::isDark(palette) ? QColor::fromHsl(hue, 150, 165)
                                          : QColor::fromHsl(hue, 170, 95);
}

} // namespace

bool CanvasPalette::isDark(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < palette.color(QPalette::Text).lightness();
}

QColor CanvasPalette::mix(const QColor& a, const QColor& b, double t) {
    const auto blend = [t](double x, double y) { return x + (y - x) * t; };
    return QColor::fromRgbF(static_cast<float>(blend(a.redF(), b.redF())),
                            static_cast<float>(blend(a.greenF(), b.greenF())),
                            static_cast<float>(blend(a.blueF(), b.blueF())),
                            static_cast<float>(blend(a.alphaF(), b.alphaF())));
}

QColor CanvasPalette::tierColor(model::NodeKind kind, const QPalette& palette) {
    switch (kind) {
    case model::NodeKind::Leaf:
        return accent(kLeafHue, palette);
    case model::NodeKind::Spine:
        return accent(kSpineHue, palette);
    case model::NodeKind::Core:
        return accent(kCoreHue, palette);
    case model::NodeKind::Server:
        break;
    }
    return mix(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.45);
}

QColor CanvasPalette::railColor(int rail, const QPalette& palette) {
    if (rail < 0)
        return tierColor(model::NodeKind::Leaf, palette);
    const auto index = static_cast<std::size_t>(rail);
    const int hue = index < kRailHues.size()
                        ? kRailHues[index]
                        : static_cast<int>(std::fmod(
                              kRailHues.back() + 137.508 * static_cast<double>(index), 360.0));
    return accent(hue, palette);
}

QColor CanvasPalette::fillFor(const QColor& accentColor, const QPalette& palette) {
    return mix(palette.color(QPalette::Base), accentColor, isDark(palette) ? 0.30 : 0.18);
}

QColor CanvasPalette::linkColor(const QPalette& palette) {
    return mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.45);
}

QColor CanvasPalette::heatColor(double utilization) {
    // Three stops read at a glance on light and dark canvases alike: idle links stay
    // quiet, busy ones warm up, saturated ones (the bottlenecks) shout.
    const QColor cool(70, 130, 200);
    const QColor warm(235, 170, 40);
    const QColor hot(220, 40, 40);
    const double u = std::clamp(utilization, 0.0, 1.0);
    return u < 0.5 ? mix(cool, warm, u / 0.5) : mix(warm, hot, (u - 0.5) / 0.5);
}

QColor CanvasPalette::selectionColor(const QPalette& palette) {
    return palette.color(QPalette::Highlight);
}

QColor CanvasPalette::gridColor(const QPalette& palette, bool major) {
    return mix(palette.color(QPalette::Base), palette.color(QPalette::Text), major ? 0.13 : 0.06);
}

QColor CanvasPalette::failureColor(bool down) {
    return down ? QColor(0xd6, 0x27, 0x28) : QColor(0xe6, 0x9f, 0x00);
}

} // namespace fabriclab::views
