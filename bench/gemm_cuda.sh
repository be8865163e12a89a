#!/bin/sh
# bench/gemm_cuda.sh: the complete Hopper GEMM of `twill emit --format cuda
# --complete`, checked without a GPU and, where one is, run against cuBLAS.
#
#   1. emit: twill emit gemm-hopper --format cuda --complete (the solved
#      schedule) -> $OUT/gemm_hopper.cu;
#   2. compile as users do, nvcc -arch=sm_90a, and with the -gencode form
#      (ptxas -v), and the skeleton (--format cuda) both ways with -c;
#   3. registers: ptxas's figure for the kernel (with setmaxnreg it is the
#      allocation at launch, the register file over the threads) and its
#      spill/stack bytes, against the model: the setmaxnreg budget of each
#      warpgroup in the .cu and the registers per thread `twill solve`
#      says each warpgroup needs; no C7507 (ptxas reports it when it has to
#      ignore a setmaxnreg);
#   4. SASS (cuobjdump -sass, when installed): HGMMA (wgmma), UTMALDG (TMA
#      loads), the highest register index used (below the MMA warpgroup's
#      budget), no local memory (LDL/STL); without cuobjdump, the PTX
#      (wgmma.mma_async, cp.async.bulk.tensor) instead, said plainly;
#   5. with a Hopper GPU (nvidia-smi lists one): run SIZES (default 256 1024
#      2048 4096 8192, cubes) plus ragged sizes, numerics against a CPU
#      reference and cuBLAS, TFLOP/s of both in the same process.
#
# Environment: NVCC (default: nvcc on PATH or /usr/local/cuda/bin/nvcc),
# OUT (build/bench/gemm_cuda), SIZES, REPS (30), RUN=0 to skip step 5.
# Exit status: non-zero when a check fails (compile, spills, C7507, missing
# HGMMA/UTMALDG, numerics).
set -e
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${OUT:-$ROOT/build/bench/gemm_cuda}
SIZES=${SIZES:-256 1024 2048 4096 8192}
REPS=${REPS:-30}
mkdir -p "$OUT"
[ -x bin/twill ] || make -s
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
  echo "gemm_cuda: nvcc not found: nothing to compile (set NVCC)"; exit 1
fi
CUBIN=$(dirname "$NVCC")
fail=0

echo "== 1. emit"
bin/twill emit gemm-hopper --format cuda --complete -o "$OUT/gemm_hopper.cu"
bin/twill solve gemm-hopper > "$OUT/solve.txt"
bin/twill emit gemm-hopper --format cuda > "$OUT/skeleton_heuristic.cu"
bin/twill solve gemm-hopper --emit cuda -o "$OUT/skeleton_solved.cu" > /dev/null
grep -E "^// (schedule|I =)" "$OUT/gemm_hopper.cu"
grep -E "constexpr int (kBM|kStages|kThreads)" "$OUT/gemm_hopper.cu"

echo "== 2. compile ($("$NVCC" --version | tail -1))"
GENCODE=-gencode=arch=compute_90a,code=sm_90a
"$NVCC" -std=c++17 -O3 -arch=sm_90a -Werror all-warnings -o "$OUT/gemm_arch" \
  "$OUT/gemm_hopper.cu" > "$OUT/nvcc_arch.log" 2>&1 && echo "nvcc -arch=sm_90a: ok" ||
  { echo "nvcc -arch=sm_90a: FAILED"; cat "$OUT/nvcc_arch.log"; fail=1; }
"$NVCC" -std=c++17 -O3 $GENCODE -Werror all-warnings -Xptxas -v -o "$OUT/gemm" \
  "$OUT/gemm_hopper.cu" > "$OUT/ptxas.log" 2>&1 && echo "nvcc $GENCODE: ok" ||
  { echo "nvcc $GENCODE: FAILED"; cat "$OUT/ptxas.log"; fail=1; }
"$NVCC" -std=c++17 -O3 $GENCODE -ptx -o "$OUT/gemm.ptx" "$OUT/gemm_hopper.cu"
for sk in skeleton_heuristic skeleton_solved; do
  for fl in -arch=sm_90a $GENCODE; do
    "$NVCC" -std=c++17 $fl -Werror all-warnings -c -o "$OUT/$sk.o" "$OUT/$sk.cu" \
      > "$OUT/$sk.log" 2>&1 && echo "$sk, nvcc $fl -c: ok" ||
      { echo "$sk, nvcc $fl -c: FAILED"; cat "$OUT/$sk.log"; fail=1; }
  done
done

echo "== 3. registers: ptxas against the model"
used=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' "$OUT/ptxas.log" | head -1)
spill=$(grep -o "[0-9]* bytes stack frame, [0-9]* bytes spill stores, [0-9]* bytes spill loads" \
  "$OUT/ptxas.log" | head -1)
echo "ptxas: $used registers per thread at launch; $spill"
if grep -q C7507 "$OUT/ptxas.log"; then
  echo "ptxas ignored a setmaxnreg (C7507): FAILED"; fail=1
else
  echo "ptxas kept every setmaxnreg (no C7507)"
fi
case "$spill" in "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads") ;;
  *) echo "spills or stack: FAILED"; fail=1 ;; esac
printf '%-12s %-22s %-16s %s\n' warpgroup "model: regs needed" "setmaxnreg" "roles"
for wg in 0 1 2; do
  need=$(sed -n "s/^  warpgroup $wg (warps [0-9-]*, \([0-9]*\) regs\/thread needed): \(.*\)/\1|\2/p" \
    "$OUT/solve.txt")
  [ -n "$need" ] || continue
  budget=$(grep -A1 "if (wg == $wg) {" "$OUT/gemm_hopper.cu" | sed -n 's/.*setmaxnreg_\(inc\|dec\)<\([0-9]*\)>.*/\2/p')
  printf '%-12s %-22s %-16s %s\n' "$wg" "${need%%|*}" "${budget:-launch}" "${need#*|}"
done

echo "== 4. machine code"
if command -v cuobjdump > /dev/null 2>&1 || [ -x "$CUBIN/cuobjdump" ]; then
  CUOBJDUMP=$(command -v cuobjdump || echo "$CUBIN/cuobjdump")
  "$CUOBJDUMP" -sass "$OUT/gemm" > "$OUT/gemm.sass"
  h=$(grep -c HGMMA "$OUT/gemm.sass" || true); t=$(grep -c UTMALDG "$OUT/gemm.sass" || true)
  l=$(grep -cE '\b(LDL|STL)\b' "$OUT/gemm.sass" || true)
  maxr=$(grep -oE '\bR[0-9]+\b' "$OUT/gemm.sass" | tr -d R | sort -n | tail -1)
  echo "SASS: $h HGMMA, $t UTMALDG, $l LDL/STL, highest register R$maxr"
  grep -m1 HGMMA "$OUT/gemm.sass"; grep -m1 UTMALDG "$OUT/gemm.sass"
  [ "$h" -gt 0 ] && [ "$t" -gt 0 ] && [ "$l" -eq 0 ] || { echo "SASS check: FAILED"; fail=1; }
else
  echo "cuobjdump not installed here: SASS not checked (the PTX instead)"
  echo "PTX: $(grep -c 'wgmma.mma_async' "$OUT/gemm.ptx") wgmma.mma_async," \
       "$(grep -c 'cp.async.bulk.tensor' "$OUT/gemm.ptx") cp.async.bulk.tensor," \
       "$(grep -c 'setmaxnreg' "$OUT/gemm.ptx") setmaxnreg"
fi

echo "== 5. run"
if [ "${RUN:-1}" = 0 ] || ! nvidia-smi -L 2>/dev/null | grep -q GPU; then
  echo "no GPU here (or RUN=0): not run"
else
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  args=""
  for s in $SIZES; do args="$args --cube $s"; done
  "$OUT/gemm" --size 256 256 64 --size 1000 520 776 --reps 5 || fail=1
  "$OUT/gemm" $args --reps "$REPS" --warmup 5 | tee "$OUT/table.txt" || fail=1
fi
[ $fail = 0 ] && echo "gemm_cuda: all checks passed" || echo "gemm_cuda: FAILED"
exit $fail
