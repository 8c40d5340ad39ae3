# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
# cmake -DBUILD=<build tree> -DOUT=<scratch> -DVERSION=<x.y.z> -DCPACK=<cpack> -P InstallDeb.cmake
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN}\nexit ${rc}\n${out}\n${err}")
  endif()
  set(OUTPUT "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
run(${CPACK} -G DEB --config ${BUILD}/CPackConfig.cmake -B ${OUT})
file(GLOB debs ${OUT}/fabriclab_*.deb)
list(LENGTH debs count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one fabriclab_*.deb in ${OUT}, found: ${debs}")
endif()
list(GET debs 0 deb)

# The package says what it needs of Debian 12, read from the programs themselves.
run(dpkg-deb --field ${deb} Package Version Depends)
foreach(want "Package: fabriclab" "Version: ${VERSION}" "libqt6widgets6" "libqt6charts6"
             "libqt6svg6")
  string(FIND "${OUTPUT}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the package's control lacks ${want}:\n${OUTPUT}")
  endif()
endforeach()

set(root ${OUT}/root)
run(dpkg-deb -x ${deb} ${root})
foreach(file usr/bin/fabriclab usr/bin/fabriclab-cli
             usr/share/applications/fabriclab.desktop
             usr/share/mime/packages/fabriclab.xml
             usr/share/icons/hicolor/scalable/apps/fabriclab.svg
             usr/share/icons/hicolor/48x48/apps/fabriclab.png
             usr/share/icons/hicolor/256x256/apps/fabriclab.png
             usr/share/man/man1/fabriclab.1 usr/share/man/man1/fabriclab-cli.1
             usr/share/bash-completion/completions/fabriclab-cli
             usr/share/fabriclab/samples/teaching-4-servers.fabric.json
             usr/share/fabriclab/schemas/run.schema.json
             usr/share/doc/fabriclab/output-contract.md)
  if(NOT EXISTS ${root}/${file})
    message(FATAL_ERROR "the package does not install ${file}")
  endif()
endforeach()
find_program(DESKTOP_FILE_VALIDATE desktop-file-validate)
if(DESKTOP_FILE_VALIDATE)
  run(${DESKTOP_FILE_VALIDATE} ${root}/usr/share/applications/fabriclab.desktop)
endif()

# Run from the scratch root: the command line on an installed sample, the app's version
# offscreen, and the completion script as bash reads it.
run(${root}/usr/bin/fabriclab-cli run
    ${root}/usr/share/fabriclab/samples/teaching-4-servers.fabric.json --json)
string(FIND "${OUTPUT}" "\"schemaVersion\": 1" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the installed fabriclab-cli printed no report:\n${OUTPUT}")
endif()
run(${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${root}/usr/bin/fabriclab --version)
string(FIND "${OUTPUT}" "FabricLab ${VERSION}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the installed fabriclab --version printed: ${OUTPUT}")
endif()
file(WRITE ${OUT}/complete.sh [=[
source "$1"
COMP_WORDS=(fabriclab-cli run x.fabric.json --fabric i)
COMP_CWORD=4
_fabriclab_cli
echo "${COMPREPLY[*]}"
]=])
run(bash ${OUT}/complete.sh ${root}/usr/share/bash-completion/completions/fabriclab-cli)
string(FIND "${OUTPUT}" "ib-ndr" at)
if(at EQUAL -1)
  message(FATAL_ERROR "bash completion of --fabric i offered: ${OUTPUT}")
endif()
# The app finds its samples beside itself, not in the source tree.
run(${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${root}/usr/bin/fabriclab --print-samples-folder)
string(FIND "${OUTPUT}" "${root}/usr/share/fabriclab/samples" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the installed app looks for samples in: ${OUTPUT}")
endif()
message(STATUS "installed and ran ${deb}")
