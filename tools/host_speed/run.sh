#!/bin/sh
# SPDX-License-Identifier: MIT
# Host code's speed in a driver-built .cu: host_loops.cu built by the plain host compiler (as C++,
# __global__ defined away, the driver's FMA flags), by cusim's nvcc (host code uninstrumented) and by cusim's nvcc with
# CUSIM_NVCC_HOST_CHECKS=1 (host code instrumented), at the same -O; each program run RUNS times,
# the ratios to the plain build printed per run (the best of 5 timings per loop inside a run).
#   tools/host_speed/run.sh TOOLKIT [CXX] [OPT] [RUNS]    e.g. tools/host_speed/run.sh build-host/cuda g++ -O2 3
set -e
toolkit=$(cd "$1" && pwd); cxx=${2:-g++}; opt=${3:--O2}; runs=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
# The driver's FMA flags where this CPU has FMA (driver.py: fma_flags), so that only the instrumentation differs.
fma=$(grep -qw fma /proc/cpuinfo 2>/dev/null && echo "-mfma -ffp-contract=fast" || true)
"$cxx" -x c++ -std=c++20 "$opt" $fma -D__global__= -DthreadIdx='dim3{}' -include "$here/plain_host.hpp" "$here/host_loops.cu" -o "$out/plain"
NVCC_CCBIN="$cxx" "$toolkit/bin/nvcc" "$opt" -o "$out/driver" "$here/host_loops.cu"
CUSIM_NVCC_HOST_CHECKS=1 NVCC_CCBIN="$cxx" "$toolkit/bin/nvcc" "$opt" -o "$out/checked" "$here/host_loops.cu"
for r in $(seq "$runs"); do
  "$out/plain" > "$out/p.txt"; "$out/driver" > "$out/d.txt"; "$out/checked" > "$out/c.txt"
  echo "run $r ($cxx $opt): loop plain-ms driver-ms (ratio) host-checks-ms (ratio)"
  for loop in raw vector helper lambda serial; do
    p=$(awk -v l=$loop '$1 == l {print $2}' "$out/p.txt"); d=$(awk -v l=$loop '$1 == l {print $2}' "$out/d.txt")
    c=$(awk -v l=$loop '$1 == l {print $2}' "$out/c.txt")
    awk -v l=$loop -v p="$p" -v d="$d" -v c="$c" 'BEGIN { printf "  %-7s %8.2f %8.2f (%.2fx) %8.2f (%.2fx)\n", l, p, d, d / p, c, c / p }'
  done
done
