// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

namespace fabriclab::views {

/// A one-line label that gives up width before anything else does: in a row too narrow
/// for its text it shows as much as fits with an ellipsis, and the whole text as its
/// tooltip, instead of pushing the window wider. Plain text only.
class ElidedLabel : public QLabel {
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    /// The whole text; what is drawn may be shortened.
    void setFullText(const QString& text);
    /// Its whole text when there is room; as narrow as an ellipsis when there is not.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void elide();

    QString m_full;
    QString m_tip; ///< the caller's tooltip; the whole text comes first while elided
    bool m_settingTip = false;
};

} // namespace fabriclab::views
