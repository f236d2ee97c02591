# SPDX-License-Identifier: MIT
# The CUDA toolkit layout that unmodified CUDA programs build against (docs/unmodified-cuda.md):
# B/cuda/{bin/nvcc, include, lib64, nvvm/libdevice}, installed as <prefix>/cuda.
#
#   bin/nvcc                    the driver (tools/nvcc), its modules in share/cusim-nvcc
#   include/                    include/cuda/*.h of this repository, and cusim's own include/cusim
#   lib64/libcudart.so          GNU ld scripts: the simulator's archive, whole-program static, with
#   lib64/libcudart_static.a    its dependencies: `-lcudart`, `-lcudart_static` (nvcc's and CMake's
#   lib64/libcuda.so            default), CUDA::cudart, CUDA::cudart_static, `gcc main.c -lcudart`
#   lib64/libcusim_simulator.a  that archive
#   lib64/libcusim_cudart.so    the simulator as a shared library (`nvcc -cudart shared`, which adds
#                               the rpath): its soname is cusim's own, so that NVIDIA's libcudart.so on
#                               LD_LIBRARY_PATH is never loaded in its place
#   lib64/libcudadevrt.a        an empty archive (device linking is a no-op here)
#   nvvm/libdevice/             empty: CMake's CUDA identification requires the directory
#
# libcudart.so is not the shared library: CMake adds no rpath for a library in an implicit link
# directory (lib64 is one, from nvcc's -v link line), so CUDA::cudart would link and then not load.
# A static link needs no run-time path, and its TLS reads (threadIdx & co.) stay single loads.
#
# This file is also run as a script at build time (-DCUSIM_TOOLKIT_SYNC=ON -P) to copy what may
# change between builds (the driver, the headers of include/cuda) without touching unchanged files.

if(CMAKE_SCRIPT_MODE_FILE)
  # Build-time sync: SOURCE_DIR, TOOLKIT_DIR.
  file(COPY ${SOURCE_DIR}/tools/nvcc/nvcc DESTINATION ${TOOLKIT_DIR}/bin
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  file(COPY ${SOURCE_DIR}/tools/nvcc/driver.py ${SOURCE_DIR}/tools/nvcc/options.py ${SOURCE_DIR}/tools/nvcc/tokens.py
       ${SOURCE_DIR}/tools/nvcc/rewrite.py ${SOURCE_DIR}/tools/nvcc/phases.py
       ${SOURCE_DIR}/tools/nvcc/phase_copy.py ${SOURCE_DIR}/tools/nvcc/includes.py ${SOURCE_DIR}/tools/nvcc/ptx.py
       ${SOURCE_DIR}/tools/nvcc/launch_spelling.py ${SOURCE_DIR}/tools/nvcc/pch.py
       DESTINATION ${TOOLKIT_DIR}/share/cusim-nvcc)
  # Their bytecode, which the driver reads and never writes (tools/nvcc/nvcc): compiled once here
  # rather than on each of its calls. Checked against each source's hash, not its time stamp, so
  # that it stays valid where the files are copied (the install) and is ignored if one changes.
  find_program(_python NAMES python3)
  if(_python)
    execute_process(COMMAND ${_python} -m compileall -q --invalidation-mode checked-hash
                            ${TOOLKIT_DIR}/share/cusim-nvcc)
  endif()
  # The headers are links into the source tree, so that diagnostics name the files one edits.
  file(GLOB headers RELATIVE ${SOURCE_DIR}/include/cuda ${SOURCE_DIR}/include/cuda/*)
  foreach(h IN LISTS headers)
    if(NOT EXISTS ${TOOLKIT_DIR}/include/${h})
      file(CREATE_LINK ${SOURCE_DIR}/include/cuda/${h} ${TOOLKIT_DIR}/include/${h} SYMBOLIC)
    endif()
  endforeach()
  if(NOT EXISTS ${TOOLKIT_DIR}/include/cusim)
    file(CREATE_LINK ${SOURCE_DIR}/include/cusim ${TOOLKIT_DIR}/include/cusim SYMBOLIC)
  endif()
  # Thrust's headers with cusim's configuration (cmake/cusim_cccl.cmake).
  include(${SOURCE_DIR}/cmake/cusim_cccl.cmake)
  cusim_cccl_layout(${SOURCE_DIR} ${TOOLKIT_DIR} "${THRUST_DIR}")
  # A header removed from include/cuda leaves a dangling link: remove it.
  file(GLOB links ${TOOLKIT_DIR}/include/*.h ${TOOLKIT_DIR}/include/*.hpp)
  foreach(l IN LISTS links)
    if(IS_SYMLINK ${l} AND NOT EXISTS ${l})
      file(REMOVE ${l})
    endif()
  endforeach()
  return()
endif()

if(NOT CUSIM_BACKEND STREQUAL "sim")
  return()
endif()

set(CUSIM_TOOLKIT_DIR ${PROJECT_BINARY_DIR}/cuda CACHE INTERNAL "The CUDA toolkit layout of the build tree")
set(_tk ${CUSIM_TOOLKIT_DIR})
file(MAKE_DIRECTORY ${_tk}/bin ${_tk}/include ${_tk}/lib64 ${_tk}/nvvm/libdevice ${_tk}/share/cusim-nvcc)

include(cusim_cccl)
add_custom_target(cusim_toolkit_files ALL
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DTOOLKIT_DIR=${_tk}
          -DTHRUST_DIR=${CUSIM_THRUST_INCLUDE_DIR}
          -P ${CMAKE_CURRENT_LIST_FILE}
  COMMENT "Laying out the CUDA toolkit in ${_tk}"
  VERBATIM)

# The simulator as a shared library: the (position-independent) archive, whole.
file(WRITE ${PROJECT_BINARY_DIR}/cusim_cudart.cpp
     "// SPDX-License-Identifier: MIT\n// libcusim_cudart.so is the simulator's archive, whole (cmake/cusim_toolkit.cmake).\n")
add_library(cusim_cudart SHARED ${PROJECT_BINARY_DIR}/cusim_cudart.cpp)
target_link_libraries(cusim_cudart PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,cusim_simulator>")
# Not under clang's sanitizers: their runtime is linked into executables only, never a library.
if(NOT (CUSIM_SANITIZER AND CMAKE_CXX_COMPILER_ID MATCHES "Clang"))
  target_link_options(cusim_cudart PRIVATE LINKER:--no-undefined)
endif()
set_target_properties(cusim_cudart PROPERTIES
  OUTPUT_NAME cusim_cudart
  LIBRARY_OUTPUT_DIRECTORY ${_tk}/lib64)

# The linker scripts. A script's relative names are found beside it (GNU ld 2.36 and later) and on
# the -L path (the driver and CMake's CUDA language always pass -L<toolkit>/lib64).
set(_deps "$<TARGET_LINKER_FILE:Boost::context> $<TARGET_LINKER_FILE:TBB::tbb> $<TARGET_LINKER_FILE:fmt::fmt>")
set(_backtrace "")
if(CUSIM_LIBBACKTRACE)
  set(_backtrace " ${CUSIM_LIBBACKTRACE}")
endif()
set(_static_script "/* cusim: the CUDA runtime is the cusim simulator, linked statically with what it needs. */
GROUP ( libcusim_simulator.a${_backtrace} AS_NEEDED ( ${_deps} -lstdc++ -lm ) )
")
# libcurand.so and libcurand_static.a too: cuRAND's host API is the simulator's (curand_generators.cpp).
foreach(lib libcudart.so libcudart_static.a libcuda.so libcurand.so libcurand_static.a)
  file(GENERATE OUTPUT ${_tk}/lib64/${lib} CONTENT "${_static_script}")
endforeach()

add_custom_command(TARGET cusim_cudart POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E copy_if_different $<TARGET_FILE:cusim_simulator> ${_tk}/lib64/libcusim_simulator.a
  COMMAND ${CMAKE_AR} qc ${_tk}/lib64/libcudadevrt.a.tmp
  COMMAND ${CMAKE_COMMAND} -E rename ${_tk}/lib64/libcudadevrt.a.tmp ${_tk}/lib64/libcudadevrt.a
  VERBATIM)

# What `cmake --build B` builds by default; tests and tools depend on it by name.
add_custom_target(cusim_toolkit ALL DEPENDS cusim_toolkit_files cusim_cudart)

# The same tree under <prefix>/cuda, with real files for the links.
set(_inst cuda)
install(PROGRAMS tools/nvcc/nvcc DESTINATION ${_inst}/bin)
install(FILES tools/nvcc/driver.py tools/nvcc/options.py tools/nvcc/tokens.py tools/nvcc/includes.py tools/nvcc/rewrite.py
              tools/nvcc/phases.py tools/nvcc/phase_copy.py tools/nvcc/ptx.py tools/nvcc/launch_spelling.py tools/nvcc/pch.py
        DESTINATION ${_inst}/share/cusim-nvcc)
install(DIRECTORY ${_tk}/share/cusim-nvcc/__pycache__ DESTINATION ${_inst}/share/cusim-nvcc OPTIONAL)
install(DIRECTORY include/cusim DESTINATION ${_inst}/include)
if(EXISTS ${PROJECT_SOURCE_DIR}/include/cuda)
  install(DIRECTORY include/cuda/ DESTINATION ${_inst}/include)
else()
  # Laid out at install time too, should the headers appear after configuration.
  install(CODE "file(GLOB _h \"${PROJECT_SOURCE_DIR}/include/cuda/*\")
                if(_h)
                  file(INSTALL \${_h} DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${_inst}/include\")
                endif()")
endif()
install(TARGETS cusim_cudart LIBRARY DESTINATION ${_inst}/lib64)
install(FILES ${_tk}/lib64/libcudart.so ${_tk}/lib64/libcudart_static.a ${_tk}/lib64/libcuda.so
              ${_tk}/lib64/libcurand.so ${_tk}/lib64/libcurand_static.a
              ${_tk}/lib64/libcusim_simulator.a
              ${_tk}/lib64/libcudadevrt.a
        DESTINATION ${_inst}/lib64)
install(DIRECTORY DESTINATION ${_inst}/nvvm/libdevice)
unset(_tk)
unset(_inst)
