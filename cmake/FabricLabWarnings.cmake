# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# One interface target carries the warning and sanitizer flags, so every FabricLab
# target opts in with a single link line and third-party headers stay untouched.
add_library(fabriclab_warnings INTERFACE)
target_compile_options(fabriclab_warnings INTERFACE -Wall -Wextra -Wpedantic
                       $<$<BOOL:${FABRICLAB_WERROR}>:-Werror>)
target_compile_definitions(fabriclab_warnings INTERFACE QT_NO_KEYWORDS)
if(FABRICLAB_SANITIZE)
  target_compile_options(fabriclab_warnings INTERFACE -fsanitize=address,undefined
                         -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(fabriclab_warnings INTERFACE -fsanitize=address,undefined)
endif()
