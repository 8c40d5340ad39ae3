# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
target_sources(fabriclab_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/AccuracyTableModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/AccuracyTables.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CompareTableModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/NumberFormat.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PlanTableModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PropertyRows.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PropertyTableModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/TopologySummary.cpp)
