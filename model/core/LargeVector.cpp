// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/core/LargeVector.hpp"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace fabriclab::model {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
/// Below this a huge page would be mostly empty: ordinary memory is better. From half a
/// huge page up, one fault instead of 256 or more is worth the slack.
constexpr std::size_t kWorthIt = kHugePage / 2;

bool large(std::size_t bytes) {
#if defined(__linux__)
    return bytes >= kWorthIt;
#else
    (void)bytes;
    return false;
#endif
}

} // namespace

void* allocateLarge(std::size_t bytes) {
    if (!large(bytes))
        return ::operator new(bytes);
    // aligned_alloc needs a multiple of the alignment.
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* memory = std::aligned_alloc(kHugePage, rounded);
    if (memory == nullptr)
        throw std::bad_alloc();
#if defined(__linux__)
    // Advice only: where transparent huge pages are off, this fails and nothing changes.
    (void)madvise(memory, rounded, MADV_HUGEPAGE);
#endif
    return memory;
}

void deallocateLarge(void* memory, std::size_t bytes) noexcept {
    if (!large(bytes)) {
        ::operator delete(memory);
        return;
    }
    std::free(memory);
}

} // namespace fabriclab::model
