# SPDX-License-Identifier: MIT
# cusim_add_executable(name sources...) / cusim_add_library(name [STATIC|SHARED] sources...):
# with the sim backend .cu files compile as C++ with the host compiler; with cuda, with nvcc.
# With the sim backend and CUSIM_PHASES (on by default), each .cu file is compiled from a copy in
# which the kernels fit for it also have their phased form (the nvcc driver's phases.py: the code
# between barriers run as loops over the block's threads), made at build time by phase_copy.py
# (the global property CUSIM_PHASE_COPY: beside the driver) with Python 3. Kernels in headers keep
# fibers.
include_guard(GLOBAL)

# Enables CUDA in the calling directory (sm_80 by default) unless it is already enabled there.
# A macro: CMake 3.25's enable_language must run at file scope ("not in a function call"), and
# the variables it sets (CMAKE_CUDA_COMPILE_OBJECT...) reach only that directory and its children.
macro(_cusim_enable_cuda_here)
  if(NOT DEFINED CMAKE_CUDA_COMPILE_OBJECT)
    # sm_80 (with its PTX, so newer GPUs JIT it) is the least that has every primitive the kernel
    # API offers (__reduce_*_sync); it must be chosen before enable_language picks nvcc's default.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
      set(CMAKE_CUDA_ARCHITECTURES 80 CACHE STRING "CUDA architectures to build for")
    endif()
    enable_language(CUDA)
  endif()
endmacro()

# cusim's own enable_language(CUDA) (add_subdirectory) or the one in cusimConfig.cmake
# (find_package elsewhere or in a function) does not reach the directory where the user's target
# lives, and CMake then fails at generation with "Missing variable CMAKE_CUDA_COMPILE_OBJECT":
# the helpers, which run in that directory, enable CUDA there, or say what to add where they can't.
macro(_cusim_use_cuda_here helper)
  if(CUSIM_BACKEND STREQUAL "cuda" AND NOT DEFINED CMAKE_CUDA_COMPILE_OBJECT)
    if(DEFINED CMAKE_CURRENT_FUNCTION)
      message(FATAL_ERROR "cusim: CUSIM_BACKEND=cuda needs the CUDA language in ${CMAKE_CURRENT_SOURCE_DIR}/CMakeLists.txt "
                          "and ${helper}() cannot enable it from inside a function: add `enable_language(CUDA)` there "
                          "outside any function (or LANGUAGES CXX CUDA in project()).")
    endif()
    _cusim_enable_cuda_here()
  endif()
endmacro()

function(_cusim_mark_sources)
  foreach(src IN LISTS ARGN)
    if(src MATCHES "\\.cu$")
      if(CUSIM_BACKEND STREQUAL "cuda")
        set_source_files_properties(${src} PROPERTIES LANGUAGE CUDA)
      else()
        set_source_files_properties(${src} PROPERTIES LANGUAGE CXX)
        if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
          set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS -x c++)
        endif()
      endif()
    endif()
  endforeach()
endfunction()

# Sets `out` to the sources of target `name`, each .cu file replaced by its phased copy (see the
# top of this file) when the sim backend builds with CUSIM_PHASES; the copy is compiled as C++ with
# the source's directory searched for its quoted includes and the source's compile properties set
# so far, and names the source in diagnostics.
function(_cusim_phase_sources out name)
  set(result)
  set(phases OFF)
  get_property(tool GLOBAL PROPERTY CUSIM_PHASE_COPY)
  if(CUSIM_BACKEND STREQUAL "sim" AND CUSIM_PHASES AND EXISTS "${tool}")
    find_package(Python3 QUIET COMPONENTS Interpreter)
    if(Python3_Interpreter_FOUND)
      set(phases ON)
    endif()
  endif()
  get_filename_component(tool_dir "${tool}" DIRECTORY)
  foreach(src IN LISTS ARGN)
    if(phases AND src MATCHES "\\.cu$")
      get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      get_filename_component(dir "${abs}" DIRECTORY)
      get_filename_component(base "${abs}" NAME)
      string(MD5 key "${abs}")
      string(SUBSTRING "${key}" 0 8 key)
      set(copy "${CMAKE_CURRENT_BINARY_DIR}/cusim_phases/${name}/${key}/${base}")
      # The user's headers that it includes (found in the target's include directories, but not
      # cusim's own) get their phased copies too; the depfile names them, so a change to one makes
      # the copies again.
      add_custom_command(OUTPUT "${copy}"
                         COMMAND Python3::Interpreter "${tool}" "${abs}" "${copy}" --config "$<CONFIG>"
                                 --options "$<TARGET_PROPERTY:${name},COMPILE_OPTIONS>"
                                 --include-dirs "$<TARGET_PROPERTY:${name},INCLUDE_DIRECTORIES>"
                                 --not-user "$<TARGET_PROPERTY:cusim::cusim,INTERFACE_INCLUDE_DIRECTORIES>"
                                 --depfile "${copy}.d"
                         DEPENDS "${abs}" "${tool}" "${tool_dir}/rewrite.py" "${tool_dir}/phases.py" "${tool_dir}/launch_spelling.py"
                                 "${tool_dir}/includes.py" "${tool_dir}/tokens.py"
                         DEPFILE "${copy}.d"
                         COMMENT "cusim: the phased copy of ${src}" VERBATIM)
      # What the source's own properties ask for (set before this call), the copy asks for too.
      foreach(property IN ITEMS COMPILE_DEFINITIONS COMPILE_OPTIONS COMPILE_FLAGS INCLUDE_DIRECTORIES)
        get_source_file_property(value "${src}" ${property})
        if(value)
          set_property(SOURCE "${copy}" PROPERTY ${property} "${value}")
        endif()
      endforeach()
      set_property(SOURCE "${copy}" APPEND PROPERTY COMPILE_OPTIONS "-iquote${dir}")
      list(APPEND result "${copy}")
    else()
      list(APPEND result "${src}")
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

function(_cusim_add_executable name)
  _cusim_phase_sources(sources ${name} ${ARGN})
  _cusim_mark_sources(${sources})
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE cusim::cusim)
endfunction()

function(_cusim_add_library name)
  _cusim_phase_sources(sources ${name} ${ARGN})
  set(listed ${sources})
  list(FILTER listed EXCLUDE REGEX "^(STATIC|SHARED|OBJECT|MODULE)$")
  _cusim_mark_sources(${listed})
  add_library(${name} ${sources})
  target_link_libraries(${name} PUBLIC cusim::cusim)
endfunction()

# Macros (see _cusim_enable_cuda_here); the work is done in functions so nothing leaks.
macro(cusim_add_executable)
  _cusim_use_cuda_here(cusim_add_executable)
  _cusim_add_executable(${ARGV})
endmacro()

macro(cusim_add_library)
  _cusim_use_cuda_here(cusim_add_library)
  _cusim_add_library(${ARGV})
endmacro()
