#!/bin/sh
# determinism.sh - the same inputs and seed give byte-identical statistics (doc/limits.md):
#   - two runs of each of several workloads and configs (a strided kernel, a random-order pointer
#     chase, a stream copy on the HBM config, two Accel-Sim traces from gen_traces.py), with
#     --stats-no-host, write the same JSON byte for byte, and it holds no host value;
#   - two `gmsim dram` runs (random reads and writes, with refresh) with --stats-no-host
#     write the same JSON, and it holds neither a host value nor the simulator's event count;
#   - a sweep at -j 1 and at -j 2 writes the same results.csv byte for byte;
#   - a golden run (tests/data/determinism/chase.json) matches byte for byte in whichever build
#     runs this test: `make check` in the release build and in the --enable-debug + sanitizer
#     build compare against the same file, so the invariant checks of the debug build cannot
#     change a result. The golden's "gmsim" header (version, config hash) is compared apart
#     (seed only): the hash changes whenever any config key is added. To regenerate after a
#     deliberate change of the model:
#       gmsim run -q -c configs/test/small-gpu.cfg -w workloads/pointer_chase.wl \
#         -p footprint_kb=64 -p loads=500 --stats-no-host --stats-json tests/data/determinism/chase.json
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 14
C=configs/test/small-gpu.cfg
T=$tap_tmp/tr
python3 "$GMSIM_SRCDIR/tests/trace/gen_traces.py" "$T" || { echo "Bail out! gen_traces.py"; exit 1; }

# work_keys FILE: how many "events" and "ticks" keys (sim.events, sim.ticks) a JSON file has.
work_keys() {
	printf '%s %s' "$(grep -c '"events"' "$1")" "$(grep -c '"ticks"' "$1")"
}

# twice NAME ARGS...: runs `gmsim run -q ARGS` twice and compares the JSON byte for byte.
twice() {
	name=$1
	shift
	run_gmsim run -q "$@" --stats-no-host --stats-json "$tap_tmp/1.json"
	r1=$rc
	run_gmsim run -q "$@" --stats-no-host --stats-json "$tap_tmp/2.json"
	if [ "$r1 $rc" = "0 0" ] && cmp -s "$tap_tmp/1.json" "$tap_tmp/2.json"; then
		pass "$name: two runs, byte-identical statistics"
	else
		fail "$name: two runs, byte-identical statistics" "exit $r1 $rc" \
			"$(diff "$tap_tmp/1.json" "$tap_tmp/2.json" | head -20)"
	fi
}
twice "stride" -c $C -w workloads/stride.wl -p n=8192 -p stride=4
twice "random pointer chase" -c $C -w workloads/pointer_chase.wl -p footprint_kb=256 -p loads=1500
twice "stream copy, HBM2e" -c configs/test/hbm2e-40ch.cfg -w workloads/stream_copy.wl -p n=65536
twice "trace: copy" -c $C --trace "$T/copy/kernelslist.g"
twice "trace: chase" -c $C --trace "$T/chase/kernelslist.g"
expect_eq "--stats-no-host leaves no host value, event or tick count in the JSON" "0 0 0" \
	"$(grep -c host "$tap_tmp/1.json") $(work_keys "$tap_tmp/1.json")"
run_gmsim run -q -c $C -w workloads/stride.wl -p n=8192 --stats-json "$tap_tmp/h.json"
expect_eq "... which a plain --stats-json has (gmsim.host_seconds, sim.host_seconds, sim.events, sim.ticks)" \
	"2 1 1" \
	"$(grep -c '"host_seconds"' "$tap_tmp/h.json") $(work_keys "$tap_tmp/h.json")"

# gmsim dram: --stats-no-host drops sim.host_seconds, sim.events and sim.ticks (the simulator's
# work).
D="dram -c configs/test/gddr6-16ch.cfg --pattern random --requests 20000 --write-fraction 0.3"
run_gmsim $D --stats-no-host --stats-json "$tap_tmp/d1.json"
r1=$rc
run_gmsim $D --stats-no-host --stats-json "$tap_tmp/d2.json"
expect_eq "gmsim dram: two runs, exit 0 0, byte-identical statistics" "0 0 same" \
	"$r1 $rc $(cmp -s "$tap_tmp/d1.json" "$tap_tmp/d2.json" && echo same)"
expect_eq "gmsim dram --stats-no-host: no host value, no event or tick count" "0 0 0" \
	"$(grep -c host "$tap_tmp/d1.json") $(work_keys "$tap_tmp/d1.json")"
run_gmsim $D --stats-json "$tap_tmp/d3.json"
expect_eq "... which a plain --stats-json has (gmsim.host_seconds, sim.host_seconds, sim.events, sim.ticks)" \
	"2 1 1" \
	"$(grep -c '"host_seconds"' "$tap_tmp/d3.json") $(work_keys "$tap_tmp/d3.json")"

# A sweep at -j 1 and -j 2.
run_gmsim sweep tests/data/sweep/small.sweep --out "$tap_tmp/j1" -j 1 -q
r1=$rc
run_gmsim sweep tests/data/sweep/small.sweep --out "$tap_tmp/j2" -j 2 -q
expect_eq "small.sweep at -j 1 and -j 2: exit 0 0, results.csv byte-identical" "0 0 same" \
	"$r1 $rc $(cmp -s "$tap_tmp/j1/results.csv" "$tap_tmp/j2/results.csv" && echo same)"

# The golden, in whichever build this is.
G=tests/data/determinism/chase.json
run_gmsim run -q -c $C -w workloads/pointer_chase.wl -p footprint_kb=64 -p loads=500 \
	--stats-no-host --stats-json "$tap_tmp/g.json"
expect_eq "golden run exits 0" 0 "$rc"
body() { sed '/^  "gmsim": {$/,/^  },$/d' "$1"; }
expect_eq "golden run: every statistic byte for byte ($G)" "$(body "$GMSIM_SRCDIR/$G")" \
	"$(body "$tap_tmp/g.json")"
expect_eq "golden run: the same seed" "$(jget "$GMSIM_SRCDIR/$G" gmsim.seed)" \
	"$(jget "$tap_tmp/g.json" gmsim.seed)"
done_testing
