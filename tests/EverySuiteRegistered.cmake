# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# Run by the every_suite_registered test: lists what CTest has registered and fails,
# naming each one, when a suite written under tests/ is not among them.
execute_process(COMMAND ${CTEST} -N WORKING_DIRECTORY ${BUILD_DIR}
                OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ctest -N failed in ${BUILD_DIR}")
endif()
set(missing "")
set(count 0)
foreach(suite ${SUITES})
  math(EXPR count "${count} + 1")
  if(NOT listing MATCHES ": ${suite}\n")
    list(APPEND missing ${suite})
  endif()
endforeach()
string(REGEX MATCH "Total Tests: ([0-9]+)" total "${listing}")
if(missing)
  message(FATAL_ERROR "suites written but not registered (a package or an include is missing?): ${missing}")
endif()
message(STATUS "${count} suites written under tests/, all registered; CTest lists ${CMAKE_MATCH_1} tests in all")
