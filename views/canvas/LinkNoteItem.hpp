// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>
#include <QGraphicsItem>
#include <QString>

namespace fabriclab::views {

/// A small label pinned to the middle of a drawn link ("c0 c7": the chunks a lesson step
/// moves over it). Drawn in device pixels so it reads at every zoom; TopologyScene owns
/// and places the notes and drops them when the items they annotate are rebuilt.
class LinkNoteItem : public QGraphicsItem {
public:
    enum { Type = UserType + 7 };

    explicit LinkNoteItem(QString text);

    /// Measures the box again in its scene's type as it is now (presentation mode
    /// enlarges it), so the text is drawn in the font its box was measured for.
    void fitFont();

    const QString& text() const { return m_text; }
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;

private:
    QString m_text;
    QFont m_font; ///< what m_rect was measured in, and what paint() draws with
    QRectF m_rect;
};

} // namespace fabriclab::views
