// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <stop_token>

namespace fabriclab::model {

/// Thrown by the engine when a caller's stop token asks a run to stop. The app cancels a
/// run when an edit overtakes it; the worker catches this and drops the run quietly,
/// while every other exception is a fault worth showing.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

/// Throws Cancelled once `stop` has been requested. Cheap enough to call every few
/// thousand flows: it reads one atomic flag.
inline void throwIfStopped(const std::stop_token& stop) {
    if (stop.stop_requested())
        throw Cancelled();
}

} // namespace fabriclab::model
