# SPDX-License-Identifier: MIT
# cusim_add_executable(name sources...) / cusim_add_library(name [STATIC|SHARED] sources...):
# with the sim backend .cu files compile as C++ with the host compiler; with cuda, with nvcc.
include_guard(GLOBAL)

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

function(cusim_add_executable name)
  _cusim_mark_sources(${ARGN})
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE cusim::cusim)
endfunction()

function(cusim_add_library name)
  set(sources ${ARGN})
  list(FILTER sources EXCLUDE REGEX "^(STATIC|SHARED|OBJECT|MODULE)$")
  _cusim_mark_sources(${sources})
  add_library(${name} ${ARGN})
  target_link_libraries(${name} PUBLIC cusim::cusim)
endfunction()
