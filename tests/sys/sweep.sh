#!/bin/sh
# sweep.sh - `gmsim sweep` end to end on the small test GPU:
#   - --dry-run of tests/data/sweep/small.sweep is its golden point list; bad files and bad
#     command lines fail with exit 1 and 2 and the exact message;
#   - a run writes one point file per point and results.csv (axes and metrics), leaves no
#     temporary file, and a second run skips every point;
#   - a point with a bad override (fail.sweep) is recorded with the run's error while the others
#     complete; --retry-failed runs it again; a point past --timeout is killed and says so;
#   - a runner killed with SIGKILL mid-sweep and run again loses and duplicates no point, and its
#     results equal an uninterrupted -j 1 run (the point files minus host fields, results.csv);
#   - --emit-jobs run by sh, and by GNU Parallel when installed, then --merge: the same CSV;
#   - --emit-slurm: the sbatch script's array covers every point, and its body run for each
#     SLURM_ARRAY_TASK_ID by a shell loop (no Slurm needed), then --merge: the same CSV; two
#     point files lost, --emit-slurm --missing covers exactly those (tests/sys/slurm.sh does
#     all this on a real Slurm).
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 34
D=tests/data/sweep
T=$tap_tmp

# The point files of a directory without their host-dependent fields, one line each, sorted.
strip_host() {
	python3 -c 'import json, os, sys
d = sys.argv[1] + "/points"
for f in sorted(os.listdir(d)):
	j = json.load(open(os.path.join(d, f)))
	j.pop("host_seconds", None)
	for g in ("gmsim", "sim"):
		(j.get("stats") or {}).get(g, {}).pop("host_seconds", None)
	print(f, json.dumps(j, sort_keys=True))' "$1"
}

run_gmsim sweep $D/small.sweep --dry-run
expect_eq "small.sweep --dry-run: the golden point list" "$(cat "$GMSIM_SRCDIR/$D/small.points")" "$out"

printf 'configs = [ "configs/test/small-gpu.cfg" ];\nworkloads = [ "workloads/stride.wl" ];\nparams = { strid = [ 1 ]; };\nmetric = [ "x" ];\n' >"$T/bad.sweep"
run_gmsim sweep "$T/bad.sweep" --dry-run
expect_eq "bad sweep file: exit 1 and every problem" "1
gmsim: error: $T/bad.sweep:4: metric: unknown key (did you mean \"metrics\"?)
$T/bad.sweep:3: params.strid: not a parameter of workloads/stride.wl (did you mean \"stride\"?)" "$rc
$err"
run_gmsim sweep $D/small.sweep
expect_eq "no --out: usage error" "2
gmsim sweep: give --out DIR (or --dry-run)" "$rc
$(printf '%s\n' "$err" | head -1)"

run_gmsim sweep $D/small.sweep --out "$T/s2" -j 2
expect_eq "small.sweep -j 2 exits 0" 0 "$rc"
expect_eq "10 point files, no temporary left" "10 0" \
	"$(ls "$T/s2/points" | wc -l) $(ls "$T/s2/tmp" | wc -l)"
expect_eq "results.csv header: point, axes, status, metrics (coal.eff* expanded)" \
	"point,config,workload,l2.cache.size_kb,l2.cache.assoc,stride,n,status,sim.cycles,coal.efficiency,dram.achieved_gbps" \
	"$(head -1 "$T/s2/results.csv")"
expect_eq "stride 1 and 32 rows: coalescing 1 and 0.125" \
	"32,16,1,8192,ok,1 32,16,32,8192,ok,0.125" \
	"$(awk -F, 'NR == 2 || NR == 4 { printf "%s%s,%s,%s,%s,%s,%s", (NR > 2 ? " " : ""), $4, $5, $6, $7, $8, $10 }' "$T/s2/results.csv")"
run_gmsim sweep $D/small.sweep --out "$T/s2" -j 2
expect_eq "a second run skips every point" "0
$D/small.sweep: 10 points: 10 ok (0 now, 10 before), 0 failed (0 now, 0 before)" "$rc
$(printf '%s\n' "$out" | head -1)"

# A bad override fails its point alone.
run_gmsim sweep $D/fail.sweep --out "$T/f" -j 2
expect_eq "fail.sweep: exit 1, 2 ok and 1 failed" "1 ok failed ok" \
	"$rc $(cut -d, -f6 "$T/f/results.csv" | tail -n +2 | tr '\n' ' ' | sed 's/ $//')"
f=$(grep -l '"failed"' "$T/f/points"/*.json)
set -- $(python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(j["exit_status"], j["stats"], j["overrides"]["l2.cache.assoc"])' "$f")
expect_eq "the failed point: exit status 1, no statistics, assoc 3" "1 None 3" "$*"
expect_eq "its error is the run's message" \
	"gmsim: error: configs/test/small-gpu.cfg:12: l2.cache.size_kb: 32 KB is not a multiple of line x ways (128 B x 3)" \
	"$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["error"])' "$f")"
run_gmsim sweep $D/fail.sweep --out "$T/f" -j 2
expect_match "rerun: the failed point is not retried" "3 points: 2 ok \(0 now, 2 before\), 1 failed \(0 now, 1 before\)" "$out"
run_gmsim sweep $D/fail.sweep --out "$T/f" -j 2 --retry-failed
expect_match "--retry-failed runs it again" "1 failed \(1 now, 0 before\)" "$out"

# A point past its timeout is killed.
printf 'configs = [ "configs/test/small-gpu.cfg" ];\nworkloads = [ "workloads/stride.wl" ];\nparams = { n = [ 4194304 ]; };\n' >"$T/slow.sweep"
run_gmsim sweep "$T/slow.sweep" --out "$T/slow" --timeout 0.3
expect_eq "timeout: exit 1, status timeout, the message" "1 timeout timed out after 0.3 s" \
	"$rc $(python3 -c 'import json, os, sys; d = sys.argv[1]; j = json.load(open(os.path.join(d, os.listdir(d)[0]))); print(j["status"], j["error"])' "$T/slow/points")"

# Kill the runner mid-sweep, resume, compare with an uninterrupted -j 1 run.
run_gmsim sweep $D/resume.sweep --out "$T/r1" -j 1
expect_eq "resume.sweep -j 1 exits 0" 0 "$rc"
(cd "$GMSIM_SRCDIR" && exec "$GMSIM" sweep $D/resume.sweep --out "$T/r2" -j 2 -q) &
pid=$!
i=0
while [ "$(ls "$T/r2/points" 2>/dev/null | wc -l)" -lt 3 ] && [ $i -lt 200 ]; do
	sleep 0.05; i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
n=$(ls "$T/r2/points" | wc -l)
expect_num "killed mid-sweep with some points done ($n of 12)" "$n >= 3 && $n < 12"
run_gmsim sweep $D/resume.sweep --out "$T/r2" -j 2
expect_match "the rerun runs only the rest" "12 points: 12 ok \($((12 - n)) now, $n before\)" "$out"
expect_eq "12 point files, 12 distinct rows" "12 12" \
	"$(ls "$T/r2/points" | wc -l) $(tail -n +2 "$T/r2/results.csv" | cut -d, -f1 | sort -u | wc -l)"
expect_eq "killed and resumed at -j 2 = uninterrupted at -j 1: point files minus host fields" \
	"$(strip_host "$T/r1")" "$(strip_host "$T/r2")"
expect_eq "... and results.csv" "$(cat "$T/r1/results.csv")" "$(cat "$T/r2/results.csv")"

# Emitted jobs, run by sh and by GNU Parallel, merged.
run_gmsim sweep $D/small.sweep --out "$T/e1" --emit-jobs "$T/jobs"
sh "$T/jobs" >/dev/null 2>&1
run_gmsim sweep --merge "$T/e1"
expect_eq "--emit-jobs run by sh, --merge: the runner's results.csv" \
	"$(cat "$T/s2/results.csv")" "$(cat "$T/e1/results.csv")"
# The Slurm array: the script's body is a task; run every task by hand.
run_gmsim sweep $D/small.sweep --out "$T/sl" --emit-slurm "$T/array.sh"
expect_eq "--emit-slurm: exit 0, the job list next to the script, 10 lines" "0 10" \
	"$rc $(wc -l <"$T/array.jobs")"
expect_eq "... #SBATCH --array=0-9 (10 points)" "#SBATCH --array=0-9" \
	"$(grep '^#SBATCH --array' "$T/array.sh")"
k=0
while [ $k -lt 10 ]; do
	SLURM_ARRAY_TASK_ID=$k sh "$T/array.sh" >/dev/null 2>&1
	k=$((k + 1))
done
run_gmsim sweep --merge "$T/sl"
expect_eq "every array task run by a shell loop, --merge: the runner's results.csv" \
	"$(cat "$T/s2/results.csv")" "$(cat "$T/sl/results.csv")"
# --missing: lose two point files, emit an array of just those, run it, merge.
lost=$(ls "$T/sl/points" | sed -n '3p;7p' | sed 's/\.json$//')
for id in $lost; do rm "$T/sl/points/$id.json"; done
run_gmsim sweep $D/small.sweep --out "$T/sl" --emit-slurm "$T/miss.sh" --missing
expect_eq "--emit-slurm --missing: an array of 2 tasks, 2 job lines" "0 #SBATCH --array=0-1 2" \
	"$rc $(grep '^#SBATCH --array' "$T/miss.sh") $(wc -l <"$T/miss.jobs")"
for k in 0 1; do SLURM_ARRAY_TASK_ID=$k sh "$T/miss.sh" >/dev/null 2>&1; done
back=""
for id in $lost; do [ -s "$T/sl/points/$id.json" ] && back="$back $id"; done
expect_eq "... its tasks write exactly the two lost points" "$(echo $lost) 10" \
	"$(echo $back) $(ls "$T/sl/points" | wc -l)"
run_gmsim sweep --merge "$T/sl"
expect_eq "... run and merged: the runner's results.csv again" \
	"$(cat "$T/s2/results.csv")" "$(cat "$T/sl/results.csv")"
run_gmsim sweep $D/small.sweep --out "$T/sl" --emit-jobs "$T/none.jobs" --missing
expect_eq "--missing on a complete set: exit 0, nothing written" "0 no" \
	"$rc $([ -e "$T/none.jobs" ] && echo yes || echo no)"
run_gmsim sweep $D/small.sweep --out "$T/sl" --missing
expect_eq "--missing without an emitter: usage error" 2 "$rc"
if command -v parallel >/dev/null 2>&1; then
	run_gmsim sweep $D/small.sweep --out "$T/e2" --emit-jobs "$T/jobs2"
	parallel -j 2 <"$T/jobs2" >/dev/null 2>&1
	run_gmsim sweep --merge "$T/e2"
	expect_eq "--emit-jobs run by GNU Parallel, --merge: the runner's results.csv" \
		"$(cat "$T/s2/results.csv")" "$(cat "$T/e2/results.csv")"
	expect_eq "... and the point files minus host fields" "$(strip_host "$T/s2")" "$(strip_host "$T/e2")"
else
	tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP GNU Parallel is not installed (Debian package parallel)"
	tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP GNU Parallel is not installed"
fi
# --out makes missing parent directories, as the documented `--out out/stride` needs.
run_gmsim sweep $D/fail.sweep -q -j 2 --out "$T/new/deep/dir"
expect_eq "--out creates its parents: 3 point files (one failed point, exit 1)" \
	"1 3" "$rc $(ls "$T/new/deep/dir/points" | wc -l)"
# -j takes 1..1024 points at once (the parser validate shares)
run_gmsim sweep $D/small.sweep --out "$T/j" -j 1025
expect_eq "-j 1025: a usage error (exit 2)" 2 "$rc"
expect_match "... that says what -j takes" "-j 1025: expected 1..1024 points at once" "$err"
done_testing
