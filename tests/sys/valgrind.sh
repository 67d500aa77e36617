#!/bin/sh
# valgrind.sh - valgrind memcheck on short end-to-end runs (doc/testing.md): a workload run, a
# trace run, a DRAM trace, a probe, a config check, an analysis and a run that fails on a bad
# input (the error path frees what it built too). Each must exit as it does without valgrind
# and valgrind must report no error and no leak (definite, indirect or possible). Skipped when
# valgrind is not installed or the binary is a sanitizer build (ASan and valgrind do not mix).
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
if ! command -v valgrind >/dev/null 2>&1; then
	echo "1..0 # SKIP valgrind is not installed"
	exit 0
fi
if grep -aq -e __asan_init -e __ubsan_handle "$GMSIM"; then
	echo "1..0 # SKIP sanitizer build (valgrind and ASan do not mix)"
	exit 0
fi
C=configs/test/small-gpu.cfg
T=$tap_tmp/tr
python3 "$GMSIM_SRCDIR/tests/trace/gen_traces.py" "$T" >/dev/null || { echo "Bail out! gen_traces.py"; exit 1; }

# vg NAME STATUS ARGS...: gmsim ARGS under memcheck exits STATUS with a clean report.
vg() {
	name=$1 want=$2
	shift 2
	(cd "$GMSIM_SRCDIR" && valgrind -q --error-exitcode=99 --leak-check=full \
		--show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible \
		--log-file="$tap_tmp/vg.log" "$GMSIM" "$@") >/dev/null 2>"$tap_tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ] && [ ! -s "$tap_tmp/vg.log" ]; then
		pass "$name: exit $want, no error, no leak"
	else
		fail "$name: exit $want, no error, no leak" "exit $rc" "$(head -n 40 "$tap_tmp/vg.log")" \
			"$(head -n 5 "$tap_tmp/err")"
	fi
}

plan 9
vg "run (stride workload)" 0 run -q -c $C -w workloads/stride.wl -p n=2048
vg "run --trace (copy)" 0 run -q -c $C --trace "$T/copy/kernelslist.g"
vg "run --trace .xz (copy)" 0 run -q -c $C --trace "$T/copy_xz/kernelslist.g"
vg "dram (native trace)" 0 dram -c configs/test/gddr6-16ch.cfg --trace tests/data/dram/mixed_native.trace
vg "probe (chase)" 0 probe -c $C --chase --footprint-kb 64 --loads 50
vg "config check" 0 config check -c configs/default.cfg
vg "analyze (stride)" 0 analyze -c $C -w workloads/stride.wl -p n=2048
vg "a bad config (error path)" 1 config check -c tests/bad/config/truncated.cfg
vg "a bad trace (error path)" 1 run -q -c $C --trace tests/bad/trace/insts_too_many/kernelslist.g
done_testing
