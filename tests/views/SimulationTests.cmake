# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# The simulator in the app: the controller's worker runs, the dashboard's charts, the
# headless capture (included from tests/views/CMakeLists.txt).
fabriclab_add_test(tst_SimulationController tst_SimulationController.cpp LIBS fabriclab::views)
fabriclab_add_test(tst_ResultsDashboard tst_ResultsDashboard.cpp LIBS fabriclab::views)
set_tests_properties(tst_SimulationController tst_ResultsDashboard
  PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
# The controller's bound on Esc-to-idle is a wall-clock bound: on the 2-core CI machine a
# sanitizer build of another engine-heavy suite beside it took it from 0.5 s to 1.9 s, so
# it runs alone.
set_tests_properties(tst_SimulationController PROPERTIES RUN_SERIAL TRUE)

# fabriclab --screenshot / --export-charts as a user runs them: exit 0, files that decode.
add_test(NAME fabriclab_headless_capture
         COMMAND ${CMAKE_COMMAND} -DAPP=$<TARGET_FILE:fabriclab> -DCLI=$<TARGET_FILE:fabriclab-cli>
                 -DDESIGN=${PROJECT_SOURCE_DIR}/samples/teaching-4-servers.fabric.json
                 -DOUT=${CMAKE_CURRENT_BINARY_DIR}/headless
                 -P ${CMAKE_CURRENT_LIST_DIR}/HeadlessCapture.cmake)
set_tests_properties(fabriclab_headless_capture PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
