#!/bin/sh
# fixedmem.sh - the fixed-latency memory (memory.model = "fixed", sim/mem/fixedmem.c) end to end
# on configs/test/small-gpu.cfg (4 SMs at 1500 MHz): `gmsim run`, `gmsim probe` and
# `gmsim config check`. Every number checked follows from memory.latency_cycles (L) and
# memory.requests_per_cycle alone:
#   - a request pushed by an SM at cycle c is visible to the memory at c + 1 (link latency 1),
#     taken then (if the rate allows), replied to at c + 1 + L and popped by the SM at
#     c + L + 2 (link latency 1): an unqueued load takes L + 2 cycles;
#   - the k-th line of a burst waits k / requests_per_cycle cycles more;
#   - no L1, L2 or DRAM access happens; a bad model name is an error.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 12
C=configs/test/small-gpu.cfg
# Expanded unquoted, so the double quotes reach gmsim as in -o 'memory.model="fixed"'.
F='-o memory.model="fixed" -o memory.latency_cycles=100'


# A pointer chase, L = 100: each load is one line request, and the SM issues the next load in
# the cycle it pops the reply, so every load takes L + 2 = 102 cycles, and the one-thread
# kernel, which issues its first load at cycle 0 and retires with the last reply, 200 x 102.
run_gmsim run -c $C $F -w workloads/pointer_chase.wl -p footprint_kb=8 -p loads=200 \
	--stats-json "$tap_tmp/f1.json"
set -- $rc $(jget "$tap_tmp/f1.json" load_latency_cycles.mean load_latency_cycles.min \
	load_latency_cycles.max load_latency_cycles.count)
expect_num "chase: every load takes L + 2 = 102 cycles (mean $2, min $3, max $4)" \
	"$1 == 0 && $2 == 102 && $3 == 102 && $4 == 102 && $5 == 200"
set -- $(jget "$tap_tmp/f1.json" sim.cycles mem.requests mem.replies l1.accesses l2.accesses \
	dram.reads)
expect_num "chase: 200 x 102 cycles ($1); 200 requests replied, no L1, L2 or DRAM access" \
	"$1 == 200 * 102 && $2 == 200 && $3 == 200 && $4 == 0 && $5 == 0 && $6 == 0"

# The rate: the straddling warp load is 2 line requests, pushed together by an LD/ST unit that
# hands over 2 a cycle; at 1 request per cycle the memory takes the second a cycle after the
# first (L + 3, one queue cycle), at 2 per cycle both at once (L + 2).
run_gmsim run -c $C $F -o sm.ldst_requests_per_cycle=2 -w workloads/straddle.wl \
	--stats-json "$tap_tmp/f2.json"
run_gmsim run -c $C $F -o sm.ldst_requests_per_cycle=2 -o memory.requests_per_cycle=2 \
	-w workloads/straddle.wl --stats-json "$tap_tmp/f3.json"
set -- $(jget "$tap_tmp/f2.json" load_latency_cycles.max mem.queue_cycles) \
	$(jget "$tap_tmp/f3.json" load_latency_cycles.max mem.queue_cycles)
expect_num "2 lines at 1 request per cycle take L + 3 ($1), at 2 per cycle L + 2 ($3)" \
	"$1 == 103 && $2 == 1 && $3 == 102 && $4 == 0"

# STREAM copy on the default config, default L = 400: one warp instruction per SM per cycle and
# one line each, so nothing queues and every load takes 402 cycles; stores are answered too.
# One scheduler: a load never shares its cycle's LD/ST slot with a store of another scheduler.
run_gmsim run -c configs/default.cfg -o 'memory.model="fixed"' -o sm.schedulers=1 \
	-w workloads/stream_copy.wl -p n=65536 --stats-json "$tap_tmp/f4.json"
set -- $rc $(jget "$tap_tmp/f4.json" coal.requests mem.requests mem.loads mem.stores mem.replies)
expect_num "stream copy runs: $3 requests ($4 loads, $5 stores), $6 replied" \
	"$1 == 0 && $2 == 4096 && $3 == 4096 && $4 == 2048 && $5 == 2048 && $6 == 4096"
set -- $(jget "$tap_tmp/f4.json" load_latency_cycles.min load_latency_cycles.max dram.reads)
expect_num "stream copy: every load takes 402 cycles (min $1, max $2), no DRAM read" \
	"$1 == 402 && $2 == 402 && $3 == 0"

# Bad input.
run_gmsim run -c $C -o 'memory.model="ideal"' -w workloads/stride.wl
expect_eq "bad memory.model exits 1" 1 "$rc"
expect_eq "bad memory.model: message" \
	'gmsim: error: -o memory.model="ideal": memory.model: expected one of "hierarchy", "fixed", got "ideal"' \
	"$err"
run_gmsim run -c $C -o memory.latency_cycles=0 -w workloads/stride.wl
expect_eq "memory.latency_cycles = 0: message" \
	'gmsim: error: -o memory.latency_cycles=0: memory.latency_cycles: expected an integer in 1..1000000, got 0' \
	"$err"

# gmsim probe works with the fixed model: a chase is flat at L + 2 whatever the footprint
# (L = 50 here); a stream of whole lines with enough in flight (64 per SM >= (L + 2) x rate)
# runs at the rate: 4 SMs x 1 x 128 B per core cycle of 667 ps = 767.6 GB/s.
run_gmsim probe -c $C -o 'memory.model="fixed"' -o memory.latency_cycles=50 --chase \
	--sweep-kb 4:4096 --loads 100
flat=$(printf '%s\n' "$out" | awk 'NR > 1 && ($2 != 52 || $3 != 52 || $4 != 52) { bad++ }
	NR > 1 { n++ } END { print n + 0, bad + 0 }')
expect_eq "probe chase: 11 footprints, every one at L + 2 = 52 cycles (mean, p50, p99)" \
	"11 0" "$flat"
run_gmsim probe -c $C -o 'memory.model="fixed"' -o memory.latency_cycles=20 --stream \
	--window 64 --footprint-kb 4096 --loads 20000
gbps=$(printf '%s\n' "$out" | sed -n 's/.* \([0-9.]*\) GB\/s$/\1/p')
bound=$(awk 'BEGIN { printf "%.1f", 4 * 128 / 0.667 }')
expect_num "probe stream: $gbps GB/s is 95-100% of the $bound GB/s the rate allows" \
	"$gbps <= $bound && $gbps >= 0.95 * $bound"

# gmsim config check: the fixed memory's latency and rate instead of the hierarchy's figures
# (probe_unloaded refuses the fixed model: its four levels do not exist).
run_gmsim config check -c $C -o 'memory.model="fixed"' -o memory.latency_cycles=50
expect_match "config check prints the fixed latency" \
	'^memory: fixed latency, 50 core cycles \(33\.4 ns\) .*, 52 as the SM sees it' "$out"
expect_eq "config check: no hierarchy or unloaded-latency line" "0" \
	"$(printf '%s\n' "$out" | grep -c -e '^hierarchy' -e 'unloaded')"
done_testing
