#!/bin/sh
# config_golden.sh - the real schema against golden files.
#   tests/data/config/sys/good/X.cfg: `gmsim config show -c X.cfg` prints X.expected, exit 0
#   tests/data/config/sys/bad/X.cfg:  `gmsim config check -c X.cfg` exits 1 and prints X.err
# plus the default config, a missing file, and -o overrides (good and bad).
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
D=tests/data/config/sys
nbad=$(ls "$GMSIM_SRCDIR/$D/bad/"*.cfg | wc -l)
ngood=$(ls "$GMSIM_SRCDIR/$D/good/"*.cfg | wc -l)
plan $((nbad * 2 + ngood * 2 + 16))

for f in "$GMSIM_SRCDIR/$D/bad/"*.cfg; do
	name=$(basename "$f" .cfg)
	run_gmsim config check -c "$D/bad/$name.cfg"
	expect_eq "bad/$name exits 1" 1 "$rc"
	expect_eq "bad/$name message" "$(cat "$GMSIM_SRCDIR/$D/bad/$name.err")" "$err"
done
for f in "$GMSIM_SRCDIR/$D/good/"*.cfg; do
	name=$(basename "$f" .cfg)
	run_gmsim config show -c "$D/good/$name.cfg"
	expect_eq "good/$name exits 0" 0 "$rc"
	expect_eq "good/$name effective config" "$(cat "$GMSIM_SRCDIR/$D/good/$name.expected")" "$out"
done

run_gmsim config show -c configs/default.cfg
expect_eq "default config: show" "$(cat "$GMSIM_SRCDIR/$D/default.show.expected")" "$out"
run_gmsim config check -c configs/default.cfg
expect_eq "default config: check exits 0" 0 "$rc"
expect_eq "default config: check prints the clock domains" \
	"$(cat "$GMSIM_SRCDIR/$D/default.check.expected")" "$out"
run_gmsim config check
expect_eq "no -c means configs/default.cfg" "$(cat "$GMSIM_SRCDIR/$D/default.check.expected")" "$out"

# The effective config loads back to itself (same text, same hash).
run_gmsim config show -c configs/default.cfg -o clock.core_mhz=1410.5 -o sim.seed=8589934592
printf '%s\n' "$out" > "$tap_tmp/effective.cfg"
first=$out
out=$( (cd "$GMSIM_SRCDIR" && "$GMSIM" config show -c "$tap_tmp/effective.cfg") 2>&1)
expect_eq "effective config round-trips" "$first" "$out"
expect_match "override reaches the effective config" '^  core_mhz = 1410\.5;' "$first"
expect_match "64-bit override is written with L" '^  seed = 8589934592L;' "$first"

run_gmsim config check -c "$D/does-not-exist.cfg"
expect_eq "missing file exits 1" 1 "$rc"
expect_eq "missing file message" \
	"gmsim: error: $D/does-not-exist.cfg: cannot open: No such file or directory" "$err"

run_gmsim config check -c configs/default.cfg -o clock.core_mhz=fast
expect_eq "bad override value exits 1" 1 "$rc"
expect_eq "bad override value message" \
	'gmsim: error: -o clock.core_mhz=fast: clock.core_mhz: expected a number in 1..10000, got "fast"' "$err"

run_gmsim config check -c configs/default.cfg -o clock.core_mz=1400
expect_eq "unknown override key message" \
	'gmsim: error: -o clock.core_mz=1400: clock.core_mz: unknown key (did you mean clock.core_mhz?)' "$err"

run_gmsim config check -c configs/default.cfg -o clock
expect_eq "override without = exits 1" 1 "$rc"
expect_eq "override without = message" \
	'gmsim: error: -o clock: expected group.key=value (for example clock.core_mhz=1400)' "$err"

run_gmsim config check -c configs/default.cfg -o clock.core_mhz.x=1
expect_eq "override below a key message" \
	'gmsim: error: -o clock.core_mhz.x=1: core_mhz is not a group in configs/default.cfg' "$err"

run_gmsim config show -c configs/default.cfg -o 'gpu.name="my gpu"'
expect_match "quoted string override" '^  name = "my gpu";' "$out"
done_testing
