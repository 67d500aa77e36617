#!/usr/bin/env bash
# Build and run blocktime (see README.md) on GPU 0.  The CSV goes to stdout and,
# when $OUT is set, to $OUT/blocktime.csv (nvidia-smi details to $OUT/nvidia-smi.txt).
# The binary is built in a temporary directory, nothing is written to the tree.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

. "$here/nvcc.sh"
find_nvcc
"$NVCC" --version | tail -n 2

bin=$(mktemp -d)/blocktime
build_cu "$here/blocktime.cu" "$bin"

out=/dev/null smi=/dev/null
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT"
    out=$OUT/blocktime.csv smi=$OUT/nvidia-smi.txt
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.draw,temperature.gpu \
    --format=csv 2>&1 | tee "$smi" || true
nvidia-smi -q -d CLOCK,PERFORMANCE >>"$smi" 2>&1 || true

if ! "$bin" --selftest | tail -n 1; then
    echo "run.sh: analysis selftest failed (continuing)" >&2
fi
timeout "${BT_TIMEOUT:-300}" "$bin" 2>&1 | tee "$out"

echo "--- after the run" | tee -a "$smi"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv 2>&1 | tee -a "$smi" || true
