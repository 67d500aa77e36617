#!/bin/sh
# trace.sh - `gmsim run --trace`: the traces tests/trace/gen_traces.py writes (a copy, a naive
# transpose, a pointer chase; doc/trace.md) give the same memory statistics as the same kernels
# in the workload language (same addresses, same coalescing, same cache and DRAM requests); a
# .traceg.xz trace reads like the plain one; MemcpyHtoD warms the L2; version-6 lines are
# tolerated; and each kind of bad input stops with its file:line message and exit 1.
# `gmsim analyze --trace` on each trace prints the same totals, reuse distances and predicted
# hit rates as `gmsim analyze -w` on its twin (everything from the totals line on, exactly).
# gen_traces.py itself: --help prints its usage, and an OUTDIR starting with '-' is refused (it
# once wrote its traces into a folder named --help).
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 31
C=configs/test/small-gpu.cfg
T=$tap_tmp/tr
python3 "$GMSIM_SRCDIR/tests/trace/gen_traces.py" "$T" || { echo "Bail out! gen_traces.py"; exit 1; }
G=$GMSIM_SRCDIR/tests/trace/gen_traces.py
(cd "$tap_tmp" && python3 "$G" --help >help.out 2>&1); rc=$?
[ -e "$tap_tmp/--help" ] && made=yes || made=no
expect_eq "gen_traces.py --help: exit 0, the usage, no folder" "0 1 no" \
	"$rc $(grep -c '^    python3 tests/trace/gen_traces.py OUTDIR' "$tap_tmp/help.out") $made"
(cd "$tap_tmp" && python3 "$G" --out x >opt.out 2>opt.err); rc=$?
[ -e "$tap_tmp/--out" ] || [ -e "$tap_tmp/x" ] && made=yes || made=no
expect_eq "gen_traces.py --out x: exit 2, why on stderr, no folder" \
	"2 gen_traces.py: unknown option '--out' (an OUTDIR never starts with '-'; for a folder of that name write ./--out) no" \
	"$rc $(head -1 "$tap_tmp/opt.err") $made"
MEM="sim.mem_insts coal.mem_insts coal.requests coal.sectors coal.ideal_transactions
	coal.bytes_requested coal.bytes_moved l1.accesses l2.accesses dram.reads dram.writes
	dram.bytes_moved"

for k in copy transpose chase; do
	run_gmsim run -q -c $C --trace "$T/$k/kernelslist.g" --stats-json "$tap_tmp/$k.t.json"
	rt=$rc
	run_gmsim run -q -c $C -w "$T/$k/$k.wl" --stats-json "$tap_tmp/$k.w.json"
	expect_eq "$k: the trace and the workload run (exit 0 0)" "0 0" "$rt $rc"
	expect_eq "$k: identical memory statistics ($(jget "$tap_tmp/$k.t.json" coal.requests) requests)" \
		"$(jget "$tap_tmp/$k.w.json" $MEM)" "$(jget "$tap_tmp/$k.t.json" $MEM)"
done
set -- $(jget "$tap_tmp/transpose.t.json" coal.requests coal.sectors sim.warp_insts)
expect_eq "transpose: 128 lines per warp of loads + stores x 4 rows; 11 instructions per warp" \
	"16896 18432 1408" "$*"

run_gmsim run -q -c $C --trace "$T/copy_xz/kernelslist.g" --stats-json "$tap_tmp/xz.json"
expect_eq "copy as .traceg.xz: exit 0, the statistics of the plain trace" \
	"0 $(jget "$tap_tmp/copy.t.json" sim.warp_insts $MEM)" "$rc $(jget "$tap_tmp/xz.json" sim.warp_insts $MEM)"

run_gmsim run -q -c $C --trace "$T/warm/kernelslist.g" --stats-json "$tap_tmp/warm.json"
set -- $(jget "$tap_tmp/warm.json" trace.l2_warm_lines l2.hits dram.reads)
expect_eq "MemcpyHtoD of the 32 KiB source: 256 lines in the L2, every load hits, no DRAM read" \
	"0 256 256 0" "$rc $*"

run_gmsim run -q -c $C --trace "$T/v6/kernelslist.g" --stats-json "$tap_tmp/v6.json"
set -- $(jget "$tap_tmp/v6.json" sim.warp_insts coal.mem_insts)
expect_eq "tracer version 6 (UR registers, imm2, register values): exit 0, 3 instructions" \
	"0 3 1" "$rc $*"

run_gmsim run -q -c $C --trace "$T/err_trunc/kernelslist.g"
expect_eq "truncated file" "1 gmsim: error: $T/err_trunc/kernel-1.traceg:25: truncated: warp 0 announces 2 instructions (insts = 2), the file ends after 1" "$rc $err"
run_gmsim run -q -c $C --trace "$T/err_badline/kernelslist.g"
expect_eq "bad line" "1 gmsim: error: $T/err_badline/kernel-1.traceg:25: expected the active mask (8 hexadecimal digits) after the PC" "$rc $err"
run_gmsim run -q -c $C --trace "$T/err_delta/kernelslist.g"
expect_eq "base-delta with popcount deltas (the parser off-by-one) is a bad line" "1 gmsim: error: $T/err_delta/kernel-1.traceg:24: unexpected \"0\" after the immediate at the end of the line (base-delta mode has one delta per active lane after the first, popcount(mask) - 1)" "$rc $err"
run_gmsim run -q -c $C --trace "$T/err_unknown/kernelslist.g" --stats-json "$tap_tmp/unk.json"
expect_eq "unknown opcode: one warning for FROBNICATE and FROBNICATE.X, run as ALU" "0 gmsim: warning: $T/err_unknown/kernel-1.traceg:24: unknown opcode FROBNICATE (not in the ampere table of data/isa/latency.cfg): run as ALU work of 4 cycles; --strict makes this an error" "$rc $err"
expect_eq "unknown opcode: counted" "2" "$(jget "$tap_tmp/unk.json" trace.unknown_insts)"
run_gmsim run -q -c $C --strict --trace "$T/err_unknown/kernelslist.g"
expect_eq "unknown opcode with --strict" "1 gmsim: error: $T/err_unknown/kernel-1.traceg:24: unknown opcode FROBNICATE: not in the ampere table of data/isa/latency.cfg (binary version 80)" "$rc $err"
run_gmsim run -q -c $C --trace "$T/err_missing/kernelslist.g"
expect_eq "missing kernel file" "1 gmsim: error: $T/err_missing/kernelslist.g:2: $T/err_missing/kernel-2.traceg: cannot open: No such file or directory" "$rc $err"
run_gmsim run -q -c $C --trace "$T/copy/kernelslist.g" -w workloads/stream_copy.wl
expect_eq "--trace with -w: usage error" "2" "$rc"

# gmsim analyze --trace: from the totals line to the end (totals, reuse distances at sector and
# line granularity, LRU hit rates, predicted hit rates) as for the workload twin
tail_from_total() { printf '%s\n' "$1" | sed -n '/^  total:/,$p'; }
for k in copy transpose chase; do
	run_gmsim analyze -c $C --trace "$T/$k/kernelslist.g" --stats-json "$tap_tmp/$k.ta.json"
	rt=$rc ta=$(tail_from_total "$out")
	run_gmsim analyze -c $C -w "$T/$k/$k.wl"
	expect_eq "analyze $k: trace and workload (exit 0 0), same totals, reuse and predictions" \
		"0 0 $(tail_from_total "$out")" "$rt $rc $ta"
done
# 16 blocks through 3 slots (3 SMs, one block each), refilled in block order: the line
# distances depend on that order (1536 line reuses at 32-1023 move between buckets), and the
# trace must refill its slots exactly as the workload does
O="-o gpu.sms=3 -o sm.max_blocks=1"
run_gmsim analyze -c $C $O --trace "$T/transpose/kernelslist.g"
rt=$rc ta=$(tail_from_total "$out")
run_gmsim analyze -c $C $O -w "$T/transpose/transpose.wl"
expect_eq "analyze transpose on 3 slots: the same lines as the workload" \
	"0 0 $(tail_from_total "$out")" "$rt $rc $ta"
COAL="coal.mem_insts coal.requests coal.sectors coal.ideal_transactions coal.bytes_requested
	coal.bytes_moved"
expect_eq "analyze --trace counts the coalescer's work of run --trace (copy, transpose)" \
	"$(jget "$tap_tmp/copy.t.json" $COAL) $(jget "$tap_tmp/transpose.t.json" $COAL)" \
	"$(jget "$tap_tmp/copy.ta.json" $COAL) $(jget "$tap_tmp/transpose.ta.json" $COAL)"
run_gmsim analyze -c $C --trace "$T/transpose/kernelslist.g"
expect_eq "analyze transpose: a record per kernel and PC with its opcode (the store at 0x30)" \
	"   1  1       30  STG.E.SYS            store   4      128       32.00         32.00       0.125         12.5%        3.1%  poor" \
	"$(printf '%s\n' "$out" | grep '^   1  1 ')"

run_gmsim analyze -c $C --trace "$T/copy/kernelslist.g"
plain=$out
run_gmsim analyze -c $C --trace "$T/copy_xz/kernelslist.g"
expect_eq "analyze copy as .traceg.xz: exit 0, the output of the plain trace" \
	"0 $plain" "$rc $(printf '%s\n' "$out" | sed "s#$T/copy_xz/kernel-1.traceg.xz#$T/copy/kernel-1.traceg#")"
run_gmsim analyze -c $C --trace "$T/warm/kernelslist.g"
expect_eq "analyze after MemcpyHtoD of the source: every load sector hits the predicted L2" \
	"0 MemcpyHtoD: 1 copy of 32768 bytes in all warm the predicted L2
predicted sector hit rates: L1 0.000 (16K per SM, loads); L2 0.500 (128K, L1 misses and stores)" \
	"$rc $(printf '%s\n' "$out" | grep -E '^(MemcpyHtoD|predicted)')"
run_gmsim analyze -c $C --trace "$T/err_missing/kernelslist.g"
expect_eq "analyze: missing kernel file" "1 gmsim: error: $T/err_missing/kernelslist.g:2: $T/err_missing/kernel-2.traceg: cannot open: No such file or directory" "$rc $err"
run_gmsim analyze -c $C --trace "$T/err_trunc/kernelslist.g"
expect_eq "analyze: truncated file (found while streaming the blocks)" "1 gmsim: error: $T/err_trunc/kernel-1.traceg:25: truncated: warp 0 announces 2 instructions (insts = 2), the file ends after 1" "$rc $err"
run_gmsim analyze -c $C --trace "$T/copy/kernelslist.g" -w "$T/copy/copy.wl"
expect_eq "analyze --trace with -w: usage error" "2 gmsim analyze: --trace analyses a trace: -w and -p do not apply to it
Try 'gmsim analyze --help'." "$rc $err"
done_testing
