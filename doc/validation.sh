#!/bin/sh
# validation.sh - run `gmsim validate` for every shipped config that has measured rows and
# regenerate the results of doc/validation.md (between its "validation.sh begin/end" markers).
#
#   doc/validation.sh [GMSIM [MEASURED]]   (from anywhere; GMSIM default build/sim/gmsim,
#                                          MEASURED default data/hw/measured.csv)
#
# Writes, per run (a config against one gpu name of the measured file, some families):
#   doc/validation/TAG.json   validate --stats-json: every point and family statistic
#   doc/validation/TAG.txt    validate's table
#   doc/validation/TAG/       validate --plot: FAMILY.dat (x, measured, simulated, error%) and
#                             FAMILY.gp; FAMILY.svg where gnuplot is on PATH
# then doc/validation_report.py turns the JSON files into the Markdown tables.
# KEEP=1 keeps the runs whose TAG.json exists (to finish an interrupted run; delete the JSON
# files after a config or model change). JOBS=N runs N validates at once (default 2, the cores of the machine it was sized on:
# about 25 minutes there). The --max-points of each run keep that budget; every point is a
# deterministic simulation, so a rerun reproduces the files exactly.
set -eu
cd "$(dirname "$0")/.."
GMSIM=${1:-build/sim/gmsim}
M=${2:-data/hw/measured.csv}
OUT=doc/validation
JOBS=${JOBS:-2}

# tag | config | gpu (the measured.csv gpu column, exactly) | metric prefixes | max points
runs() {
	cat <<'RUNS'
v100-pchase|v100|V100-PCIe-16GB|pchase_latency|24
v100-cache|v100|V100-PCIe-16GB|l1_l2_read_bw_per_dataset|16
v100-stream|v100|V100-PCIe-16GB|stream_|8
v100-markdewing|v100|V100 (variant not stated)|pchase_latency|12
a100-40gb-pchase|a100-40gb|A100-40GB (variant not stated)|pchase_latency|16
a100-40gb-stream|a100-40gb|A100-40GB (variant not stated)|stream_|8
a100-40gb-strides|a100-40gb|A100 (variant not stated)|l1_cycles_per_warp_load,l1_load_bytes_per_cycle_per_SM|48
a100-40gb-ocl|a100-40gb|A100-PCIe-40GB|coalesced_,misaligned_|4
a100-80gb-pchase|a100-80gb|A100-80GB (variant not stated)|pchase_latency|16
a100-80gb-cache|a100-80gb|A100-80GB (variant not stated)|l1_l2_read_bw_per_dataset|12
a100-80gb-l2|a100-80gb|A100-80GB (variant not stated)|l2_read_bw|12
a100-80gb-stream|a100-80gb|A100-80GB (variant not stated)|stream_|8
a100-80gb-markdewing|a100-80gb|A100-SXM4-80GB|pchase_latency|12
a40-cache|a40|A40 (GA102 GDDR6; proxy for RTX A6000)|l1_l2_read_bw_per_dataset|16
a40-stream|a40|A40 (GA102 GDDR6; proxy for RTX A6000)|stream_|8
a40-strides|a40|A40 (GA102 GDDR6; proxy for RTX A6000)|l1_cycles_per_warp_load,l1_load_bytes_per_cycle_per_SM|48
t4-scalars|t4|T4|l1_hit_latency,l2_hit_latency,dram_bw_measured,l1_load_bw,l2_load_bw,opencl_,coalesced_,misaligned_,bandwidthTest_|4
t4-cited|t4|T4 / Turing (as cited)|dram_latency|4
rtx-a6000-ldg|rtx-a6000|RTX A6000|ldg_|4
rtx3070-scalars|rtx3070|RTX 3070|l1_hit_bw_global_aggregate,saxpy_bw_noncompressible|4
rtx2060-clpeak|rtx2060|RTX 2060|opencl_|4
rtx2060-markdewing|rtx2060|RTX 2000 (as labelled; 6 GB, 3 MB L2, 128 KiB L1 per README)|l1_hit_latency,l2_hit_latency,dram_latency|4
RUNS
}

if [ "${1:-}" = "--one" ]; then
	# internal: run line $2 of runs() (xargs calls this)
	GMSIM=$3 M=$4
	line=$(runs | sed -n "$2p")
	IFS='|' read -r tag cfg gpu metrics n <<EOF
$line
EOF
	if [ -n "${KEEP:-}" ] && [ -s "$OUT/$tag.json" ]; then
		echo "$tag: kept (KEEP is set and $OUT/$tag.json exists)" >&2
		exit 0
	fi
	start=$(date +%s)
	rm -rf "$OUT/$tag"
	# -j 1: the runs themselves go JOBS at once
	if "$GMSIM" validate -q -j 1 -c "configs/$cfg.cfg" --measured "$M" --gpu "$gpu" \
		--metrics "$metrics" --max-points "$n" --stats-json "$OUT/$tag.json" \
		--plot "$OUT/$tag" >"$OUT/$tag.txt" 2>"$OUT/$tag.err"; then
		rm -f "$OUT/$tag.err"
	else
		echo "validation.sh: $tag failed (see $OUT/$tag.err)" >&2
		exit 1
	fi
	echo "$tag: $(($(date +%s) - start)) s" >&2
	exit 0
fi

[ -x "$GMSIM" ] || { echo "validation.sh: no gmsim at $GMSIM" >&2; exit 2; }
[ -r "$M" ] || { echo "validation.sh: no measured data at $M" >&2; exit 2; }
mkdir -p "$OUT"
start=$(date +%s)
runs | awk '{ print NR }' | xargs -P "$JOBS" -I{} sh doc/validation.sh --one {} "$GMSIM" "$M"
total=$(($(date +%s) - start))
echo "validation.sh: all runs in $total s with JOBS=$JOBS" >&2
runs | python3 doc/validation_report.py "$OUT" doc/validation.md "$total" "$JOBS" ${KEEP:+keep}
