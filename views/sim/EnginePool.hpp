// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

class QThreadPool;

namespace fabriclab::views {

/// The threads the views run engine work on (simulations, comparisons, scaling studies,
/// analyses, generator previews), apart from QThreadPool::globalInstance().
///
/// Why apart: Qt's raster paint engine splits large fills and strokes across the global
/// pool and waits for the pieces on the GUI thread. With an engine run occupying those
/// threads, painting a 16K-GPU canvas waited for the run: the GUI froze for as long as
/// the simulation took. Engine work here leaves the global pool to the painter.
QThreadPool& enginePool();

} // namespace fabriclab::views
