# SPDX-License-Identifier: MIT
# Writes OUT: a header with the report page's files (FILES, name=path;...) as string_views, so that
# report.html needs no file at run time. Run by simulator/CMakeLists.txt's custom command.
set(_text "// Generated from simulator/report_page/ by embed.cmake: do not edit.\n#pragma once\n#include <string_view>\nnamespace cusim::sim::report_page {\n")
foreach(pair IN LISTS FILES)
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 path)
  file(READ "${path}" content)
  string(FIND "${content}" ")cusim_page\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${path} contains the raw string's delimiter )cusim_page\"")
  endif()
  string(APPEND _text "inline constexpr std::string_view ${name} = R\"cusim_page(${content})cusim_page\";\n")
endforeach()
string(APPEND _text "}  // namespace cusim::sim::report_page\n")
file(WRITE "${OUT}.tmp" "${_text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
