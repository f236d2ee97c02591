# SPDX-License-Identifier: MIT
# The test of an example project (examples/unmodified, examples/teaching): configure SOURCE with
# CUDACXX=${NVCC} (no build type, as the README says) in BUILD, build it, run each of PROGRAMS (a
# comma-separated list); any failure fails it. With REPORT=ON each program runs with
# CUSIM_REPORT=${BUILD}/report-<program> and must write report.json and report.html there.
# `cmake --build <cusim build> --target demo` runs the lessons the same way.
file(REMOVE_RECURSE ${BUILD})
string(REPLACE "," ";" PROGRAMS "${PROGRAMS}")
foreach(step configure build ${PROGRAMS})
  if(step STREQUAL "configure")
    set(cmd ${CMAKE_COMMAND} -E env CUDACXX=${NVCC} ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD} -G ${GENERATOR})
  elseif(step STREQUAL "build")
    set(cmd ${CMAKE_COMMAND} --build ${BUILD})
  elseif(REPORT)
    set(cmd ${CMAKE_COMMAND} -E env CUSIM_REPORT=${BUILD}/report-${step} ${BUILD}/${step})
  else()
    set(cmd ${BUILD}/${step})
  endif()
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE}: ${step} failed (${rc})")
  endif()
  if(REPORT AND NOT step MATCHES "^(configure|build)$")
    foreach(file report.json report.html)
      if(NOT EXISTS ${BUILD}/report-${step}/${file})
        message(FATAL_ERROR "${SOURCE}: ${step} wrote no ${BUILD}/report-${step}/${file}")
      endif()
    endforeach()
  endif()
endforeach()
