// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/layout/LevelOfDetail.hpp"

#include <QGraphicsItem>
#include <QString>

namespace fabriclab::views {

/// The faint area behind an expanded rack or scalable unit, labelled in its corner.
/// Double-clicking it collapses the group again (TopologyScene handles that). Not
/// selectable, so rubber bands pick the members, not the frame.
class GroupFrameItem : public QGraphicsItem {
public:
    enum { Type = UserType + 4 };

    explicit GroupFrameItem(model::GroupKey key);

    model::GroupKey key() const { return m_key; }
    void setTitle(const QString& title);
    /// The members' bounding rectangle, scene units; the frame adds its own margin.
    void setArea(const QRectF& membersRect);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    model::GroupKey m_key;
    QString m_title;
    QRectF m_rect;
};

} // namespace fabriclab::views
