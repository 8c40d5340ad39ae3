# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# Runs fabriclab --screenshot for every view and --export-charts on one design, and
# checks the exit status and the files, and that the exported figures are the very ones
# `fabriclab-cli run --json` prints (cmake -P script: APP, CLI, DESIGN, OUT). The main
# views are captured again at 1280x720, a projector's size: the capture fails when the
# window did not stay that size, and the PNG must be exactly that large.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
foreach(view results compare playback teaching presentation explain)
  execute_process(COMMAND ${APP} --screenshot ${OUT}/${view}.png --view ${view} ${DESIGN}
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT EXISTS ${OUT}/${view}.png)
    message(FATAL_ERROR "--screenshot --view ${view} failed (${status}): ${err}")
  endif()
  file(READ ${OUT}/${view}.png magic LIMIT 4 HEX)
  if(NOT magic STREQUAL "89504e47")
    message(FATAL_ERROR "${view}.png is not a PNG")
  endif()
endforeach()
execute_process(COMMAND ${APP} --screenshot ${OUT}/x.png --view nonsense ${DESIGN}
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(status EQUAL 0 OR NOT err MATCHES "unknown --view")
  message(FATAL_ERROR "an unknown view must be refused with a message: ${status} ${err}")
endif()

# A projector's 1280x720: the window keeps the size asked for (the capture fails if it
# grew) and the PNG has it. The welcome page is the first start, without a design.
foreach(view results compare presentation welcome)
  set(design ${DESIGN})
  if(view STREQUAL "welcome")
    set(design "")
  endif()
  execute_process(COMMAND ${APP} --screenshot ${OUT}/${view}-1280x720.png --view ${view}
                          --size 1280x720 ${design}
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT EXISTS ${OUT}/${view}-1280x720.png)
    message(FATAL_ERROR "--screenshot --view ${view} --size 1280x720 failed (${status}): ${err}")
  endif()
  # PNG: 8-byte signature, IHDR length and type, then width and height (4 bytes each).
  file(READ ${OUT}/${view}-1280x720.png header OFFSET 16 LIMIT 8 HEX)
  if(NOT header STREQUAL "00000500000002d0")
    message(FATAL_ERROR "${view}-1280x720.png is not 1280x720 (IHDR size ${header})")
  endif()
endforeach()
# A size that is not one: refused with the reason and exit status 2, nothing written.
foreach(size 1280 1280x 1280*720 x720 -1280x720 12800x7200 100x100 "")
  execute_process(COMMAND ${APP} --screenshot ${OUT}/bad.png --size "${size}" ${DESIGN}
                  RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 2 OR NOT err MATCHES "--size" OR EXISTS ${OUT}/bad.png)
    message(FATAL_ERROR "--size \"${size}\" must be refused with exit 2 and a message: "
                        "${status} ${err}")
  endif()
endforeach()
execute_process(COMMAND ${APP} --screenshot ${OUT}/bad.png --view welcome ${DESIGN}
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 2 OR NOT err MATCHES "no DESIGN")
  message(FATAL_ERROR "--view welcome with a design must be refused: ${status} ${err}")
endif()
execute_process(COMMAND ${APP} --export-charts ${OUT}/charts ${DESIGN}
                RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "--export-charts failed (${status}): ${err}")
endif()
foreach(chart bisection collective-throughput busbw-vs-size step-time cost scaling compare)
  foreach(ext png svg csv)
    if(NOT EXISTS ${OUT}/charts/${chart}.${ext})
      message(FATAL_ERROR "--export-charts did not write ${chart}.${ext}")
    endif()
  endforeach()
endforeach()
if(NOT EXISTS ${OUT}/charts/summary.csv)
  message(FATAL_ERROR "--export-charts did not write summary.csv")
endif()

# summary.csv carries the CLI's run --json figures, key by key.
execute_process(COMMAND ${CLI} run ${DESIGN} --json OUTPUT_VARIABLE json RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "fabriclab-cli run failed (${status})")
endif()
file(STRINGS ${OUT}/charts/summary.csv summary)
foreach(key bisection.theoreticalGbps bisection.effectiveGbps collective.timeUs
            collective.busBwGBps step.stepSeconds step.commFraction cost.fabricCapexUsd
            cost.fabricPerGpuHourUsd)
  # The number as the CLI wrote it (string(JSON) would reformat it); these leaf names
  # occur once in the report.
  string(REGEX REPLACE ".*\\." "" leaf ${key})
  string(REGEX MATCH "\"${leaf}\": *([^,}\n ]+)" match "${json}")
  set(value ${CMAKE_MATCH_1})
  list(FIND summary "${key},${value}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "summary.csv lacks ${key},${value} (the CLI's figure)")
  endif()
endforeach()
