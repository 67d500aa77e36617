#!/bin/sh
# bad_inputs.sh - the bad-input corpus of tests/bad/ (doc/testing.md): every file exits 1 with
# exactly its expected message and without a sanitizer report.
#
#   tests/bad/<format>/<kind>.<ext>   one failure kind of one input format
#   tests/bad/<format>/<kind>.expected   the whole of stderr, paths as this script gives them
#
# The formats and the command each runs (from the source tree):
#   config    gmsim config check -c FILE.cfg
#   override  gmsim config check -c configs/test/small-gpu.cfg -o LINE... (FILE.args, a line each)
#   workload  gmsim run -q -c configs/test/small-gpu.cfg -w FILE.wl
#   dram      gmsim dram -c configs/test/gddr6-16ch.cfg --trace FILE.trace
#   trace     gmsim run -q --strict -c configs/test/small-gpu.cfg --trace KIND/kernelslist.g
#             (a directory per kind; KIND.why says what is wrong with it)
#   sweep     gmsim sweep FILE.sweep --dry-run
#   csv       gmsim validate -q -c configs/test/small-gpu.cfg --measured FILE.csv --gpu X
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
B=tests/bad
S=configs/test/small-gpu.cfg

cases=$(cd "$GMSIM_SRCDIR" && ls $B/*/*.expected)
plan $(($(printf '%s\n' "$cases" | wc -l) * 3))

for e in $cases; do
	fmt=$(basename "$(dirname "$e")")
	kind=$(basename "$e" .expected)
	f=$B/$fmt/$kind
	case $fmt in
	config) run_gmsim config check -c "$f.cfg" ;;
	override)
		set --
		while IFS= read -r line; do set -- "$@" -o "$line"; done <"$GMSIM_SRCDIR/$f.args"
		run_gmsim config check -c $S "$@"
		;;
	workload) run_gmsim run -q -c $S -w "$f.wl" ;;
	dram) run_gmsim dram -c configs/test/gddr6-16ch.cfg --trace "$f.trace" ;;
	trace) run_gmsim run -q --strict -c $S --trace "$f/kernelslist.g" ;;
	sweep) run_gmsim sweep "$f.sweep" --dry-run ;;
	csv) run_gmsim validate -q -c $S --measured "$f.csv" --gpu X ;;
	*) rc=x err="no command for format $fmt" ;;
	esac
	expect_eq "$fmt/$kind: exit 1" 1 "$rc"
	expect_eq "$fmt/$kind: message" "$(cat "$GMSIM_SRCDIR/$e")" "$err"
	if printf '%s\n' "$err" | grep -Eq 'ERROR: AddressSanitizer|runtime error:|LeakSanitizer'; then
		fail "$fmt/$kind: no sanitizer report" "$err"
	else
		pass "$fmt/$kind: no sanitizer report"
	fi
done
done_testing
