#!/bin/sh
# long_stream.sh - a long DRAM read stream holds its bandwidth (issue 17, item 3): the A40 config
# cut to 36 SMs and 6 channels (6 SMs a channel, as the full part), workloads/ubench/stream.wl
# reading one array with 2 blocks of 768 threads per SM in a grid-stride loop. With 16
# iterations the warps stay in step; over longer runs they drift apart (each one load in
# flight), and the controllers then see requests from many more rows at once. The shipped
# 512-entry read queues keep both runs within a few percent of the peak. The third run takes
# the schema default's 128 entries, where the drift shows first: with the crossbar's
# round-robin matching (xbar.arbiter = "islip") it read 66% of the peak at 160 iterations (row
# hits 0.88); oldest-first matching (the default, "age") keeps the warps in step and reads
# what the short run does. (On all 142 SMs: 1600 iterations read 77% with islip,
# doc/validation.md "Long streams".)
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 6
S="-c configs/a40.cfg -o gpu.sms=36 -o dram.channels=6 -w workloads/ubench/stream.wl \
-p threads=768 -p sms=36 -p blocks_per_sm=2 -p loads=1 -p stores=0 -q"

for it in 16 160; do
	# shellcheck disable=SC2086
	run_gmsim run $S -p iters=$it --stats-json "$tap_tmp/s$it.json"
	expect_eq "$it iterations: exits 0" 0 "$rc"
done
set -- $(jget "$tap_tmp/s16.json" dram.achieved_gbps dram.peak_gbps) \
	$(jget "$tap_tmp/s160.json" dram.achieved_gbps)
expect_num "16 iterations: $1 of $2 GB/s, at least 90% of the peak" "$1 >= 0.9 * $2 && $1 <= $2"
expect_num "160 iterations: $3 of $2 GB/s, at least 90% of the peak and within 5% of the 16" \
	"$3 >= 0.9 * $2 && $3 <= $2 && abs($3 - $1) <= 0.05 * $1"
# shellcheck disable=SC2086
run_gmsim run $S -p iters=160 -o mc.read_queue=128 --stats-json "$tap_tmp/q128.json"
expect_eq "160 iterations, 128 read entries: exits 0" 0 "$rc"
set -- $(jget "$tap_tmp/q128.json" dram.achieved_gbps dram.peak_gbps)
expect_num "160 iterations, 128 read entries: $1 of $2 GB/s, at least 90% of the peak" \
	"$1 >= 0.9 * $2 && $1 <= $2"
done_testing
