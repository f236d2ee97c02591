# SPDX-License-Identifier: MIT
# Thrust in the CUDA toolkit layout (docs/unmodified-cuda.md, "Thrust, CUB and libcu++").
#
# Thrust's headers are Debian's libthrust-dev 1.17 (Apache-2.0; tools/quickstart installs it), found
# at configure time as CUSIM_THRUST_INCLUDE_DIR (by default /usr/include). B/cuda/include/thrust is
# a tree of links to them, except for the files of include/cusim/cccl/thrust, which take the place
# of Thrust's own: the device system is the CPP one, and device_vector's memory comes from
# cudaMalloc. A Thrust file that such a file wraps is also linked under
# B/cuda/include/cusim-cccl-original/thrust. Since the driver passes B/cuda/include with -I, a
# program's <thrust/...> is this tree, never /usr/include/thrust or another copy on the system
# path. Installed, <prefix>/cuda/include/thrust is a copy of the same tree with real files.
#
# Included by cmake/cusim_toolkit.cmake, in both its modes: at configure time it finds Thrust and
# adds the install rules; in script mode (the build-time sync) cusim_cccl_layout lays the tree out.

set(_cusim_cccl_overrides_rel include/cusim/cccl)

# A link at `link` to `target`, replacing whatever is there when it differs.
function(_cusim_cccl_link target link)
  if(IS_SYMLINK ${link})
    file(READ_SYMLINK ${link} _old)
    if(_old STREQUAL target)
      return()
    endif()
    file(REMOVE ${link})
  elseif(IS_DIRECTORY ${link})
    file(REMOVE_RECURSE ${link})
  elseif(EXISTS ${link})
    file(REMOVE ${link})
  endif()
  get_filename_component(_dir ${link} DIRECTORY)
  file(MAKE_DIRECTORY ${_dir})
  file(CREATE_LINK ${target} ${link} SYMBOLIC)
endfunction()

# dst mirrors src with links; rel is the path below thrust's parent, overrides the override root.
function(_cusim_cccl_farm src dst rel overrides original)
  if(IS_SYMLINK ${dst})
    file(REMOVE ${dst})  # never make directories through a link into the system's copy
  endif()
  file(MAKE_DIRECTORY ${dst})
  file(GLOB _entries RELATIVE ${src} ${src}/*)
  foreach(e IN LISTS _entries)
    set(r ${rel}/${e})
    if(IS_DIRECTORY ${overrides}/${r})
      _cusim_cccl_farm(${src}/${e} ${dst}/${e} ${r} ${overrides} ${original})
    elseif(EXISTS ${overrides}/${r})
      _cusim_cccl_link(${overrides}/${r} ${dst}/${e})
      _cusim_cccl_link(${src}/${e} ${original}/${r})
    else()
      _cusim_cccl_link(${src}/${e} ${dst}/${e})
    endif()
  endforeach()
endfunction()

# Build-time sync: TOOLKIT_DIR/include/thrust from THRUST_DIR/thrust and the overrides.
function(cusim_cccl_layout SOURCE_DIR TOOLKIT_DIR THRUST_DIR)
  if(NOT THRUST_DIR OR NOT EXISTS ${THRUST_DIR}/thrust/version.h)
    return()
  endif()
  _cusim_cccl_farm(${THRUST_DIR}/thrust ${TOOLKIT_DIR}/include/thrust thrust
                   ${SOURCE_DIR}/${_cusim_cccl_overrides_rel} ${TOOLKIT_DIR}/include/cusim-cccl-original)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE)
  return()
endif()

find_path(CUSIM_THRUST_INCLUDE_DIR thrust/version.h PATHS /usr/include NO_DEFAULT_PATH
          DOC "Where Thrust's headers are (Debian's libthrust-dev 1.17): the toolkit layout's thrust/")
if(CUSIM_THRUST_INCLUDE_DIR)
  file(STRINGS ${CUSIM_THRUST_INCLUDE_DIR}/thrust/version.h _v REGEX "^#define THRUST_VERSION [0-9]+")
  string(REGEX REPLACE "^#define THRUST_VERSION ([0-9]+).*" "\\1" _v "${_v}")
  if(NOT _v MATCHES "^1017[0-9][0-9]$")
    message(WARNING "Thrust ${_v} at ${CUSIM_THRUST_INCLUDE_DIR}: the toolkit layout is made for 1.17 "
                    "(Debian's libthrust-dev); thrust/ may not build for the simulator")
  endif()
  unset(_v)
else()
  message(STATUS "Thrust not found (Debian's libthrust-dev): the toolkit layout has no thrust/")
endif()

if(CUSIM_THRUST_INCLUDE_DIR)
  # Installed: the same tree with real files, Thrust's first, then the overrides over them.
  install(DIRECTORY ${CUSIM_THRUST_INCLUDE_DIR}/thrust DESTINATION cuda/include)
  file(GLOB_RECURSE _overrides RELATIVE ${PROJECT_SOURCE_DIR}/${_cusim_cccl_overrides_rel}
       ${PROJECT_SOURCE_DIR}/${_cusim_cccl_overrides_rel}/thrust/*)
  foreach(r IN LISTS _overrides)
    get_filename_component(_d ${r} DIRECTORY)
    install(FILES ${CUSIM_THRUST_INCLUDE_DIR}/${r} DESTINATION cuda/include/cusim-cccl-original/${_d})
    install(FILES ${PROJECT_SOURCE_DIR}/${_cusim_cccl_overrides_rel}/${r} DESTINATION cuda/include/${_d})
  endforeach()
  unset(_overrides)
endif()
