#!/bin/sh
# dram.sh - simulated requests per second of `gmsim dram` on two 2,000,000-request traces
# (sequential 64 B reads; uniform random 64 B reads over 4 GiB), each on a GDDR6 and an HBM2e
# config. The traces are written once, in DRAMsim3's format, to the build tree (about 50 MB each).
# A benchmark, not a test: it prints rates. Run by `make bench`.
#   usage: bench/dram.sh GMSIM SRCDIR [REQUESTS]
set -eu
gmsim=$1
src=$2
n=${3:-2000000}
dir=bench/traces
mkdir -p "$dir"
seq_trace=$dir/seq64-$n.trace
rnd_trace=$dir/rand64-$n.trace
if [ ! -s "$seq_trace" ]; then
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "0x%x READ %d\n", i * 64, 0 }' \
		>"$seq_trace"
fi
if [ ! -s "$rnd_trace" ]; then
	# 2^26 slots of 64 B = 4 GiB; two draws because awk's rand() has 31 good bits at most.
	awk -v n="$n" 'BEGIN { srand(1); for (i = 0; i < n; i++) {
		slot = int(rand() * 65536) * 1024 + int(rand() * 1024)
		printf "0x%x READ %d\n", slot * 64, 0 } }' >"$rnd_trace"
fi
for cfg in gddr6-16ch hbm2e-40ch; do
	for trace in "$seq_trace" "$rnd_trace"; do
		out=$("$gmsim" dram -c "$src/configs/test/$cfg.cfg" --trace "$trace")
		kind=$(basename "$trace" | sed 's/64-.*//')
		printf '%s %-6s %s\n' "$cfg" "$kind" \
			"$(printf '%s\n' "$out" | sed -n 's/^run: \([0-9]*\) requests.*; host \(.*\)$/\1 requests; \2/p')"
		printf '%s %-6s %s\n' "$cfg" "$kind" \
			"$(printf '%s\n' "$out" | sed -n 's/^bandwidth: \(achieved [^;]*\);.*/\1/p')"
	done
done
