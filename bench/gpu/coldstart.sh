#!/usr/bin/env bash
# Runs coldstart.cu (see its head) on GPU 0 with the SM clock sampled every 20 ms by
# nvidia-smi; CSV to stdout and, when $OUT is set, $OUT/coldstart.csv and $OUT/clocks.csv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/nvcc.sh"
bin=$(mktemp -d)/coldstart
build_cu "$here/coldstart.cu" "$bin"
out=${OUT:-$(mktemp -d)}
sleep "${COLD_IDLE_S:-20}" # let the GPU fall back to its idle clocks
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv,noheader \
	-lms 20 >"$out/clocks.csv" 2>&1 &
smi=$!
sleep 1
"$bin" | tee "$out/coldstart.csv"
sleep 1
kill "$smi" || true
echo "clock samples: $(wc -l <"$out/clocks.csv")"
