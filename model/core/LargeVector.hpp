// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace fabriclab::model {

/// Memory for the simulator's big arrays (a million flows is a few hundred megabytes),
/// asked of the kernel in 2 MiB pages where Linux offers them. Fresh memory is paid for
/// page by page on first touch; with 4 KiB pages that was a fifth of the time to load and
/// solve a 1,024-GPU all-to-all, and random access into the arrays also misses the TLB
/// less. Small requests, and other systems, get ordinary memory.
void* allocateLarge(std::size_t bytes);
void deallocateLarge(void* memory, std::size_t bytes) noexcept;

template <typename T> struct LargePageAllocator {
    using value_type = T;

    LargePageAllocator() = default;
    template <typename U> LargePageAllocator(const LargePageAllocator<U>&) noexcept {}

    T* allocate(std::size_t count) {
        if (count > static_cast<std::size_t>(-1) / sizeof(T))
            throw std::bad_array_new_length();
        return static_cast<T*>(allocateLarge(count * sizeof(T)));
    }
    void deallocate(T* memory, std::size_t count) noexcept {
        deallocateLarge(memory, count * sizeof(T));
    }

    template <typename U>
    friend bool operator==(const LargePageAllocator&, const LargePageAllocator<U>&) {
        return true;
    }
};

/// A std::vector whose storage comes from allocateLarge().
template <typename T> using LargeVector = std::vector<T, LargePageAllocator<T>>;

} // namespace fabriclab::model
