#!/bin/sh
# analyze.sh - `gmsim analyze`: the coalescing seed cases per instruction (32 consecutive floats:
# 1 line, 4 sectors, efficiency 1; stride 32 floats: 32 lines, 32 sectors, 4 of 128 bytes of
# each line used; lanes 1000 B apart: 12.5 % of the moved bytes used; bytes 120-248: 2 lines;
# AoS .x: 3 lines, 12 sectors), reuse distances and LRU hit rates on a hand-computed stream,
# the L1/L2 predictions, n/a (not nan) where nothing was counted, and bad input.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 16
C=configs/test/small-gpu.cfg

per_inst() { # FILE: lines/inst sectors/inst efficiency used_sector used_line of op 0
	set -- "$1" $(jget "$1" coal.op0.mem_insts coal.op0.requests coal.op0.sectors \
		coal.op0.efficiency coal.op0.used_sector coal.op0.used_line)
	awk "BEGIN { print $3 / $2, $4 / $2, $5, $6, $7 }"
}

run_gmsim analyze -c $C -w workloads/stride.wl -p n=8192 --stats-json "$tap_tmp/s1.json"
expect_eq "stride 1 exits 0" 0 "$rc"
expect_eq "32 consecutive floats: 1 line, 4 sectors, efficiency 1, all bytes used" \
	"1 4 1 1 1" "$(per_inst "$tap_tmp/s1.json")"
run_gmsim analyze -c $C -w workloads/stride.wl -p n=8192 -p stride=32 --stats-json "$tap_tmp/s32.json"
expect_eq "stride 32 floats: 32 lines, 32 sectors, 12.5 % of sectors, 4/128 of lines used" \
	"32 32 0.125 0.125 0.03125" "$(per_inst "$tap_tmp/s32.json")"
run_gmsim analyze -c $C -w workloads/stride.wl -p n=8192 -p stride=250 --stats-json "$tap_tmp/s250.json"
set -- $(per_inst "$tap_tmp/s250.json")
expect_num "lanes 1000 B apart: 32 sectors, 12.5 % of moved bytes used ($2, $4)" \
	"$2 == 32 && $4 == 0.125"
run_gmsim analyze -c $C -w workloads/straddle.wl --stats-json "$tap_tmp/st.json"
set -- $(per_inst "$tap_tmp/st.json")
expect_num "bytes 120-248: 2 lines, 5 sectors ($1, $2)" "$1 == 2 && $2 == 5"
run_gmsim analyze -c $C -w workloads/aos.wl --stats-json "$tap_tmp/aos.json"
set -- $(per_inst "$tap_tmp/aos.json") $(jget "$tap_tmp/aos.json" coal.efficiency)
expect_num "AoS .x: 3 lines, 12 sectors, efficiency 1/3 ($1, $2, $6)" \
	"$1 == 3 && $2 == 12 && abs($6 - 1/3) < 1e-9"
expect_match "the report flags the poor instruction" \
	'^ +0 +[0-9]+ load +p +4 .* poor$' "$out"

# reuse4.wl: sectors s0..s3 four times (4 cold, 12 reuses at distance 3); the line 4 times
# (1 cold, 3 at distance 0). LRU of 3 sectors (96 B) hits nothing, of 4 sectors 12 of 16.
run_gmsim analyze -c $C -w tests/data/analyze/reuse4.wl --capacity 96,128,1K \
	--stats-json "$tap_tmp/r4.json"
set -- $(jget "$tap_tmp/r4.json" reuse.sector.accesses reuse.sector.cold reuse.sector.hist.2 \
	reuse.sector.hit_rate_96 reuse.sector.hit_rate_128 reuse.sector.hit_rate_1k)
expect_eq "sector reuse: 16 accesses, 4 cold, 12 at distance 2..3, hit rates 0 / 0.75 / 0.75" \
	"16 4 12 0 0.75 0.75" "$*"
set -- $(jget "$tap_tmp/r4.json" reuse.line.accesses reuse.line.cold reuse.line.hist.0 \
	reuse.line.hit_rate_96 reuse.line.hit_rate_128)
expect_eq "line reuse: 4 accesses, 1 cold, 3 at distance 0; 96 B holds no line" "4 1 3 0 0.75" "$*"
# The small GPU has 16 KB L1s: 12 of the 16 load sectors hit; the L2 sees the 4 cold misses.
set -- $(jget "$tap_tmp/r4.json" predict.l1_hit_rate predict.l2_hit_rate predict.l1_bytes)
expect_eq "predicted L1 0.75, L2 0 (only cold misses reach it), L1 16 KB" "0.75 0 16384" "$*"

run_gmsim analyze -c $C -w tests/data/analyze/oob.wl
expect_eq "an index outside its array: exit 1, file:line: op: message" \
	"1 gmsim: error: tests/data/analyze/oob.wl:8: load: index 32 is outside a[0..32)" "$rc $err"
run_gmsim analyze -c $C --capacity 12Q
expect_eq "a bad --capacity: exit 2 naming the entry" \
	"2 gmsim analyze: --capacity: \"12Q\": expected a size such as 128K, 4M or 40M" \
	"$rc $(printf '%s\n' "$err" | head -1)"
run_gmsim analyze -c $C -w workloads/aos.wl -w workloads/soa.wl
expect_eq "two workloads: exit 2, one at a time" \
	"2 gmsim analyze: one workload at a time (-w given 2 times)" \
	"$rc $(printf '%s\n' "$err" | head -1)"
# A kernel whose only load sits in a loop of 0 iterations: nothing counted, so no rate is
# printed as a number (the report printed "nan" for each).
cat >"$tap_tmp/none.wl" <<'EOF2'
kernel = "none";
grid = 2;
block = [64, 1, 1];
arrays = ( { name = "a"; elems = 64; type = "float"; } );
body = ( { op = "loop"; var = "i"; count = 0;
	   body = ( { op = "load"; array = "a"; index = "tx"; reg = "v"; } ); },
	 { op = "alu"; latency = 4; } );
EOF2
run_gmsim analyze -c $C -w "$tap_tmp/none.wl"
expect_eq "nothing counted: exit 0, no nan in the report" "0 0" \
	"$rc $(printf '%s\n' "$out" | grep -ci nan)"
expect_match "... n/a for the op, the total and the hit rates" \
	'efficiency n/a; 0 of 0 bytes moved used \(n/a\)' "$out"
expect_match "... and the predictions" '^predicted sector hit rates: L1 n/a .* L2 n/a ' "$out"
done_testing
