# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# The design report: pages laid out for print, drawn by the app's own charts and canvas.
target_sources(fabriclab_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/DesignReport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PagedReport.cpp)
