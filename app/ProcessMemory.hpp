// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdlib> // defines __GLIBC__ on glibc systems

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace fabriclab::app {

/// Hands large blocks back to the system when they are freed. glibc raises its mmap
/// threshold every time a large block is freed, so after the first run's scratch buffers
/// (routes, solver state: tens of MB) later ones come from the heap and stay there: a
/// 16,384-GPU `run` peaked at 182 MiB resident with 74 MiB ever live. With the threshold
/// fixed it peaks at 77 MiB and runs faster (0.60 s against 0.83 s median, farm-bench -n 5).
/// Call first thing in main().
inline void returnLargeBlocksToTheSystem() {
#if defined(__GLIBC__)
    constexpr int kLargeBlockBytes = 256 * 1024;
    mallopt(M_MMAP_THRESHOLD, kLargeBlockBytes);
#endif
}

} // namespace fabriclab::app
