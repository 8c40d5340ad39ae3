// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace fabriclab::model {

/// Memory for the simulator's big arrays (a million flows is a hundred megabytes). Fresh
/// memory is paid for page by page on first touch, and for a one-shot solve that was a
/// fifth of the time, so on Linux arrays from half a huge page up come in transparent
/// 2 MiB pages (fewer faults, and fewer TLB misses on random access) and middling ones
/// from mappings populated in one call. Small requests, and other systems, get
/// ordinary memory.
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
