#!/bin/sh
# probe.sh - the whole hierarchy (L1, crossbar, L2 slices, controllers, DRAM) driven by
# `gmsim probe` on configs/test/small-gpu.cfg (16 KB L1s, 128 KB of L2, 4 GDDR6 channels).
#   - a pointer chase shows three plateaus (L1 hit, L2 hit, DRAM) with knees at the cache sizes,
#     the first at exactly the configured L1 hit latency plus the two SM link cycles;
#   - a many-SM stream is limited by DRAM on the config as it is, and by the crossbar when its
#     reply ports are made narrow, and the statistics show which.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 19
C=configs/test/small-gpu.cfg

lat() { printf '%s\n' "$out" | awk -v kb="$1" '$1 == kb { print $2 }'; }

run_gmsim probe -c $C --chase --sweep-kb 4:2048 --loads 300
expect_eq "chase sweep exits 0" 0 "$rc"
printf '%s\n' "$out" | sed 's/^/# /'
h1=$(run_gmsim config show -c $C; printf '%s\n' "$out" | sed -n '/^l1:/,/^};/s/^  hit_latency_cycles = \([0-9]*\);.*/\1/p')
l1a=$(lat 4) l1b=$(lat 16) l2a=$(lat 32) l2b=$(lat 128) d1=$(lat 512) d2=$(lat 2048)
expect_num "L1 plateau = l1.hit_latency_cycles ($h1) + 2 link cycles, up to the 16 KB L1" \
	"$l1a == $h1 + 2 && $l1b == $l1a"
expect_num "L2 plateau from 32 KB to the 128 KB of L2 ($l2a, $l2b)" \
	"$l2a == $l2b && $l2a > $l1a + 50"
expect_num "DRAM plateau beyond the L2 ($d1, $d2 cycles)" \
	"($d1 - $d2) <= 0.05 * $d2 && ($d2 - $d1) <= 0.05 * $d2 && $d1 > $l2a + 30"

# The plateaus are the unloaded latencies `config check` derives (from single loads on a fresh
# machine): L2 hit exactly, DRAM at the row-miss figure (a chase opens a new row every time).
run_gmsim config check -c $C
u=$(printf '%s\n' "$out" | sed -n 's/.*L2 hit \([0-9]*\) .*row miss \([0-9]*\) .*/\1 \2/p')
set -- $u
expect_num "config check's L2 hit ($1) is the chase's L2 plateau ($l2a)" "$1 == $l2a"
d50=$(run_gmsim probe -c $C --chase --footprint-kb 2048 --loads 300; printf '%s\n' "$out" | awk '$1 == 2048 { print $3 }')
expect_num "config check's DRAM row miss ($2) is the chase's DRAM p50 ($d50) within 2 cycles" \
	"$d50 - $2 <= 2 && $2 - $d50 <= 2"

# Stream on the config as it is: DRAM-bound (112 GB/s peak: 4 x 16 pins x 14 Gb/s / 8).
run_gmsim probe -c $C --stream --footprint-kb 4096 --loads 20000 --stats-json "$tap_tmp/s.json"
expect_eq "stream exits 0" 0 "$rc"
gbps=$(printf '%s\n' "$out" | sed -n 's/.* \([0-9.]*\) GB\/s$/\1/p')
set -- $(jget "$tap_tmp/s.json" xbar.reply.busy_cycles)
note_busy=$1
expect_num "DRAM-bound stream: $gbps GB/s is 70-100% of the 112 GB/s DRAM peak" \
	"$gbps >= 0.70 * 112 && $gbps <= 112"
cycles=$(printf '%s\n' "$out" | sed -n 's/.*KB: \([0-9]*\) core cycles.*/\1/p')
expect_num "DRAM-bound stream: the crossbar reply ports are not saturated" \
	"$note_busy < 0.90 * 4 * $cycles"

# Narrow reply ports: 8 B per crossbar cycle into each SM; a line reply is 8 + 128 B = 17
# cycles, so 4 SMs get at most 4 x 128 B / (17 / 1.5 GHz) = 45.2 GB/s.
run_gmsim probe -c $C --stream --footprint-kb 4096 --loads 20000 -o xbar.reply_port_bytes=8 \
	--stats-json "$tap_tmp/x.json"
expect_eq "crossbar-bound stream exits 0" 0 "$rc"
xg=$(printf '%s\n' "$out" | sed -n 's/.* \([0-9.]*\) GB\/s$/\1/p')
xc=$(printf '%s\n' "$out" | sed -n 's/.*KB: \([0-9]*\) core cycles.*/\1/p')
bound=$(awk 'BEGIN { printf "%.2f", 4 * 128 / (17 / 1.5) }')
set -- $(jget "$tap_tmp/x.json" xbar.reply.busy_cycles xbar.reply.stall_busy)
expect_num "crossbar-bound stream: $xg GB/s is 60-100% of the $bound GB/s reply-port bound" \
	"$xg <= $bound && $xg >= 0.60 * $bound"
expect_num "crossbar-bound stream: reply ports busy over 70% of the time ($1 of 4 x $xc)" \
	"$1 >= 0.70 * 4 * $xc"
expect_num "crossbar-bound stream: inputs wait for busy reply ports ($2 stall cycles)" "$2 > $xc"
expect_num "crossbar-bound stream is slower than the DRAM-bound one" "$xg < 0.6 * $gbps"

# Determinism: the same run twice, the same statistics (host fields aside).
run_gmsim probe -c $C --stream --footprint-kb 1024 --loads 5000 --stats-json "$tap_tmp/d1.json"
run_gmsim probe -c $C --stream --footprint-kb 1024 --loads 5000 --stats-json "$tap_tmp/d2.json"
expect_eq "same inputs, same statistics" "$(cat "$tap_tmp/d1.json")" "$(cat "$tap_tmp/d2.json")"
# Bad input: a clear message and the documented exit codes.
run_gmsim probe -c $C --chase --stride 7
expect_eq "a stride that is not a multiple of 8 exits 1" 1 "$rc"
expect_eq "a stride that is not a multiple of 8: message" \
	"gmsim: error: probe: --stride must be a multiple of 8 bytes, got 7" "$err"
run_gmsim probe -c $C --footprint-kb 64
expect_eq "neither --chase nor --stream exits 2" 2 "$rc"
run_gmsim probe -c $C --chase --sweep-kb 8:4
expect_eq "a sweep with LO > HI exits 2" 2 "$rc"
done_testing
