#!/bin/sh
# run.sh - simulation rate of `gmsim run` on the A100-class config (configs/a100-class.cfg):
# simulated warp instructions and sector requests per host second for a streaming copy, the
# naive transpose and a pointer chase, plus the events a chase load costs with 108 SMs and with
# one (the SMs without work must cost nothing). A benchmark, not a test: it prints rates.
# Reference: Accel-Sim runs about 12,500 warp instructions per second; the target is 100x that
# (1.25 M/s) on the copy, on one core. Last: the copy as an Accel-Sim trace. Run by `make bench`.
#   usage: bench/run.sh GMSIM SRCDIR
set -eu
gmsim=$1
src=$2
cfg=$src/configs/a100-class.cfg
json=$(mktemp "${TMPDIR:-/tmp}/gmsim-bench.XXXXXX")
traces=$(mktemp -d "${TMPDIR:-/tmp}/gmsim-bench-trace.XXXXXX")
trap 'rm -rf "$json" "$traces"' EXIT

get() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
out = []
for name in sys.argv[2:]:
	v = d
	for k in name.split("."):
		v = v[k]
	out.append(str(v))
print(" ".join(out))' "$json" "$@"
}

printf '%-28s %10s %8s %12s %14s %12s\n' workload "warp insts" "host s" "warp inst/s" \
	"sector req/s" "events/inst"
bench() {
	label=$1
	shift
	(cd "$src" && "$gmsim" run -q -c "$cfg" --stats-json "$json" "$@" >/dev/null)
	set -- $(get sim.warp_insts sim.host_seconds coal.sectors sim.events)
	awk -v l="$label" -v i="$1" -v h="$2" -v s="$3" -v e="$4" 'BEGIN {
		printf "%-28s %10d %8.2f %12.0f %14.0f %12.1f\n", l, i, h, i / h, s / h, e / i }'
}
bench "stream_copy n=4M" -w workloads/stream_copy.wl -p n=4194304
bench "transpose_naive 1024^2" -w workloads/transpose_naive.wl
bench "pointer_chase 100k loads" -w workloads/pointer_chase.wl -p loads=100000
bench "pointer_chase, 1 SM" -w workloads/pointer_chase.wl -p loads=100000 -o gpu.sms=1
# The same copy as an Accel-Sim trace (tests/trace/gen_traces.py: 8 SASS instructions per warp,
# 1,048,576 warp instructions) next to its workload-language twin (2 per warp): the trace rate
# is what `gmsim run --trace` reaches; doc/trace.md records it.
python3 "$src/tests/trace/gen_traces.py" "$traces" --copy-n 4194304 --only copy
bench "copy trace n=4M (.traceg)" --trace "$traces/copy/kernelslist.g"
bench "copy .wl twin n=4M" -w "$traces/copy/copy.wl"
