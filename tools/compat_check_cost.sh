#!/bin/sh
# SPDX-License-Identifier: MIT
# The cost of the checks of unmodified code on compat programs: each built twice with cusim's nvcc
# driver (the default instrumentation, and CUSIM_NVCC_UNCHECKED=1), then run alone, in turn, with
# CUSIM_WORKERS=2 (and once more with CUSIM_CHECK=race,init when CHECKERS=1). Prints seconds.
#   tools/compat_check_cost.sh BUILD_DIR SAMPLES_DIR [program ...]
set -eu
build=$(cd "$1" && pwd); samples=$(cd "$2" && pwd); shift 2
[ $# -gt 0 ] || set -- BlackScholes matrixMul transpose
work=${WORK:-/tmp/cusim-check-cost}
export CUDACXX="$build/cuda/bin/nvcc" CUSIM_WORKERS=2
# seconds DIR PROGRAM [VAR=VALUE ...]: the wall time of PROGRAM run in DIR (where samples find data).
seconds() { dir=$1 prog=$2; shift 2; start=$(date +%s.%N)
            (cd "$dir" && env "$@" "$prog" >/dev/null 2>&1) || echo "  ($prog exited $?)" >&2
            echo "$(date +%s.%N) - $start" | bc | xargs printf '%.1f'; }
printf '%-16s %10s %10s %8s%s\n' program unchecked checked ratio "${CHECKERS:+   race,init}"
for name in "$@"; do
  src=$(find "$samples" -mindepth 2 -maxdepth 2 -type d -name "$name" | head -1)
  for mode in unchecked checked; do
    rm -rf "$work/$mode/$name"
    if [ $mode = unchecked ]; then flag=1; else flag=0; fi
    CUSIM_NVCC_UNCHECKED=$flag cmake -S "$src" -B "$work/$mode/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    CUSIM_NVCC_UNCHECKED=$flag cmake --build "$work/$mode/$name" >/dev/null
  done
  u=$(seconds "$src" "$work/unchecked/$name/$name")
  c=$(seconds "$src" "$work/checked/$name/$name")
  extra=""
  if [ -n "${CHECKERS:-}" ]; then extra=$(seconds "$src" "$work/checked/$name/$name" CUSIM_CHECK=race,init); fi
  printf '%-16s %10s %10s %8s %s\n' "$name" "$u" "$c" "$(echo "$c / $u" | bc -l | xargs printf '%.2f')" "$extra"
done
