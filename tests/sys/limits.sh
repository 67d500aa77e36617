#!/bin/sh
# limits.sh - the watchdog and the run limits of `gmsim run` (doc/limits.md):
#   - a run wedged on purpose (sim.fault_lose_dram_read: one DRAM read never returns) ends with
#     exit 3 exactly sim.watchdog_cycles core cycles after its last progress, with the state of
#     every unit (SMs, links, L1s, crossbar, L2 slices, controllers) and the oldest request in
#     flight with its stage stamps on stderr, and partial statistics marked "watchdog";
#     the same run without the fault finishes (the fault is what wedges it);
#   - --max-cycles stops a run at that exact cycle with exit 4, the statistics so far written
#     and marked partial; a limit the run does not reach changes nothing, byte for byte;
#     --max-host-seconds stops a long run the same way; bad limits are usage errors;
#   - --max-trace-mb: a trace block above the ceiling is an error naming file, line and block,
#     and the default ceiling stops a block announcing 10^8 instructions before buffering it;
#   - a sweep with max_cycles records the point that reaches it as "limit" with its partial
#     statistics and runs the others to the end;
#   - zero-depth queues are rejected by the config check (config_golden.sh has the file);
#   - two L2 partitions with slices of 2 ways run to the end (a way a set kept from near copies).
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 31
C=configs/test/small-gpu.cfg
RUN="run -q -c $C -w workloads/stride.wl -p n=8192"  # 686 cycles

# --- the watchdog ---------------------------------------------------------------------------
run_gmsim $RUN -o sim.fault_lose_dram_read=5 -o sim.watchdog_cycles=3000 \
	--stats-json "$tap_tmp/wd.json"
expect_eq "a lost DRAM read wedges the run: exit 3" 3 "$rc"
at=$(printf '%s\n' "$err" | sed -n 's/^gmsim: watchdog at core cycle \([0-9]*\): .* since cycle \([0-9]*\) .*/\1 \2/p')
set -- $at
expect_eq "it fires 3000 cycles after the last progress (at $1, last progress $2)" 3000 "$(($1 - $2))"
last=$2
fired=$1
for unit in 'front: 31 of 32 blocks done' '^  sm[0-3]: ' '^link sm0\.in: ' '^cache sm[0-9]\.l1d' \
	'^xbar' '^l2s[0-9]+: ' '^l2s[0-9]+\.mshr: ' '^mc[0-3]: '; do
	expect_match "the dump shows $unit" "$unit" "$err"
done
expect_match "the oldest request in flight, with its origin and stage" \
	'^  request [0-9]+: load of line 0x[0-9a-f]+ .*sm [0-9]+ warp [0-9]+.*stage l1_miss' "$err"
stamps=$(printf '%s\n' "$err" | sed -n '/^oldest request in flight/,/end of state dump/p' |
	awk '$2 == "tick" { print $1 }' | tr '\n' ' ')
expect_eq "... and its stage stamps" "created l1_access l1_miss " "$stamps"
expect_match "the last line sums it up for the user" \
	'^gmsim: workloads/stride.wl: watchdog: .*31 of 32 blocks done, 2 requests in flight' "$err"
set -- $(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["gmsim"].get("partial"), d["sim"]["cycles"])' "$tap_tmp/wd.json")
expect_eq "statistics written, marked partial (watchdog), at the cycle it fired" \
	"watchdog $fired" "$*"
run_gmsim $RUN -o sim.fault_lose_dram_read=5 -o sim.watchdog_cycles=5000
expect_eq "sim.watchdog_cycles=5000: fires 5000 cycles after the same last progress" \
	"3 $((last + 5000))" "$rc $(printf '%s\n' "$err" | sed -n 's/^gmsim: watchdog at core cycle \([0-9]*\):.*/\1/p')"
run_gmsim $RUN --stats-json "$tap_tmp/ok.json"
expect_eq "without the fault the same run finishes (exit 0, no partial mark)" "0 None" \
	"$rc $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["gmsim"].get("partial"))' "$tap_tmp/ok.json")"

# --- run limits -----------------------------------------------------------------------------
run_gmsim $RUN --max-cycles 500 --stats-json "$tap_tmp/mc.json"
expect_eq "--max-cycles 500: exit 4" 4 "$rc"
expect_match "... says so on stderr" '^gmsim: limit: the run reached --max-cycles 500 ' "$err"
expect_match "... and on the report" '^PARTIAL: the run stopped early \(max_cycles\) at core cycle 500' "$out"
expect_eq "... statistics written, partial, at cycle 500" "max_cycles 500" \
	"$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["gmsim"].get("partial"), d["sim"]["cycles"])' "$tap_tmp/mc.json")"
run_gmsim $RUN --stats-no-host --stats-json "$tap_tmp/a.json"
run_gmsim $RUN --stats-no-host --max-cycles 1000000 --max-host-seconds 3600 \
	--stats-json "$tap_tmp/b.json"
expect_eq "limits not reached: exit 0 and the same statistics byte for byte" "0 same" \
	"$rc $(cmp -s "$tap_tmp/a.json" "$tap_tmp/b.json" && echo same)"
run_gmsim run -q -c $C -w workloads/stream_copy.wl -p n=262144 --max-host-seconds 0.000001
expect_eq "--max-host-seconds: a run longer than that stops with exit 4" 4 "$rc"
expect_match "... naming the limit" 'limit: the run used up --max-host-seconds 1e-06 at core cycle' "$err"
run_gmsim $RUN --max-cycles 0
r1=$rc
run_gmsim $RUN --max-host-seconds abc
expect_eq "bad limits are usage errors (exit 2 2)" "2 2" "$r1 $rc"

# --- a sweep point that reaches a limit --------------------------------------------------------
printf 'configs = [ "%s" ];\nworkloads = [ "workloads/stride.wl" ];\nparams = { stride = [ 1, 32 ]; n = [ 8192 ]; };\nmax_cycles = 3000;\n' \
	$C >"$tap_tmp/lim.sweep"
run_gmsim sweep "$tap_tmp/lim.sweep" --out "$tap_tmp/sw" -j 2 -q
expect_eq "sweep with max_cycles = 3000: stride 1 finishes, stride 32 is recorded as limit" \
	"1,ok 32,limit" "$(awk -F, 'NR > 1 { printf "%s%s,%s", (NR > 2 ? " " : ""), $4, $6 }' "$tap_tmp/sw/results.csv")"
expect_eq "... its point file keeps exit 4, the message and the partial statistics" \
	"4 max_cycles 3000 yes" "$(python3 -c 'import json, glob, sys
for f in glob.glob(sys.argv[1] + "/points/*.json"):
	j = json.load(open(f))
	if j["status"] == "limit":
		print(j["exit_status"], j["stats"]["gmsim"]["partial"], j["stats"]["sim"]["cycles"],
		      "yes" if "--max-cycles 3000" in j["error"] else "no")' "$tap_tmp/sw")"

# --- two L2 partitions with tiny slices -------------------------------------------------------
# 1 KB slices of 2 ways: each twin's sets fill with near copies waiting for the other's data
# while the other's reads of lines homed here find no way. One way a set is kept from near
# copies in flight (doc/limits.md); before 2026-12-06 this run stopped at the watchdog.
run_gmsim run -q -c $C -w workloads/stream_triad.wl -p n=65536 -o gpu.l2_partitions=2 \
	-o l2.cache.size_kb=1 -o l2.cache.assoc=2 -o sim.watchdog_cycles=3000 \
	--stats-json "$tap_tmp/far.json"
expect_eq "partitions, 1 KB slices of 2 ways: the triad ends (exit 0, 6144 memory instructions)" \
	"0 6144" "$rc $(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["sim"]["mem_insts"])' "$tap_tmp/far.json")"
expect_eq "... and the slices held near copies back (far_reserve_stalls > 0 on each)" "yes" \
	"$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print("yes" if all(j["l2s%d" % i]["far_reserve_stalls"] > 0 for i in range(4)) else "no")' \
	"$tap_tmp/far.json")"

# --- trace buffering ceiling ----------------------------------------------------------------
T=$tap_tmp/big
mkdir -p "$T"
python3 - "$T" <<'PY'
import sys
d = sys.argv[1]
head = """-kernel name = alu
-grid dim = (1,1,1)
-kernel id = 1
-block dim = (32,1,1)
-shmem = 0
-nregs = 16
-binary version = 80
-cuda stream id = 0
-shmem base_addr = 0x00007f0000000000
-local mem base_addr = 0x00007e0000000000
-nvbit version = 1.7
-accelsim tracer version = 4
-enable lineinfo = 0

#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate


#BEGIN_TB

thread block = 0,0,0

warp = 0
"""
n = 20000
with open(d + "/kernel-1.traceg", "w") as f:
    f.write(head + "insts = %d\n" % n)
    for i in range(n):
        f.write("%04x ffffffff 1 R0 IMAD 2 R3 R0 0 0\n" % (16 * (i % 4096)))
    f.write("\n#END_TB\n")
with open(d + "/kernel-2.traceg", "w") as f:
    f.write(head + "insts = 100000000\n0000 ffffffff 1 R0 IMAD 2 R3 R0 0 0\n")
PY
run_gmsim run -q -c $C --trace "$T/kernel-1.traceg"
r1=$rc
run_gmsim run -q -c $C --trace "$T/kernel-1.traceg" --max-trace-mb 1
expect_eq "a block of 20000 instructions runs, and is refused under --max-trace-mb 1 (exit 0 1)" \
	"0 1" "$r1 $rc"
expect_match "... naming the file, line and block" \
	"kernel-1\.traceg:23: thread block \(0,0,0\): warp 0 announces 20000 instructions: the block would buffer [0-9]+ MB, above the trace buffering ceiling of 1 MB \(--max-trace-mb\)" "$err"
run_gmsim run -q -c $C --trace "$T/kernel-2.traceg"
expect_eq "the default ceiling refuses a block announcing 10^8 instructions before buffering it" \
	"1 yes" "$rc $(printf '%s\n' "$err" | grep -q 'kernel-2\.traceg:23: thread block (0,0,0): warp 0 announces 100000000 instructions: .* ceiling of 1024 MB' && echo yes)"
done_testing
