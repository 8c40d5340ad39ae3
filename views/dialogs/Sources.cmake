# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
target_sources(fabriclab_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/AccuracyDialog.cpp
  ${CMAKE_CURRENT_LIST_DIR}/GenerateDialog.cpp)
