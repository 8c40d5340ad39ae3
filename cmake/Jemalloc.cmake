# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# fabriclab_use_jemalloc(TARGET): TARGET allocates with jemalloc (libjemalloc-dev, which
# scripts/dev.sh installs) instead of glibc's malloc. Why the desktop app does is written
# beside returnLargeBlocksToTheSystem() in app/ProcessMemory.hpp. Skipped, with a note,
# where jemalloc is missing, and under the sanitizers, which bring their own allocator.
find_library(FABRICLAB_JEMALLOC_LIBRARY NAMES jemalloc)
find_path(FABRICLAB_JEMALLOC_INCLUDE NAMES jemalloc/jemalloc.h)

function(fabriclab_use_jemalloc target)
  if(FABRICLAB_SANITIZE)
    return()
  endif()
  if(NOT FABRICLAB_JEMALLOC_LIBRARY OR NOT FABRICLAB_JEMALLOC_INCLUDE)
    message(STATUS "FabricLab: jemalloc not found; ${target} uses glibc's allocator")
    return()
  endif()
  target_include_directories(${target} SYSTEM PRIVATE ${FABRICLAB_JEMALLOC_INCLUDE})
  target_link_libraries(${target} PRIVATE ${FABRICLAB_JEMALLOC_LIBRARY})
  target_compile_definitions(${target} PRIVATE FABRICLAB_JEMALLOC)
endfunction()
