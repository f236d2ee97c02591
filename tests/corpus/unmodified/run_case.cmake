# SPDX-License-Identifier: MIT
# Runs one program of the unmodified bug corpus with the environment ENV ("A=1;B=2") and compares
# what it wrote (stderr, then stdout after a "--- stdout" line) with EXPECTED. Addresses differ
# from run to run: every 0x... reads 0x? on both sides.
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ENV} ${PROGRAM}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 120)
set(actual "${err}--- stdout\n${out}--- exit ${rc}\n")
string(REGEX REPLACE "0x[0-9a-f]+" "0x?" actual "${actual}")
file(READ ${EXPECTED} expected)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "${PROGRAM} wrote:\n${actual}\nexpected (${EXPECTED}):\n${expected}")
endif()
