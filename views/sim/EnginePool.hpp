// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <memory>

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

/// Every engine task calls this first: its thread then yields the processor to the GUI
/// thread whenever both want it. On two cores a simulation, its second routing and a
/// scaling study otherwise took two thirds of the time the GUI thread needed to apply
/// an edit, and a 16-ms reconcile stretched to 45. Threads the task starts (the second
/// routing's) inherit the lower priority.
void enterEngineThread();

/// Runs `destroy` on an engine thread when called on the GUI thread, and at once anywhere
/// else (or once the application is gone). Freeing a 16K-GPU run's result takes the GUI
/// thread a few milliseconds, which on a loaded machine stretch past a frame.
void destroyOffGuiThread(std::function<void()> destroy);

/// Shares `object` read-only, and whoever lets go of it last, the GUI thread does not
/// pay for freeing it.
template <typename T> std::shared_ptr<const T> shareFreedOffGuiThread(std::unique_ptr<T> object) {
    return std::shared_ptr<const T>(object.release(), [](const T* doomed) {
        destroyOffGuiThread([doomed] { delete doomed; });
    });
}

} // namespace fabriclab::views
