# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# Every <QChart...> include stays in this folder: Qt Charts is deprecated from Qt 6.10, and
# one folder is what a move to Qt Graphs will have to touch.
target_sources(fabriclab_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/AcrossSitesChart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/BisectionChart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/BusBandwidthChart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ChartPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ChartRegistry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CompareChart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CostChart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/LinkUtilizationChart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MeasuredChart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/RunFeed.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ScalingChart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/StepTimeChart.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ThroughputChart.cpp)
