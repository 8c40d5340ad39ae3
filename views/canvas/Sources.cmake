# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
target_sources(fabriclab_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/BlockItem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CanvasGestures.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CanvasPalette.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CanvasText.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CanvasView.cpp
  ${CMAKE_CURRENT_LIST_DIR}/GroupFrameItem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/LinkItem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/LinkNoteItem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/NodeItem.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SceneItems.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SitesOverlay.cpp
  ${CMAKE_CURRENT_LIST_DIR}/TopologyScene.cpp)
