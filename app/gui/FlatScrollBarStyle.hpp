// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QProxyStyle>

namespace fabriclab::app {

/// Fusion with flat scroll bars in solid colours. Fusion draws its scroll bars with
/// gradients, and Qt's raster engine fills a gradient taller than about a hundred pixels
/// on its thread pool while the GUI thread waits: with the cores busy, a dock's scroll bar
/// took 30-90 ms to draw for 1-2 ms of work each time an edit changed its range, the longest
/// stalls of an edit on the 16K-GPU sample. Solid fills are drawn on the spot.
class FlatScrollBarStyle : public QProxyStyle {
public:
    /// Takes ownership of `base` (Fusion).
    explicit FlatScrollBarStyle(QStyle* base);

    void drawComplexControl(ComplexControl control, const QStyleOptionComplex* option,
                            QPainter* painter, const QWidget* widget = nullptr) const override;
};

} // namespace fabriclab::app
