// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/gui/FlatScrollBarStyle.hpp"

#include <QPainter>
#include <QStyleOptionSlider>

namespace fabriclab::app {
namespace {

/// Space left around the handle inside the groove, px.
constexpr int kHandleInset = 2;

} // namespace

FlatScrollBarStyle::FlatScrollBarStyle(QStyle* base) : QProxyStyle(base) {}

void FlatScrollBarStyle::drawComplexControl(ComplexControl control,
                                            const QStyleOptionComplex* option, QPainter* painter,
                                            const QWidget* widget) const {
    const auto* bar = qstyleoption_cast<const QStyleOptionSlider*>(option);
    if (control != CC_ScrollBar || !bar) {
        QProxyStyle::drawComplexControl(control, option, painter, widget);
        return;
    }
    const QPalette& palette = bar->palette;
    painter->fillRect(bar->rect, palette.color(QPalette::Window));
    const bool pressed =
        (bar->activeSubControls & SC_ScrollBarSlider) && (bar->state & State_Sunken);
    const bool hovered =
        (bar->activeSubControls & SC_ScrollBarSlider) && (bar->state & State_MouseOver);
    QRect handle = subControlRect(CC_ScrollBar, bar, SC_ScrollBarSlider, widget);
    handle = bar->orientation == Qt::Vertical ? handle.adjusted(kHandleInset, 0, -kHandleInset, 0)
                                              : handle.adjusted(0, kHandleInset, 0, -kHandleInset);
    if ((bar->state & State_Enabled) && bar->maximum > bar->minimum)
        painter->fillRect(handle, pressed   ? palette.color(QPalette::Dark)
                                  : hovered ? palette.color(QPalette::Mid).darker(115)
                                            : palette.color(QPalette::Mid));
    // The arrow buttons: an arrow on the groove, as small as Fusion's.
    const bool vertical = bar->orientation == Qt::Vertical;
    for (const auto& [part, arrow] :
         {std::pair{SC_ScrollBarSubLine, vertical ? PE_IndicatorArrowUp : PE_IndicatorArrowLeft},
          std::pair{SC_ScrollBarAddLine,
                    vertical ? PE_IndicatorArrowDown : PE_IndicatorArrowRight}}) {
        QStyleOption button(*bar);
        button.rect = subControlRect(CC_ScrollBar, bar, part, widget);
        if (button.rect.isEmpty())
            continue;
        if ((bar->activeSubControls & part) && (bar->state & State_Sunken))
            painter->fillRect(button.rect, palette.color(QPalette::Mid));
        proxy()->drawPrimitive(arrow, &button, painter, widget);
    }
}

} // namespace fabriclab::app
