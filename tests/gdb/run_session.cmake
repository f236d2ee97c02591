# SPDX-License-Identifier: MIT
# Runs gdb in batch mode on tests/gdb/debug_kernel.cu with the session SESSION.gdb and checks
# what gdb prints. tools/cusim-gdb.py is loaded the way users get it: by gdb's auto-load, from
# the program's .debug_gdb_scripts section, with the tools folder in the safe-path.
execute_process(
  COMMAND ${GDB} -batch -nx -iex "add-auto-load-safe-path ${TOOLS}" -x ${SCRIPT_DIR}/${SESSION}.gdb
          --args ${PROGRAM}
  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 100)
set(out "${out}${err}")
message("${out}")

if(SESSION STREQUAL "breakpoint")
  set(expect
    # the condition $cusim_tid(2, 0, 0) stops thread 2 only, after the barrier
    "Breakpoint 1, neighbours \\(in=\\.\\.\\., out=\\.\\.\\.\\) at [^\n]*debug_kernel\\.cu:17"
    "\\$1 = 2\n\\$2 = 20\n"
    # info cusim threads: states, barrier sites and current lines, ranges collapsed
    "  \\(0,0,0\\)-\\(1,0,0\\) +\\(0,0,0\\) +exited"
    "\\* \\(2,0,0\\) +\\(0,0,0\\) +running +debug_kernel\\.cu:17"
    "  \\(3,0,0\\)-\\(7,0,0\\) +\\(0,0,0\\) +ready +debug_kernel\\.cu:15"
    # focus on a thread parked at the barrier: its own frame and locals
    "\\[Switching focus to CUDA thread \\(5,0,0\\), block \\(0,0,0\\)\\]\n#[0-9]+ +0x[0-9a-f]+ in neighbours \\(in=\\.\\.\\., out=\\.\\.\\.\\) at [^\n]*debug_kernel\\.cu:15\n15\t  __syncthreads\\(\\);"
    "t = 5\nmine = 60\n"
    "in neighbours\\(cusim::span<int const>, cusim::span<int>\\) \\(in=\\.\\.\\., out=\\.\\.\\.\\) at [^\n]*debug_kernel\\.cu:15"
    # back to the running thread
    "\\[Switching focus to CUDA thread \\(2,0,0\\), block \\(0,0,0\\)\\]\n#0  neighbours"
    "\\$3 = 2\n"
    "cusim: CUDA thread \\(0,0,0\\) of block \\(0,0,0\\) has exited")
  set(reject "#0  __pthread_kill" "Python Exception")
elseif(SESSION STREQUAL "step")
  set(expect
    "14\t  s\\[t\\] = mine;\n15\t  __syncthreads\\(\\);\n16\t  const int left"
    "\\$1 = 2\n"
    # every thread reached the barrier; threads 0 and 1, released first, have finished
    "  \\(0,0,0\\)-\\(1,0,0\\) +\\(0,0,0\\) +exited"
    "\\* \\(2,0,0\\) +\\(0,0,0\\) +running +debug_kernel\\.cu:16"
    "  \\(3,0,0\\)-\\(7,0,0\\) +\\(0,0,0\\) +ready +debug_kernel\\.cu:15")
  set(reject "Python Exception")
elseif(SESSION STREQUAL "unmodified")
  # An unmodified .cu kernel built by the nvcc driver: a line breakpoint for thread 3 of block 1.
  set(expect
    "Breakpoint 1, shift \\(in=0x[0-9a-f]+, out=0x[0-9a-f]+\\) at [^\n]*unmodified_kernel\\.cu:14\n14\t  out\\[blockIdx\\.x \\* 8 \\+ t\\] = mine \\+ right;"
    "\\$1 = 3\n\\$2 = 130\n"
    "  \\(0,0,0\\)-\\(2,0,0\\) +\\(1,0,0\\) +exited"
    "\\* \\(3,0,0\\) +\\(1,0,0\\) +running +unmodified_kernel\\.cu:14"
    "  \\(4,0,0\\)-\\(7,0,0\\) +\\(1,0,0\\) +ready +unmodified_kernel\\.cu:12"
    "\\[Switching focus to CUDA thread \\(6,0,0\\), block \\(1,0,0\\)\\]\n#[0-9]+ +0x[0-9a-f]+ in shift \\([^\n]*unmodified_kernel\\.cu:12\n12\t  __syncthreads\\(\\);"
    "\nt = 6\nmine = 150\n"
    "\\$3 = 120\nout\\[13\\] = 290\n"
    "exited normally")
  set(reject "Python Exception")
elseif(SESSION STREQUAL "unmodified_fault")
  # CUSIM_BREAK on a raw-pointer overrun of an unmodified program: thread 232 of block 3 reads a[1000].
  set(expect
    "cusim: CUSIM_BREAK: stopping in the faulting thread\ntid=\\[232, 0, 0\\] ctaid=\\[3, 0, 0\\]: invalid global read of 4 bytes at 0x[0-9a-f]+: 0 bytes past the end of a 4000-byte allocation of device memory \\(cudaMalloc\\)"
    "cusim: CUSIM_BREAK stopped the faulting thread; selected frame #[0-9]+:\n#[0-9]+ +0x[0-9a-f]+ in add \\([^\n]*malloc_off_by_one\\.cu:6\n6\t  if \\(i <= n\\)"
    "\\$1 = 1000\n\\$2 = 1000\n"
    "add: cudaErrorIllegalAddress"
    "exited normally")
  set(reject "Python Exception")
else()
  set(expect
    "cusim: CUSIM_BREAK: stopping in the faulting thread\ntid=\\[7, 0, 0\\] ctaid=\\[0, 0, 0\\]: index 8 is out of bounds for axis 0 with size 8 \\(global array, debug_kernel\\.cu:22\\)"
    "Program received signal SIGTRAP"
    "cusim: CUSIM_BREAK stopped the faulting thread; selected frame #[0-9]+:\n#[0-9]+ +0x[0-9a-f]+ in faulty \\(out=\\.\\.\\.\\) at [^\n]*debug_kernel\\.cu:22\n22\t  out\\[threadIdx\\.x \\+ 1\\] = doubled;"
    "\ndoubled = 14\n"
    "in faulty\\(cusim::span<int>\\) \\(out=\\.\\.\\.\\) at [^\n]*debug_kernel\\.cu:22"
    "  \\(0,0,0\\)-\\(6,0,0\\) +\\(0,0,0\\) +exited"
    "\\* \\(7,0,0\\) +\\(0,0,0\\) +running +debug_kernel\\.cu:22"
    "caught: tid=\\[7, 0, 0\\] ctaid=\\[0, 0, 0\\]: index 8 is out of bounds"
    "exited normally")
  set(reject "Python Exception")
endif()

foreach(pattern IN LISTS expect)
  if(NOT out MATCHES "${pattern}")
    message(FATAL_ERROR "gdb session '${SESSION}': expected output matching\n  ${pattern}")
  endif()
endforeach()
foreach(pattern IN LISTS reject)
  if(out MATCHES "${pattern}")
    message(FATAL_ERROR "gdb session '${SESSION}': unexpected output matching\n  ${pattern}")
  endif()
endforeach()
