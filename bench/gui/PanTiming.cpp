// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/gui/PanTiming.hpp"

#include <QElapsedTimer>
#include <QGraphicsView>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <vector>

namespace fabriclab::bench {

PanTiming timePan(QGraphicsView& view, int frames) {
    constexpr double kStepPixels = 12; // a brisk middle-drag at 60 Hz
    constexpr int kFramesPerSweep = 20;
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(frames));
    const double step = kStepPixels / std::max(1e-9, view.transform().m11());
    for (int i = 0; i < frames; ++i) {
        const QPointF centre = view.mapToScene(view.viewport()->rect().center());
        const double direction = (i / kFramesPerSweep) % 2 ? -1 : 1;
        view.centerOn(centre + QPointF(direction * step, 0));
        QElapsedTimer clock;
        clock.start();
        QPainter painter(&image);
        view.render(&painter, QRectF(), view.viewport()->rect());
        painter.end();
        ms.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    PanTiming timing;
    timing.frames = frames;
    if (ms.empty())
        return timing;
    timing.maxMs = *std::max_element(ms.begin(), ms.end());
    std::nth_element(ms.begin(), ms.begin() + static_cast<long>(ms.size() / 2), ms.end());
    timing.medianMs = ms[ms.size() / 2];
    return timing;
}

} // namespace fabriclab::bench
