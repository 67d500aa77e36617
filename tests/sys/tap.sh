# tap.sh - sourced by the shell system tests: TAP output for automake's tap-driver.sh.
#
#   plan N            print the plan
#   ok COND NAME      one test point (COND is a shell command)
#   run_gmsim ARGS    runs $GMSIM with ARGS from the source tree; sets $out, $err, $rc
#   expect_eq NAME EXPECTED ACTUAL   one test point; shows a diff on failure
#   expect_num NAME AWK-CONDITION    one test point: an awk condition (abs() available)
#   jget FILE NAME... prints each dotted statistic of a --stats-json file ("missing" if absent)
#   done_testing      exits non-zero if any point failed
# $GMSIM and $GMSIM_SRCDIR come from the Makefile's AM_TESTS_ENVIRONMENT.

: "${GMSIM:?GMSIM is not set (run through make check)}"
: "${GMSIM_SRCDIR:=.}"
tap_n=0
tap_failed=0
tap_tmp=$(mktemp -d "${TMPDIR:-/tmp}/gmsim-test.XXXXXX")
trap 'rm -rf "$tap_tmp"' EXIT

plan() { echo "1..$1"; }

pass() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }

fail() {
	tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	shift
	for line in "$@"; do printf '%s\n' "$line" | sed 's/^/# /'; done
}

run_gmsim() {
	(cd "$GMSIM_SRCDIR" && "$GMSIM" "$@") >"$tap_tmp/out" 2>"$tap_tmp/err"
	rc=$?
	out=$(cat "$tap_tmp/out")
	err=$(cat "$tap_tmp/err")
}

expect_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		printf '%s\n' "$2" >"$tap_tmp/expected"
		printf '%s\n' "$3" >"$tap_tmp/actual"
		fail "$1" "$(diff -u "$tap_tmp/expected" "$tap_tmp/actual")"
	fi
}

# expect_match NAME REGEX TEXT
expect_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		pass "$1"
	else
		fail "$1" "expected to match: $2" "got: $3"
	fi
}

done_testing() { [ "$tap_failed" -eq 0 ]; exit $?; }

expect_num() {
	if awk "function abs(x) { return x < 0 ? -x : x } BEGIN { exit !($2) }"; then
		pass "$1"
	else
		fail "$1" "false: $2"
	fi
}

jget() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for name in sys.argv[2:]:
	v = d
	for k in name.split("."):
		v = v.get(k, {}) if isinstance(v, dict) else {}
	print(v if isinstance(v, (int, float)) and not isinstance(v, bool) else "missing")' "$@"
}
