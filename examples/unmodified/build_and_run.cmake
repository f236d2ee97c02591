# SPDX-License-Identifier: MIT
# The test of examples/unmodified: configure with CUDACXX=${NVCC} (no build type, as the README
# says), build, run each program; any failure fails it.
file(REMOVE_RECURSE ${BUILD})
foreach(step configure build tiled_transpose texture_shift thrust_square_sort)
  if(step STREQUAL "configure")
    set(cmd ${CMAKE_COMMAND} -E env CUDACXX=${NVCC} ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD} -G ${GENERATOR})
  elseif(step STREQUAL "build")
    set(cmd ${CMAKE_COMMAND} --build ${BUILD})
  else()
    set(cmd ${BUILD}/${step})
  endif()
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "examples/unmodified: ${step} failed (${rc})")
  endif()
endforeach()
