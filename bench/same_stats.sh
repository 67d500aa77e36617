#!/bin/sh
# same_stats.sh - the rule of speed work (doc/performance.md): a change that makes the simulator
# faster leaves every statistic alone. Runs the reference runs below with two gmsim binaries
# (a build of the previous main and the new one) and compares their --stats-json
# --stats-no-host output and their reports byte for byte; prints each file that differs and
# "N differ of M" (exit 1 when N > 0).
#   usage: bench/same_stats.sh OLD_GMSIM NEW_GMSIM   (from the source folder)
# The runs: the default run, the V100 naive transpose and four Accel-Sim traces (copy,
# transpose, chase, warm), A100 pointer chases (DRAM and L2 resident), T4 inline ECC (triad,
# straddling accesses), HBM2e and A100-class copies, the fixed-latency model, a tiled blur, two
# kernels in one run, the A40 stream, an A6000 gather, all-bank refresh with FCFS and a closed
# page, the GTO scheduler, two `gmsim dram` runs and two `gmsim probe` runs.
set -u
[ $# -eq 2 ] || { echo "usage: bench/same_stats.sh OLD_GMSIM NEW_GMSIM" >&2; exit 2; }
[ -f configs/default.cfg ] || { echo "same_stats.sh: run it from the source folder" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/gmsim-same.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 tests/trace/gen_traces.py "$work/traces" >/dev/null || exit 2

# refs GMSIM OUT: every reference run of GMSIM into folder OUT.
refs() {
	g=$1 out=$2 T=$work/traces
	mkdir -p "$out"
	r() {
		name=$1
		shift
		"$g" run -q "$@" --stats-no-host --stats-json "$out/$name.json" >"$out/$name.out" 2>&1
		echo "exit $?" >>"$out/$name.out"
		# the report's host line: seconds and rates vary from run to run
		sed -i 's/[0-9.]* s host, [0-9]* inst\/s/host/' "$out/$name.out"
	}
	r default
	r v100_transpose -c configs/v100.cfg -w workloads/transpose_naive.wl
	r a100_chase -c configs/a100-80gb.cfg -w workloads/pointer_chase.wl -p footprint_kb=262144 \
		-p loads=4000
	r a100_chase_l2 -c configs/a100-80gb.cfg -w workloads/pointer_chase.wl \
		-p footprint_kb=8192 -p loads=4000
	r t4_triad -c configs/t4.cfg -w workloads/stream_triad.wl
	r t4_straddle -c configs/t4.cfg -w workloads/straddle.wl
	r v100_tr_copy -c configs/v100.cfg --trace "$T/copy/kernelslist.g"
	r v100_tr_transpose -c configs/v100.cfg --trace "$T/transpose/kernelslist.g"
	r v100_tr_chase -c configs/v100.cfg --trace "$T/chase/kernelslist.g"
	r v100_tr_warm -c configs/v100.cfg --trace "$T/warm/kernelslist.g"
	r hbm2e_copy -c configs/test/hbm2e-40ch.cfg -w workloads/stream_copy.wl -p n=65536
	r small_fixed -c configs/test/small-gpu.cfg -w workloads/stride.wl -o memory.model=fixed
	r small_blur -c configs/test/small-gpu.cfg -w workloads/blur_tiled.wl
	r v100_two -c configs/v100.cfg -w workloads/stream_copy.wl -w workloads/stream_triad.wl
	r a100class_copy -c configs/a100-class.cfg -w workloads/stream_copy.wl
	r a40_stream -c configs/a40.cfg -w workloads/ubench/stream.wl
	r a6000_gather -c configs/rtx-a6000.cfg -w workloads/gather.wl
	r allbank -c configs/v100.cfg -w workloads/stream_copy.wl -o mc.refresh=all_bank \
		-o mc.scheduler=fcfs -o mc.page_policy=closed
	r gto -c configs/test/small-gpu.cfg -w workloads/aos.wl -o sm.scheduler=gto
	"$g" dram -c configs/test/gddr6-16ch.cfg --pattern random --requests 200000 \
		--write-fraction 0.3 --stats-no-host --stats-json "$out/dram_rand.json" \
		>"$out/dram_rand.out" 2>&1
	"$g" dram -c configs/test/hbm2e-40ch.cfg --pattern stream --requests 200000 \
		--stats-no-host --stats-json "$out/dram_seq.json" >"$out/dram_seq.out" 2>&1
	sed -i 's/host [0-9.]* s, [0-9.]* M requests\/s, [0-9]* MB peak RSS/host/' "$out"/dram_*.out
	"$g" probe -c configs/test/small-gpu.cfg --chase --sweep-kb 4:2048 --loads 300 \
		>"$out/probe_chase.out" 2>&1
	"$g" probe -c configs/v100.cfg --stream --footprint-kb 4096 --loads 20000 \
		>"$out/probe_stream.out" 2>&1
}

refs "$1" "$work/old"
refs "$2" "$work/new"
n=0 m=0
for f in "$work"/old/*; do
	b=$(basename "$f")
	m=$((m + 1))
	if ! cmp -s "$f" "$work/new/$b"; then
		echo "differs: $b"
		diff "$f" "$work/new/$b" | head -8
		n=$((n + 1))
	fi
done
echo "$n differ of $m"
[ "$n" -eq 0 ]
