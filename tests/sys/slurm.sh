#!/bin/sh
# slurm.sh - `gmsim sweep --emit-slurm` on a real Slurm (doc/sweep.md, "On a Slurm cluster").
#
# Brings up a one-node Slurm from Debian's packages under the test's temporary folder: a
# generated munge key and munged on its own socket, a slurm.conf for this host and its CPUs
# (proctrack/linuxproc, task/none: no cgroups), slurmctld and slurmd with their state, spool,
# pid and log files there, on ports of their own; the daemons are stopped by pid whatever
# happens. Then, on tests/data/sweep/*.sweep and the small test GPU:
#   - the emitted script submitted with sbatch, waited for (bounded poll), --merge: every point
#     once, results.csv equal row for row to the built-in runner's;
#   - an array in which one point fails (a bad override): its failure recorded with the run's
#     message, every other point present;
#   - an array submitted held, one element cancelled with scancel before release: the merge
#     says one point has no result; `--emit-slurm --missing` writes an array of that point
#     alone; submitted, merged: the full set, nothing twice, equal to the built-in runner's.
# Where Slurm cannot come up (no packages, a daemon that does not start, no permission) every
# point is reported as skipped with the reason, never as passed. SLURMCTLD, SLURMD and MUNGED
# name the daemons (default: from PATH); `SLURMCTLD=false make check TESTS=tests/sys/slurm.sh`
# shows the skip.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
NPLAN=14
plan $NPLAN
D=tests/data/sweep
T=$tap_tmp/slurm
mkdir -p "$T/state" "$T/spool" "$T/munge"

SLURMCTLD=${SLURMCTLD:-$(command -v slurmctld || echo /usr/sbin/slurmctld)}
SLURMD=${SLURMD:-$(command -v slurmd || echo /usr/sbin/slurmd)}
MUNGED=${MUNGED:-$(command -v munged || echo /usr/sbin/munged)}

stop_daemons() {
	for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/munged.pid"; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	sleep 0.2
	for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/munged.pid"; do
		[ -s "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
	done
	rm -rf "$tap_tmp"
}
trap stop_daemons EXIT

# The last non-empty line of the files that exist, or "no message".
last_line() {
	l=$(cat "$@" 2>/dev/null | grep -v '^[[:space:]]*$' | tail -n 1)
	echo "${l:-no message}"
}

skip_all() {
	echo "# Slurm unavailable: $1"
	while [ "$tap_n" -lt "$NPLAN" ]; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP Slurm unavailable: $1"
	done
	exit 0
}

for c in "$SLURMCTLD" "$SLURMD" "$MUNGED" sbatch squeue scancel scontrol sinfo; do
	command -v "$c" >/dev/null 2>&1 || skip_all "$c not found (Debian: slurmctld slurmd slurm-client munge)"
done

# munge: a key of our own, the daemon on our socket (--force: it refuses root otherwise)
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge/munge.key"
force=""
[ "$(id -u)" -eq 0 ] && force=--force
"$MUNGED" $force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" \
	--pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" \
	--seed-file="$T/munge/munged.seed" >"$T/munge/start.log" 2>&1 ||
	skip_all "munged did not start: $(last_line "$T/munge/start.log" "$T/munge/munged.log")"

host=$(hostname)
user=$(id -un)
port=$((20000 + $$ % 20000))
cat >"$T/slurm.conf" <<EOF
ClusterName=gmsimtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.socket
CredType=cred/munge
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=gmsim Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$T/slurm.conf
export SLURM_CONF
"$SLURMCTLD" -i >"$T/ctld-start.log" 2>&1 ||
	skip_all "slurmctld did not start: $(last_line "$T/ctld-start.log" "$T/slurmctld.log")"
"$SLURMD" >"$T/d-start.log" 2>&1 ||
	skip_all "slurmd did not start: $(last_line "$T/d-start.log" "$T/slurmd.log")"
i=0
until [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; do
	i=$((i + 1))
	[ $i -gt 150 ] && skip_all "the node is not idle after 30 s: $(sinfo -h -o '%t %E' 2>&1 | head -n 1)"
	sleep 0.2
done

# Waits (at most 120 s) until no job of the array JOB is pending or running.
wait_array() {
	i=0
	while [ -n "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; do
		i=$((i + 1))
		[ $i -gt 600 ] && return 1
		sleep 0.2
	done
	return 0
}
# sbatch [OPTS] SCRIPT from the source tree; sets $job (the array's id) and $rc.
submit() {
	job=$(cd "$GMSIM_SRCDIR" && sbatch --parsable "$@" 2>"$T/sbatch.err")
	rc=$?
	job=${job%%;*}
}
rows() { tail -n +2 "$1" | wc -l; }

# 1. The whole array, merged, against the built-in runner.
run_gmsim sweep $D/small.sweep --out "$T/ref" -j 2 -q
run_gmsim sweep $D/small.sweep --out "$T/o1" --emit-slurm "$T/a1.sh"
expect_eq "emit: exit 0, #SBATCH --array=0-9" "0 #SBATCH --array=0-9" \
	"$rc $(grep '^#SBATCH --array' "$T/a1.sh")"
submit "$T/a1.sh"
expect_eq "sbatch accepts the script" "0" "$rc"
wait_array "$job"
expect_eq "the array finishes within 120 s" 0 $?
run_gmsim sweep --merge "$T/o1"
expect_eq "--merge: 10 rows, nothing missing" "0 $T/o1/results.csv: 10 rows" "$rc $out"
expect_eq "results.csv equals the built-in runner's, row for row" "$(cat "$T/ref/results.csv")" \
	"$(cat "$T/o1/results.csv")"
expect_eq "one task output per array element, in the result folder" 10 \
	"$(ls "$T/o1"/slurm-"${job}"_*.out | wc -l)"

# 2. One point fails: recorded with its reason, the others present.
run_gmsim sweep $D/fail.sweep --out "$T/o2" --emit-slurm "$T/a2.sh"
submit "$T/a2.sh"
wait_array "$job"
run_gmsim sweep --merge "$T/o2"
expect_eq "a failing point: 3 rows, 1 failed" "$T/o2/results.csv: 3 rows, 1 failed" "$out"
expect_eq "statuses ok failed ok" "ok failed ok" \
	"$(python3 -c 'import csv, sys
print(" ".join(r["status"] for r in csv.DictReader(open(sys.argv[1]))))' "$T/o2/results.csv")"
expect_eq "the failed point's reason is the run's message" \
	"gmsim: error: configs/test/small-gpu.cfg:12: l2.cache.size_kb: 32 KB is not a multiple of line x ways (128 B x 3)" \
	"$(python3 -c 'import json, os, sys
d = sys.argv[1] + "/points"
for f in sorted(os.listdir(d)):
	j = json.load(open(os.path.join(d, f)))
	if j["status"] == "failed": print(j["error"])' "$T/o2")"

# 3. A cancelled element, then only the missing point resubmitted.
run_gmsim sweep $D/small.sweep --out "$T/o3" --emit-slurm "$T/a3.sh"
submit --hold "$T/a3.sh"
scancel "${job}_3" 2>"$T/scancel.err"
scontrol release "$job" >/dev/null 2>&1
wait_array "$job"
run_gmsim sweep --merge "$T/o3"
expect_eq "element 3 cancelled: 9 rows, 1 point without a result" \
	"$T/o3/results.csv: 9 rows; 1 points have no result yet" "$out"
run_gmsim sweep $D/small.sweep --out "$T/o3" --emit-slurm "$T/a4.sh" --missing
expect_eq "--emit-slurm --missing: an array of the one missing point" \
	"0 #SBATCH --array=0-0 1" "$rc $(grep '^#SBATCH --array' "$T/a4.sh") $(wc -l <"$T/a4.jobs")"
submit "$T/a4.sh"
wait_array "$job"
run_gmsim sweep --merge "$T/o3"
expect_eq "resubmitted: 10 rows, each point once" "$T/o3/results.csv: 10 rows 10" \
	"$out $(tail -n +2 "$T/o3/results.csv" | cut -d, -f1 | sort -u | wc -l)"
expect_eq "... equal to the built-in runner's results.csv" "$(cat "$T/ref/results.csv")" \
	"$(cat "$T/o3/results.csv")"
run_gmsim sweep $D/small.sweep --out "$T/o3" --emit-slurm "$T/a5.sh" --missing
expect_eq "--missing on a complete set: nothing to emit, no script" "0 no" \
	"$rc $([ -e "$T/a5.sh" ] && echo yes || echo no)"
done_testing
