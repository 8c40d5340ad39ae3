// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

class QGraphicsView;

namespace fabriclab::bench {

/// Milliseconds to paint one frame of a canvas being panned.
struct PanTiming {
    double medianMs = 0;
    double maxMs = 0;
    int frames = 0;
};

/// Pans `view` back and forth a few pixels per frame, as a middle-drag does, and times each
/// repaint of its viewport into an image of the same size. The view keeps its zoom.
PanTiming timePan(QGraphicsView& view, int frames);

} // namespace fabriclab::bench
