#!/bin/sh
# run.sh - `gmsim run`: the shipped workloads end to end on configs/test/small-gpu.cfg (4 SMs,
# 16 KB L1s, 128 KB of L2, 112 GB/s of GDDR6), each with small parameters:
#   - the stride sweep's coalescing efficiency (1.0 at stride 1, 0.125 at stride 32);
#   - naive vs tiled transpose: the tiled stores are coalesced (1 line request per store
#     instruction vs 32), and the unpadded tile has 32-way bank conflicts, the padded none;
#   - a pointer chase inside the L1 runs at the L1 plateau of `gmsim probe` (30 cycles), one far
#     beyond the L2 much slower;
#   - a stream copy reaches a good share of the DRAM peak;
#   - coalescing seed cases: a warp straddling a 128 B boundary (2 lines, 5 sectors), AoS .x
#     (efficiency 1/3: 3 lines and 12 sectors per warp) vs SoA (1.0), a random gather (far
#     below 1); the STREAM triad is DRAM-bound;
#   - blur with a shared tile makes fewer L2 accesses than the untiled blur (its L1 hit rate is
#     lower, not higher: the re-reads go to shared memory); the untiled blur at w = 1024, a pitch
#     of 4 KB + 8 B, puts a block's rows in 2 of the 16 KB L1's 32 linear sets and thrashes, and
#     keeps its reuse with one set of the same size (workloads/README.md);
#   - a bad -p name is a user error naming the parameter; two runs give the same statistics;
#   - a kernel without memory instructions reports no efficiency and no load latency.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 34
C=configs/test/small-gpu.cfg


run_gmsim run -c $C -w workloads/stride.wl -p n=8192 --stats-json "$tap_tmp/s1.json"
expect_eq "stride 1 exits 0" 0 "$rc"
printf '%s\n' "$out" | sed 's/^/# /'
run_gmsim run -c $C -w workloads/stride.wl -p n=8192 -p stride=32 --stats-json "$tap_tmp/s32.json"
set -- $(jget "$tap_tmp/s1.json" coal.efficiency) $(jget "$tap_tmp/s32.json" coal.efficiency)
expect_num "stride 1: coal.efficiency 1.0 ($1)" "$1 == 1"
expect_num "stride 32: coal.efficiency 0.125 ($2)" "$2 == 0.125"
set -- $(jget "$tap_tmp/s1.json" sim.cycles sim.time_ns sim.events sim.warp_insts sim.mem_insts \
	dram.peak_gbps l1.hit_rate l2.hit_rate load_latency_cycles.p99)
expect_num "run-level names present (cycles $1, warp_insts $4, mem_insts $5)" \
	"$1 > 0 && $2 > 0 && $3 > 0 && $4 == 512 && $5 == 256 && $6 > 100 && $9 > 0"

# Transpose, 128 x 128: 512 loads and 512 stores; naive stores walk a column (32 lines each).
run_gmsim run -c $C -w workloads/transpose_naive.wl -p n=128 --stats-json "$tap_tmp/tn.json"
expect_eq "naive transpose exits 0" 0 "$rc"
run_gmsim run -c $C -w workloads/transpose_tiled.wl -p n=128 --stats-json "$tap_tmp/t1.json"
run_gmsim run -c $C -w workloads/transpose_tiled.wl -p n=128 -p pad=0 --stats-json "$tap_tmp/t0.json"
per_store() {
	set -- $(jget "$1" coal.requests coal.mem_insts coal.store_insts)
	awk "BEGIN { print ($1 - ($2 - $3)) / $3 }"
}
n=$(per_store "$tap_tmp/tn.json") t=$(per_store "$tap_tmp/t1.json")
expect_num "line requests per store instruction: naive 32 ($n), tiled 1 ($t)" "$n == 32 && $t == 1"
set -- $(jget "$tap_tmp/t1.json" sm.shared_bank_conflicts sm.shared_insts sim.cycles) \
	$(jget "$tap_tmp/t0.json" sm.shared_bank_conflicts sim.cycles)
expect_num "pad=1: no bank conflicts ($1)" "$1 == 0 && $2 == 1024"
expect_num "pad=0: 32-way conflicts on the 512 column reads ($4 = 512 x 31)" "$4 == 512 * 31"
set -- $(jget "$tap_tmp/tn.json" sim.cycles) $3
expect_num "tiled transpose beats naive ($2 vs $1 cycles)" "$2 < $1"

# Pointer chase: 8 KB fits the 16 KB L1 (30 cycles = hit latency 28 + 2 link cycles, as the
# probe's L1 plateau); 2 MB is beyond the 128 KB L2.
run_gmsim run -c $C -w workloads/pointer_chase.wl -p footprint_kb=8 -p loads=2000 \
	--stats-json "$tap_tmp/c1.json"
run_gmsim run -c $C -w workloads/pointer_chase.wl -p footprint_kb=2048 -p loads=1000 \
	--stats-json "$tap_tmp/c2.json"
set -- $(jget "$tap_tmp/c1.json" load_latency_cycles.p50) $(jget "$tap_tmp/c2.json" load_latency_cycles.p50)
expect_num "chase in L1: p50 latency at the L1 plateau, 30 cycles ($1)" "$1 >= 30 && $1 < 31"
expect_num "chase beyond L2: p50 latency much larger ($2)" "$2 > 5 * $1"

# Stream copy: 2 x 1 MB through the caches once.
run_gmsim run -c $C -w workloads/stream_copy.wl -p n=262144 --stats-json "$tap_tmp/sc.json"
set -- $(jget "$tap_tmp/sc.json" dram.achieved_gbps dram.peak_gbps)
expect_num "stream copy: $1 GB/s is over half the $2 GB/s DRAM peak" "$1 >= 0.5 * $2 && $1 <= $2"

# Coalescing seed cases (default parameters).
run_gmsim run -c $C -w workloads/straddle.wl --stats-json "$tap_tmp/st.json"
set -- $rc $(jget "$tap_tmp/st.json" coal.mem_insts coal.requests coal.sectors)
expect_num "straddle: 1 warp load -> $3 line requests, $4 sectors (2, 5)" \
	"$1 == 0 && $2 == 1 && $3 == 2 && $4 == 5"
run_gmsim run -c $C -w workloads/aos.wl --stats-json "$tap_tmp/aos.json"
set -- $rc $(jget "$tap_tmp/aos.json" coal.mem_insts coal.requests coal.sectors coal.efficiency)
expect_num "aos .x: 3 lines, 12 sectors per warp, efficiency 1/3 ($5)" \
	"$1 == 0 && $2 > 0 && $3 == 3 * $2 && $4 == 12 * $2 && $5 > 0.333 && $5 < 0.334"
run_gmsim run -c $C -w workloads/soa.wl --stats-json "$tap_tmp/soa.json"
set -- $rc $(jget "$tap_tmp/soa.json" coal.mem_insts coal.requests coal.efficiency)
expect_num "soa x[]: 1 line per warp, efficiency 1.0 ($4)" "$1 == 0 && $2 > 0 && $3 == $2 && $4 == 1"
run_gmsim run -c $C -w workloads/gather.wl --stats-json "$tap_tmp/ga.json"
set -- $rc $(jget "$tap_tmp/ga.json" coal.efficiency)
expect_num "random gather: efficiency well below 1 ($2)" "$1 == 0 && $2 > 0 && $2 < 0.5"
run_gmsim run -c $C -w workloads/stream_triad.wl --stats-json "$tap_tmp/tr.json"
set -- $rc $(jget "$tap_tmp/tr.json" dram.achieved_gbps dram.peak_gbps)
expect_num "stream triad: $2 GB/s of the $3 GB/s DRAM peak" "$1 == 0 && $2 >= 0.5 * $3 && $2 <= $3"

# Blur, 256 x 64: the tile cuts global loads (5120 -> 2560 warp loads) and L2 accesses. The L2
# saving is there because 64 warps thrash the 16 KB 4-way L1 on the plain blur (hit rate 0.59,
# bound 0.80); with one set (-o l1.cache.assoc=128) both fetch about the same (README).
run_gmsim run -c $C -w workloads/blur.wl --stats-json "$tap_tmp/bl.json"
run_gmsim run -c $C -w workloads/blur_tiled.wl --stats-json "$tap_tmp/bt.json"
set -- $(jget "$tap_tmp/bl.json" l2.accesses l1.hit_rate) $(jget "$tap_tmp/bt.json" l2.accesses l1.hit_rate)
expect_num "tiled blur: fewer L2 accesses ($3 vs $1; L1 hit rate $4 vs $2)" "$3 > 0 && $3 < $1"
# The untiled blur at w = 1024: its hit-rate bound is 0.80 (141 load line requests over 20
# lines per block, 8 store misses); 4-way linear sets thrash (about 0.04), one set keeps ~0.76.
run_gmsim run -c $C -w workloads/blur.wl -p w=1024 -p h=16 -o l1.cache.index=linear \
	--stats-json "$tap_tmp/ba.json"
run_gmsim run -c $C -w workloads/blur.wl -p w=1024 -p h=16 -o l1.cache.assoc=128 \
	--stats-json "$tap_tmp/bf.json"
set -- $(jget "$tap_tmp/ba.json" l1.hit_rate l1.stall_no_line) \
	$(jget "$tap_tmp/bf.json" l1.hit_rate l1.stall_no_line)
expect_num "blur w=1024: set aliasing, L1 hit rate $1 ($2 no-line stall cycles) vs $3 in one set" \
	"$1 < 0.2 && $2 > 0 && $3 > 0.7 && $3 <= 0.8 && $4 == 0"

# Every DESIGN section 6 name is in --stats-json (distributions as objects with mean/p50/p99).
missing=$(jget "$tap_tmp/sc.json" sim.cycles sim.time_ns sim.host_seconds sim.events \
	sim.warp_insts sim.mem_insts coal.mem_insts coal.requests coal.sectors \
	coal.ideal_transactions coal.efficiency coal.bytes_requested coal.bytes_moved \
	l1.accesses l1.hits l1.hit_rate l1.mshr_merges l1.reservation_fails l2.accesses l2.hits \
	l2.hit_rate l2.mshr_merges l2.reservation_fails dram.requests dram.reads dram.writes \
	dram.bytes_moved dram.bytes_useful dram.peak_gbps dram.achieved_gbps dram.row_hit_rate \
	dram.refreshes dram.refresh_pct dram.ecc_pct dram.read_latency_ns.mean \
	dram.read_latency_ns.p50 dram.read_latency_ns.p99 dram.read_latency_ns.count \
	load_latency_cycles.mean load_latency_cycles.p50 load_latency_cycles.p99 \
	load_latency_cycles.count | grep -c missing)
expect_eq "every DESIGN section 6 name is in --stats-json" 0 "$missing"
# The load path: one line per load in the copy, so the stage means add up to the load mean.
set -- $(jget "$tap_tmp/sc.json" load_latency_cycles.mean load_stage.created \
	load_stage.l1_access load_stage.l1_miss load_stage.xbar_req load_stage.l2_access \
	load_stage.l2_miss load_stage.l2_fill load_stage.xbar_reply load_stage.l1_fill \
	load_stage.mc_queue load_stage.dram_issue load_stage.dram_done load_stage.requests \
	dram.requests dram.reads dram.writes)
expect_num "stage means add up to the load latency ($1) and the L2 miss stage is the largest" \
	"abs($2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 + ${10} + ${11} + ${12} + ${13} - $1) < 0.01 && \
	$7 > $3 && $7 > $6 && ${14} == 8192 && ${15} == ${16} + ${17}"
expect_match "the report shows the load path and the DRAM waterfall" \
	'load path .*requests, [0-9.]+ in all.*32 B DRAM read: [0-9.]+ queued.*= achieved' \
	"$(printf '%s\n' "$out" | tr '\n' ' ')"

# Transpose pair, 256 x 256: the naive column stores cost 16.5 times the L2 requests per
# useful byte (2048 loads + 2048 x 32 store lines against 2048 + 2048), about 2.7 times the
# crossbar bytes and over twice the cycles. The DRAM bytes grow less (1.14 times here): the L2
# merges the 4 B column writes of a block's 8 warps into 32 B sectors, so only sectors evicted
# before the block completes them cost extra DRAM traffic, which this 128 KB L2 does now and
# then and the default GPU's 6 MB L2 hardly at all (1.8 times when the SM's schedulers took
# the LD/ST unit in a fixed order: the block's warps then stored further apart in time).
run_gmsim run -c $C -w workloads/transpose_naive.wl -p n=256 --stats-json "$tap_tmp/n2.json"
run_gmsim run -c $C -w workloads/transpose_tiled.wl -p n=256 --stats-json "$tap_tmp/g2.json"
set -- $(jget "$tap_tmp/n2.json" l2.accesses xbar.req.bytes xbar.reply.bytes dram.bytes_moved \
	sim.cycles) $(jget "$tap_tmp/g2.json" l2.accesses xbar.req.bytes xbar.reply.bytes \
	dram.bytes_moved sim.cycles)
expect_num "naive transpose: $1 vs $6 L2 requests, crossbar $2+$3 vs $7+$8 B, $5 vs ${10} cycles" \
	"$1 == 16.5 * $6 && $2 + $3 > 2.5 * ($7 + $8) && $5 > 2 * ${10} && $4 > 1.1 * $9"

# Two kernels: the second (its own -p: half the grid) starts where the first ended and finds
# its 128 lines in the warm L2.
run_gmsim run -q -c $C -w workloads/stride.wl -p n=8192 -w workloads/stride.wl -p n=4096 \
	--stats-json "$tap_tmp/k2.json"
set -- $rc $(jget "$tap_tmp/k2.json" kernel0.start kernel0.end kernel1.start kernel1.end \
	sim.cycles sim.warp_insts l2.hits)
expect_num "two kernels in order: [$2, $3] then [$4, $5]; $8 L2 hits in the second" \
	"$1 == 0 && $2 == 0 && $4 >= $3 && $5 > $4 && $6 == $5 && $7 == 512 + 256 && \
	$8 == 128 && $5 - $4 < ($3 - $2) / 2"
expect_match "the report lists both launches" 'then stride .*grid \(16, 1, 1\)' "$out"

# `gmsim run` with no arguments: the default config and workload.
run_gmsim run -q --stats-json "$tap_tmp/def.json"
expect_eq "gmsim run with no arguments runs the default stream copy" \
	"0 kernel stream_copy (workloads/stream_copy.wl) on default (V100-class clocks)" \
	"$rc $(printf '%s\n' "$out" | head -1 | cut -d: -f1)"
# ... and from a directory without them, an error that says which default is missing.
err=$(cd "$tap_tmp" && "$GMSIM" run -q 2>&1 >/dev/null)
expect_eq "no default config here: exit 1 naming it" \
	"gmsim: error: configs/default.cfg: cannot open: No such file or directory (the default config, relative to the current directory; give -c FILE)" \
	"$err"
# The 64 L2 slices share the 32 controllers fairly: their mean miss latencies stay within 30 %
# of each other (when the slice ticked first took every freed controller entry, the last
# slice's was 2.8 times the first's).
set -- $(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
l = [d["l2s%d" % i]["latency_miss"]["mean"] for i in range(64)]
print(min(l), max(l))' "$tap_tmp/def.json")
expect_num "fair L2 -> controller admission: slice miss latency $1 .. $2" "$2 < 1.3 * $1"

run_gmsim run -c $C -w workloads/stride.wl -p bogus=3
expect_eq "bad -p: exit 1 with the loader's message" "1 bogus: unknown parameter" \
	"$rc $(printf '%s\n' "$err" | sed -n 's/.*-p bogus=3: \(bogus: unknown parameter\).*/\1/p')"

# Determinism: same inputs, same statistics (host fields aside).
strip() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["gmsim"].pop("host_seconds", None)
d["sim"].pop("host_seconds", None)
print(json.dumps(d, sort_keys=True))' "$1"
}
run_gmsim run -c $C -w workloads/transpose_tiled.wl -p n=128 --stats-json "$tap_tmp/d2.json"
expect_eq "same inputs, same statistics" "$(strip "$tap_tmp/t1.json")" "$(strip "$tap_tmp/d2.json")"
# The run ends where the kernel drained: the default copy's HBM2 refresh share of bank time is
# tRFC / tREFI (about 2.5 %); a run whose clock went on to the end of its last event-queue
# slice after the last block counted 34 % more refreshes (3.4 %) over the same bank time.
run_gmsim run -q --stats-json "$tap_tmp/def.json"
set -- $(jget "$tap_tmp/def.json" dram.refresh_pct)
expect_num "default run: refresh share $1 % of bank time (the run stops at its drain)" \
	"$1 > 2.3 && $1 < 2.7"
# A kernel without a memory instruction: no efficiency and no load latency to report (the
# report printed "nan" for both; --stats-json has null).
cat >"$tap_tmp/alu.wl" <<'EOF2'
kernel = "alu";
grid = 2;
block = [64, 1, 1];
body = ( { op = "alu"; latency = 10; } );
EOF2
run_gmsim run -c $C -w "$tap_tmp/alu.wl"
expect_eq "no memory instruction: exit 0, no nan in the report" "0 0" \
	"$rc $(printf '%s\n' "$out" | grep -ci nan)"
expect_match "... efficiency n/a" '^  coalescing   0 memory instructions .*; efficiency n/a$' "$out"
expect_match "... load latency none" '^  load latency none \(0 loads\)$' "$out"
done_testing
