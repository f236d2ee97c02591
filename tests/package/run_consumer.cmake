# SPDX-License-Identifier: MIT
# cmake -DMODE=subdirectory|find_package -DSOURCE_DIR=... -DWORK_DIR=... -P run_consumer.cmake
# Builds and runs the consumer project against cusim.
find_program(NINJA ninja)
set(gen)
if(NINJA)
  set(gen -G Ninja)
endif()
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()
set(consumer ${CMAKE_CURRENT_LIST_DIR}/consumer)
if(MODE STREQUAL "subdirectory")
  run(${CMAKE_COMMAND} ${gen} -S ${consumer} -B ${WORK_DIR}/consumer -DCONSUME_WITH=subdirectory
      -DCUSIM_SOURCE_DIR=${SOURCE_DIR} -DCMAKE_BUILD_TYPE=Release)
else()
  run(${CMAKE_COMMAND} ${gen} -S ${SOURCE_DIR} -B ${WORK_DIR}/cusim -DCUSIM_BUILD_TESTS=OFF
      -DCUSIM_BUILD_EXAMPLES=OFF -DCUSIM_BUILD_TOOLS=OFF -DCUSIM_BACKEND=sim -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/cusim)
  run(${CMAKE_COMMAND} --install ${WORK_DIR}/cusim)
  run(${CMAKE_COMMAND} ${gen} -S ${consumer} -B ${WORK_DIR}/consumer -DCONSUME_WITH=find_package
      -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
endif()
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${WORK_DIR}/consumer/consumer)
