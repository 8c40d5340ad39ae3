// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// What a window that fits its screen looks like, checked widget by widget: the widgets a
// layout places side by side do not overlap, stay inside the widget that holds them, are
// not squeezed below the minimum their layout promises them, and a word-wrapped label is
// as tall as its text at its width. A window smaller than what its panels need breaks
// one of these (docks drawn over each other, a caption cut). Widgets only; offscreen.
#pragma once

#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QString>
#include <QStringList>
#include <QTest>
#include <QTextDocument>
#include <QWidget>
#include <QWidgetItem>

namespace fabriclab::testing {

/// "Class 'objectName'" (or the parent's name) for messages.
inline QString widgetName(const QWidget* widget) {
    QString name = QString::fromLatin1(widget->metaObject()->className());
    if (!widget->objectName().isEmpty())
        name += QStringLiteral(" '%1'").arg(widget->objectName());
    else if (widget->parentWidget() && !widget->parentWidget()->objectName().isEmpty())
        name += QStringLiteral(" in '%1'").arg(widget->parentWidget()->objectName());
    return name;
}

/// A dock behind another's tab: QMainWindow parks it outside the window, shown.
inline bool parkedDock(const QWidget* widget) {
    return qobject_cast<const QDockWidget*>(widget) && widget->visibleRegion().isEmpty();
}

/// The visible widgets `layout` places, through its nested layouts.
inline void laidOutWidgets(const QLayout* layout, QList<QWidget*>& widgets) {
    for (int i = 0; i < layout->count(); ++i) {
        QLayoutItem* item = layout->itemAt(i);
        if (!item)
            continue;
        QWidget* widget = item->widget();
        if (widget && widget->isVisible() && !widget->isWindow() && !widget->geometry().isEmpty() &&
            !parkedDock(widget))
            widgets << widget;
        else if (const QLayout* nested = item->layout())
            laidOutWidgets(nested, widgets);
    }
}

/// Everything wrong with how `top` and the widgets under it are laid out, one sentence
/// each; empty when all fit.
inline QStringList layoutProblems(const QWidget* top) {
    QStringList problems;
    const auto check = [&](const auto& self, const QWidget* widget) -> void {
        if (!widget->isVisible() || parkedDock(widget))
            return;
        if (const QLayout* layout = widget->layout()) {
            QList<QWidget*> placed;
            laidOutWidgets(layout, placed);
            for (int i = 0; i < placed.size(); ++i) {
                const QWidget* a = placed[i];
                if (!widget->rect().contains(a->geometry()))
                    problems << QStringLiteral("%1 at (%2,%3 %4x%5) sticks out of %6 (%7x%8)")
                                    .arg(widgetName(a))
                                    .arg(a->x())
                                    .arg(a->y())
                                    .arg(a->width())
                                    .arg(a->height())
                                    .arg(widgetName(widget))
                                    .arg(widget->width())
                                    .arg(widget->height());
                // What the layout promised it: its minimum, as layouts compute it. (Qt's
                // own dock title buttons are drawn smaller than they ask, by design.)
                const QSize minimum = QWidgetItem(const_cast<QWidget*>(a)).minimumSize();
                const bool qtPart = a->objectName().startsWith(QStringLiteral("qt_"));
                if (!qtPart && (a->width() < minimum.width() || a->height() < minimum.height()))
                    problems << QStringLiteral("%1 is %2x%3, squeezed below its minimum %4x%5")
                                    .arg(widgetName(a))
                                    .arg(a->width())
                                    .arg(a->height())
                                    .arg(minimum.width())
                                    .arg(minimum.height());
                for (int j = i + 1; j < placed.size(); ++j)
                    if (a->geometry().intersects(placed[j]->geometry()))
                        problems << QStringLiteral("%1 overlaps %2 in %3")
                                        .arg(widgetName(a), widgetName(placed[j]),
                                             widgetName(widget));
            }
        }
        if (const auto* label = qobject_cast<const QLabel*>(widget);
            label && label->wordWrap() && !label->text().isEmpty()) {
            // Plain text measured afresh: heightForWidth() never answers less than the
            // label's minimum height, so a label fixed too short would pass it.
            const QRect text = label->contentsRect().marginsRemoved(
                QMargins(label->margin(), label->margin(), label->margin(), label->margin()));
            const int needs =
                Qt::mightBeRichText(label->text())
                    ? label->heightForWidth(label->width())
                    : label->fontMetrics()
                              .boundingRect(QRect(0, 0, text.width(), QWIDGETSIZE_MAX),
                                            Qt::TextWordWrap, label->text())
                              .height() +
                          label->height() - text.height();
            if (label->height() < needs)
                problems << QStringLiteral("%1 is %2 px tall; its text needs %3 at %4 px wide")
                                .arg(widgetName(label))
                                .arg(label->height())
                                .arg(needs)
                                .arg(label->width());
        }
        for (const QObject* child : widget->children())
            if (const auto* w = qobject_cast<const QWidget*>(child); w && !w->isWindow())
                self(self, w);
    };
    check(check, top);
    return problems;
}

/// Whether `top` fits (layoutProblems() is empty) once the layouts it has asked for have
/// run (a new caption, a new minimum: each lays out on a later turn of the event loop);
/// prints each problem left otherwise.
inline bool fits(const QWidget* top) {
    if (QTest::qWaitFor([&] { return layoutProblems(top).isEmpty(); }))
        return true;
    const QStringList problems = layoutProblems(top);
    for (const QString& problem : problems)
        qWarning("%s", qPrintable(problem));
    return problems.isEmpty();
}

} // namespace fabriclab::testing
