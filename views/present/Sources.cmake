# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
target_sources(fabriclab_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/PresentationMode.cpp
  ${CMAKE_CURRENT_LIST_DIR}/StoryPanel.cpp)
