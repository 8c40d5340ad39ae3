# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
target_sources(fabriclab_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/CompareController.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ComparePanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DesignAnalyzer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DesignFacts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ElidedLabel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/EnginePool.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ExplainPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PlanPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PlaybackBar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PlaybackClock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ResultsDashboard.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ScalingRunner.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SharedBisection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SimulationController.cpp)
