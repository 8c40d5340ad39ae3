// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/ElidedLabel.hpp"

#include <QEvent>

#include <algorithm>

namespace fabriclab::views {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString& text) {
    if (text == m_full)
        return;
    m_full = text;
    updateGeometry();
    elide();
}

QSize ElidedLabel::sizeHint() const {
    const QFontMetrics metrics = fontMetrics();
    const QMargins margins = contentsMargins();
    return {metrics.horizontalAdvance(m_full) + 2 * margin() + margins.left() + margins.right(),
            QLabel::sizeHint().height()};
}

QSize ElidedLabel::minimumSizeHint() const {
    const QFontMetrics metrics = fontMetrics();
    const QMargins margins = contentsMargins();
    const int ellipsis = metrics.horizontalAdvance(QStringLiteral("…")) * 3;
    return {std::min(ellipsis, sizeHint().width()) + 2 * margin() + margins.left() +
                margins.right(),
            QLabel::minimumSizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::changeEvent(QEvent* event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        updateGeometry();
        elide();
    } else if (event->type() == QEvent::ToolTipChange && !m_settingTip) {
        m_tip = toolTip(); // the caller's own, kept under the whole text
        elide();
    }
}

void ElidedLabel::elide() {
    const int room = contentsRect().width() - 2 * margin();
    const QString shown = fontMetrics().elidedText(m_full, Qt::ElideRight, std::max(room, 0));
    if (shown != text())
        setText(shown);
    QString tip = m_tip;
    if (shown != m_full)
        tip = m_tip.isEmpty() ? m_full : m_full + QLatin1Char('\n') + m_tip;
    if (toolTip() != tip) {
        m_settingTip = true;
        setToolTip(tip);
        m_settingTip = false;
    }
}

} // namespace fabriclab::views
