#!/bin/sh
# trace.sh - `gmsim run --trace`: the traces tests/trace/gen_traces.py writes (a copy, a naive
# transpose, a pointer chase; doc/trace.md) give the same memory statistics as the same kernels
# in the workload language (same addresses, same coalescing, same cache and DRAM requests); a
# .traceg.xz trace reads like the plain one; MemcpyHtoD warms the L2; version-6 lines are
# tolerated; and each kind of bad input stops with its file:line message and exit 1.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 18
C=configs/test/small-gpu.cfg
T=$tap_tmp/tr
python3 "$GMSIM_SRCDIR/tests/trace/gen_traces.py" "$T" || { echo "Bail out! gen_traces.py"; exit 1; }
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
done_testing
