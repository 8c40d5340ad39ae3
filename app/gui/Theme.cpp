// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/Theme.hpp"

#include "app/gui/FlatScrollBarStyle.hpp"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace fabriclab::app {
namespace {

QPalette darkPalette() {
    QPalette p;
    const QColor window(37, 39, 43);
    const QColor base(28, 30, 33);
    const QColor text(225, 228, 232);
    const QColor accent(64, 140, 220);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Highlight, accent);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, accent.lighter(130));
    p.setColor(QPalette::PlaceholderText, text.darker(160));
    p.setColor(QPalette::Disabled, QPalette::Text, text.darker(180));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, text.darker(180));
    p.setColor(QPalette::Disabled, QPalette::WindowText, text.darker(180));
    return p;
}

// The desktop's palette as it was before we changed anything, to judge "System".
const QPalette& platformPalette() {
    static const QPalette palette = QApplication::palette();
    return palette;
}

} // namespace

void applyTheme(Theme theme) {
    (void)platformPalette();
    QApplication::setStyle(new FlatScrollBarStyle(QStyleFactory::create(QStringLiteral("Fusion"))));
    const bool desktopIsDark = platformPalette().color(QPalette::Window).lightness() < 128;
    const bool dark = theme == Theme::Dark || (theme == Theme::System && desktopIsDark);
    QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
}

Theme savedTheme() {
    return static_cast<Theme>(QSettings().value(QStringLiteral("view/theme"), 0).toInt());
}

void saveTheme(Theme theme) {
    QSettings().setValue(QStringLiteral("view/theme"), static_cast<int>(theme));
}

} // namespace fabriclab::app
