# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
target_sources(fabriclab_views PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/DesignRegeneration.cpp
  ${CMAKE_CURRENT_LIST_DIR}/FabricPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/FailurePanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/GeneratorPreview.cpp
  ${CMAKE_CURRENT_LIST_DIR}/InspectorPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PalettePanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/PropertyDelegate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SitesPanel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/StatusFigures.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ThemedIcon.cpp)

# Icons. resources/fabriclab.qrc is the one list (at :/icons/<name>); it is read here and
# handed to qt_add_resources in its target form. For a static library that form builds
# the resources into an object library linked into every executable that links
# fabriclab_views, so the icons register themselves: no Q_INIT_RESOURCE is needed. (A .qrc
# listed in target_sources would land in the static library, and the linker would drop it
# unless the executable called Q_INIT_RESOURCE.) The resource is named "fabriclab", so an
# explicit Q_INIT_RESOURCE(fabriclab) still links and is harmless: Qt ignores a second
# registration of the same data.
set(_fabriclab_qrc "${PROJECT_SOURCE_DIR}/resources/fabriclab.qrc")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_fabriclab_qrc}")
file(STRINGS "${_fabriclab_qrc}" _fabriclab_qrc_lines REGEX "<file[ >]")
set(_fabriclab_icons)
foreach(_line IN LISTS _fabriclab_qrc_lines)
  string(REGEX REPLACE ".*>([^<]+)</file>.*" "\\1" _file "${_line}")
  # The path under resources/ must be what the alias and prefix say (/icons/<alias>).
  string(REGEX REPLACE ".*alias=\"([^\"]+)\".*" "\\1" _alias "${_line}")
  if(NOT _file STREQUAL "icons/${_alias}")
    message(FATAL_ERROR "fabriclab.qrc: ${_file} must be aliased as its file name under /icons")
  endif()
  list(APPEND _fabriclab_icons "${PROJECT_SOURCE_DIR}/resources/${_file}")
endforeach()
qt_add_resources(fabriclab_views fabriclab
  PREFIX "/"
  BASE "${PROJECT_SOURCE_DIR}/resources"
  FILES ${_fabriclab_icons})
