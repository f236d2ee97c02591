# SPDX-License-Identifier: MIT
# cmake -DMODE=subdirectory|find_package -DBACKEND=sim|cuda [-DNVCC=path] [-DEXPECT_ERROR=text]
#       [-DINSTALL_FROM=build tree] -DSOURCE_DIR=... -DWORK_DIR=... -P run_consumer.cmake
# Builds the consumer project against cusim and runs it (sim; cuda only builds: no GPU is assumed).
# find_package installs cusim first: from INSTALL_FROM, a build tree already built (the one under
# test), or else from a fresh Release build of SOURCE_DIR with its tests, examples and tools off.
# With EXPECT_ERROR, the consumer calls cusim_add_executable from a function, and its configure
# must fail with that exact text instead.
find_program(NINJA ninja)
set(gen)
if(NINJA)
  set(gen -G Ninja)
endif()
if(NOT BACKEND)
  set(BACKEND sim)
endif()
set(backend_args -DCUSIM_BACKEND=${BACKEND})
if(BACKEND STREQUAL "cuda")
  if(NOT NVCC)
    message(FATAL_ERROR "BACKEND=cuda needs -DNVCC=<path to nvcc>")
  endif()
  list(APPEND backend_args -DCMAKE_CUDA_COMPILER=${NVCC})
endif()
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
set(consumer ${CMAKE_CURRENT_LIST_DIR}/consumer)
set(consumer_args)
if(EXPECT_ERROR)
  list(APPEND consumer_args -DCONSUMER_HELPER_IN_FUNCTION=ON)
endif()
if(MODE STREQUAL "subdirectory")
  # The consumer's configure is given the backend: cusim is configured inside it.
  list(APPEND consumer_args -DCONSUME_WITH=subdirectory -DCUSIM_SOURCE_DIR=${SOURCE_DIR} ${backend_args})
elseif(INSTALL_FROM)
  run(${CMAKE_COMMAND} --install ${INSTALL_FROM} --prefix ${WORK_DIR}/prefix)
  list(APPEND consumer_args -DCONSUME_WITH=find_package -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
else()
  run(${CMAKE_COMMAND} ${gen} -S ${SOURCE_DIR} -B ${WORK_DIR}/cusim -DCUSIM_BUILD_TESTS=OFF
      -DCUSIM_BUILD_EXAMPLES=OFF -DCUSIM_BUILD_TOOLS=OFF ${backend_args} -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/cusim)
  run(${CMAKE_COMMAND} --install ${WORK_DIR}/cusim)
  # No backend and no nvcc given: the installed package brings both.
  list(APPEND consumer_args -DCONSUME_WITH=find_package -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
endif()
set(configure_consumer ${CMAKE_COMMAND} ${gen} -S ${consumer} -B ${WORK_DIR}/consumer ${consumer_args}
                       -DCMAKE_BUILD_TYPE=Release)
if(EXPECT_ERROR)
  execute_process(COMMAND ${configure_consumer} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${out}")  # CMake wraps long messages
  string(FIND "${flat}" "${EXPECT_ERROR}" at)
  if(rc EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "the consumer's configure should have failed with '${EXPECT_ERROR}' (rc ${rc}):\n${out}")
  endif()
  message(STATUS "configure failed as expected: ${EXPECT_ERROR}")
  return()
endif()
run(${configure_consumer})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
if(BACKEND STREQUAL "sim")
  run(${WORK_DIR}/consumer/consumer)
  # cusim_add_executable compiled main.cu from its phased copy (cusim_helpers.cmake).
  file(GLOB_RECURSE copies ${WORK_DIR}/consumer/cusim_phases/*/main.cu)
  if(NOT copies)
    message(FATAL_ERROR "no phased copy of main.cu under ${WORK_DIR}/consumer/cusim_phases")
  endif()
  file(READ "${copies}" text)
  string(FIND "${text}" "::cusim::detail::phases_begin()" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the phased copy ${copies} has no phased form of reverse()")
  endif()
endif()
