// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/core/LargeVector.hpp"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace fabriclab::model {
namespace {

/// How a request is served. Measured on the 2-core CI machine: a 4 KiB page costs about
/// 1.3 us on first touch, a transparent huge page about 175 us for 2 MiB (a quarter of
/// the 512 faults it replaces); populating a mapping up front saves a fifth on the rest.
enum class Source { Heap, PopulatedMapping, HugePages };

constexpr std::size_t kHugePage = std::size_t{2} << 20;
/// From half a huge page up, one huge page beats the small faults it replaces.
constexpr std::size_t kHugeFrom = kHugePage / 2;
/// Below this, the heap: a mapping per small vector would cost more than it saves.
constexpr std::size_t kMappingFrom = std::size_t{64} << 10;

Source sourceFor(std::size_t bytes) {
#if defined(__linux__)
    if (bytes >= kHugeFrom)
        return Source::HugePages;
    if (bytes >= kMappingFrom)
        return Source::PopulatedMapping;
#else
    (void)bytes;
#endif
    return Source::Heap;
}

} // namespace

void* allocateLarge(std::size_t bytes) {
    switch (sourceFor(bytes)) {
    case Source::Heap:
        break;
#if defined(__linux__)
    case Source::PopulatedMapping: {
        void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (memory == MAP_FAILED)
            throw std::bad_alloc();
        return memory;
    }
    case Source::HugePages: {
        // aligned_alloc needs a multiple of the alignment.
        const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void* memory = std::aligned_alloc(kHugePage, rounded);
        if (memory == nullptr)
            throw std::bad_alloc();
        // Advice only: where transparent huge pages are off, this fails and nothing changes.
        (void)madvise(memory, rounded, MADV_HUGEPAGE);
        return memory;
    }
#else
    default:
        break;
#endif
    }
    return ::operator new(bytes);
}

void deallocateLarge(void* memory, std::size_t bytes) noexcept {
    switch (sourceFor(bytes)) {
    case Source::Heap:
        break;
#if defined(__linux__)
    case Source::PopulatedMapping:
        (void)munmap(memory, bytes);
        return;
    case Source::HugePages:
        std::free(memory);
        return;
#else
    default:
        break;
#endif
    }
    ::operator delete(memory);
}

} // namespace fabriclab::model
