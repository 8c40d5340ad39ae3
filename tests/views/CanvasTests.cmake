# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# The canvas and its level of detail (included from tests/views/CMakeLists.txt).
fabriclab_add_test(tst_TopologyScene tst_TopologyScene.cpp LIBS fabriclab::views)
fabriclab_add_test(tst_LevelOfDetail tst_LevelOfDetail.cpp)
# A QTEST_MAIN suite with widgets: offscreen even when run outside the test preset.
set_tests_properties(tst_TopologyScene PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
fabriclab_add_test(tst_CanvasZoom tst_CanvasZoom.cpp LIBS fabriclab::views)
set_tests_properties(tst_CanvasZoom PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
