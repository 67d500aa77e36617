#!/bin/sh
# instructions.sh - the instruction table of doc/performance.md: instructions executed (the whole
# process, start-up included) by two gmsim binaries on the same small runs, their ratio, and the
# conditional branches cachegrind's branch simulation mispredicts (a simple predictor's count,
# not the CPU's, but it moves the same way: on the DRAM rows a misprediction costs more time
# than a dozen instructions). On a shared, noisy machine CPU seconds move by up to 25% between
# minutes; these counts do not (they undercount divisions and cache misses, so they complement
# bench/speed.py's CPU seconds, they do not replace them). A benchmark: it prints figures and
# checks nothing.
#   usage: bench/instructions.sh [--misses] OLD_GMSIM NEW_GMSIM   (from the source folder; needs
#          valgrind)
# --misses: instead of the branches, the data reads that miss a simulated 48 KB 12-way first level
# and a 2 MB 16-way second (this machine's L1d and L2 per core): where a full-GPU run's time goes
# that its instructions do not show (cachegrind plays no prefetch, hardware or software).
# The runs: an A100-class copy of 512 Ki floats, naive transpose n = 256 and a 10 k-load chase;
# the same copy on the shipped A100-40GB config (whose L1s, as every shipped GPU's, have 4 sets of
# 128-352 ways); the V100 naive transpose as an Accel-Sim trace (n = 256); 100 k sequential and random 64 B
# reads on the 16-channel GDDR6 test config and the random ones on the 40-channel HBM2e one.
# Both binaries run at once (two processes: cachegrind is about 50x slower than a plain run).
set -u
misses=0
[ "${1-}" = --misses ] && { misses=1; shift; }
[ $# -eq 2 ] || { echo "usage: bench/instructions.sh [--misses] OLD_GMSIM NEW_GMSIM" >&2; exit 2; }
[ -f configs/default.cfg ] || { echo "instructions.sh: run it from the source folder" >&2; exit 2; }
if [ $misses = 1 ]; then
	# events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
	sim="--cache-sim=yes --branch-sim=no --D1=49152,12,64 --LL=2097152,16,64" cols='$6, $7'
else
	# events: Ir Bc Bcm Bi Bim
	sim="--cache-sim=no --branch-sim=yes" cols='$2, $4'
fi
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/gmsim-instr.XXXXXX")
trap 'rm -rf "$work"' EXIT
T=$work/traces
python3 tests/trace/gen_traces.py "$T/v100t" --transpose-n 256 --only transpose >/dev/null || exit 2
awk -v n=100000 'BEGIN { for (i = 0; i < n; i++) printf "0x%x READ %d\n", i * 64, 0 }' >"$T/seq"
# 2^26 slots of 64 B = 4 GiB, as bench/speed.py's random trace (two draws: awk's rand()).
awk -v n=100000 'BEGIN { srand(1); for (i = 0; i < n; i++) {
	slot = int(rand() * 65536) * 1024 + int(rand() * 1024);
	printf "0x%x READ %d\n", slot * 64, 0 } }' >"$T/rand"

# count GMSIM OUT: one line "name instructions mispredictions" per run into OUT.
count() {
	g=$1 out=$2
	: >"$out"
	one() {
		name=$1
		shift
		# $sim: cachegrind's options; $cols: the summary's two columns kept
		valgrind --tool=cachegrind $sim --cachegrind-out-file="$out.$name.cg" "$g" "$@" \
			>/dev/null 2>&1 || { echo "$name failed" >&2; return; }
		echo "$name $(awk "/^summary:/ { print $cols; exit }" "$out.$name.cg")" >>"$out"
	}
	one "copy n = 512 Ki (A100-class)" run -q -c configs/a100-class.cfg \
		-w workloads/stream_copy.wl -p n=524288
	one "naive transpose n = 256 (A100-class)" run -q -c configs/a100-class.cfg \
		-w workloads/transpose_naive.wl -p n=256
	one "pointer chase, 10 k loads (A100-class)" run -q -c configs/a100-class.cfg \
		-w workloads/pointer_chase.wl -p loads=10000
	one "copy n = 512 Ki (A100-40GB: 352-way L1s)" run -q -c configs/a100-40gb.cfg \
		-w workloads/stream_copy.wl -p n=524288
	one "V100 naive transpose trace, n = 256" run -q -c configs/v100.cfg \
		--trace "$T/v100t/transpose/kernelslist.g"
	one "GDDR6 16 ch, 100 k sequential reads" dram -c configs/test/gddr6-16ch.cfg \
		--trace "$T/seq"
	one "GDDR6 16 ch, 100 k random reads" dram -c configs/test/gddr6-16ch.cfg --trace "$T/rand"
	one "HBM2e 40 ch, 100 k random reads" dram -c configs/test/hbm2e-40ch.cfg --trace "$T/rand"
}

count "$1" "$work/old" &
count "$2" "$work/new"
wait
if [ $misses = 1 ]; then
	echo "| run | L1d read misses, base | now | base / now | 2 MB L2 read misses, base | now | base / now |"
else
	echo "| run | base | now | base / now | mispredicted, base | now | base / now |"
fi
echo "|---|---|---|---|---|---|---|"
# the name is every field but the last two
awk 'function m(x,   s) { s = sprintf("%.0f", x / 1e6)
		while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
		return s " M" }
     function m2(x) { return x >= 1e7 ? m(x) : sprintf("%.2f M", x / 1e6) }
     function name(   i, s) { s = $1; for (i = 2; i <= NF - 2; i++) s = s " " $i; return s }
     NR == FNR { old[name()] = $(NF - 1); oldb[name()] = $NF; next }
     name() in old {
	k = name()
	printf "| %s | %s | %s | %.2f | %s | %s | %.2f |\n", k, m2(old[k]), m2($(NF - 1)),
		old[k] / $(NF - 1), m2(oldb[k]), m2($NF), oldb[k] / $NF }' "$work/old" "$work/new"
