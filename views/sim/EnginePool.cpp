// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/EnginePool.hpp"

#include <QThreadPool>

namespace fabriclab::views {

QThreadPool& enginePool() {
    // One thread a core by default, as the global pool has. Destroyed at exit after the
    // controllers, whose destructors stop their runs and wait for them.
    static QThreadPool pool;
    return pool;
}

} // namespace fabriclab::views
