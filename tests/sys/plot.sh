#!/bin/sh
# plot.sh - `gmsim plot` on tests/data/sweep/results.csv (2 configs x 3 strides, one failed row):
#   - the .dat of a line chart grouped by --by (blocks in first-row order, x ascending, the
#     failed row left out), the .gp naming it, one series without --by, a bar chart's table;
#   - with PATH holding no gnuplot: both files written, a message naming them, exit 0; with
#     gnuplot installed, the SVG itself;
#   - an unknown column (did you mean), a non-numeric x or y, a repeated x, a missing file:
#     file:line errors, exit 1; usage errors exit 2.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 14
R=tests/data/sweep/results.csv
T=$tap_tmp
mkdir "$T/empty"

# gmsim with a PATH that has no gnuplot (an empty directory and gmsim's own).
run_nogp() {
	(cd "$GMSIM_SRCDIR" && PATH="$T/empty:$(dirname "$GMSIM")" "$GMSIM" "$@") \
		>"$T/out" 2>"$T/err"
	rc=$?
	out=$(cat "$T/out")
	err=$(cat "$T/err")
}

run_nogp plot $R --x stride --y dram.achieved_gbps --by config --out "$T/bw.svg"
expect_eq "no gnuplot: exit 0, the files and the series" \
	"0
$T/bw.dat, $T/bw.gp: 5 rows in 2 series; 1 not ok, left out" "$rc
$out"
expect_eq "... a message naming both files and gnuplot" \
	"gmsim plot: gnuplot is not on PATH, so no $T/bw.svg: wrote $T/bw.gp and $T/bw.dat; run \`gnuplot bw.gp\` where gnuplot is installed, in the directory that holds both files" \
	"$err"
expect_eq "--by config: one block per config, x ascending, the failed row left out" \
	"# gmsim plot $R: dram.achieved_gbps against stride for each config
# config = configs/t4.cfg
# stride dram.achieved_gbps
1 34.5967861
4 62.6625463
32 65.3942579


# config = configs/a100-80gb.cfg
# stride dram.achieved_gbps
1 166.849124
32 380.780287" "$(cat "$T/bw.dat")"
expect_eq "the script plots both blocks into bw.svg" \
	"set output 'bw.svg'
plot 'bw.dat' index 0 using 1:2 with linespoints title 'configs/t4.cfg', \\
     '' index 1 using 1:2 with linespoints title 'configs/a100-80gb.cfg'" \
	"$(grep -e '^set output' -e '^plot' -e "^     ''" "$T/bw.gp")"

printf 'point,config,stride,status,sim.cycles\np1,a.cfg,8,ok,20\np2,a.cfg,2,ok,10\n' >"$T/one.csv"
run_nogp plot "$T/one.csv" --x stride --y sim.cycles --out "$T/one.svg"
expect_eq "no --by: one series, x ascending" "0
# stride sim.cycles
2 10
8 20" "$rc
$(tail -n +2 "$T/one.dat")"

run_nogp plot $R --x config --y sim.cycles --by stride --kind bar --out "$T/c.png"
expect_eq "--kind bar: one row per label, numeric groups ascending, ? where none" "0
# config \"1\" \"4\" \"32\"
\"configs/t4.cfg\" 1420 3136 6010
\"configs/a100-80gb.cfg\" 277 ? 971" "$rc
$(tail -n +2 "$T/c.dat")"

run_gmsim plot $R --x stride --y dram.achieved_gbp --by config --out "$T/x.svg"
expect_eq "an unknown column: exit 1, file:1, did you mean" "1
gmsim: error: $R:1: --y dram.achieved_gbp: no such column (did you mean \"dram.achieved_gbps\"?)" \
	"$rc
$err"
run_gmsim plot $R --x stride --y sim.cycles --by confg --out "$T/x.svg"
expect_match "... --by too" "--by confg: no such column \(did you mean \"config\"\?\)" "$err"
run_gmsim plot $R --x config --y sim.cycles --out "$T/x.svg"
expect_eq "a non-numeric x in a line chart: exit 1 at its line" "1
gmsim: error: $R:2: --x config: 'configs/t4.cfg' is not a number (a bar chart, --kind bar, takes labels)" \
	"$rc
$err"
printf 'point,stride,status,y\np1,1,ok,abc\n' >"$T/bad.csv"
run_gmsim plot "$T/bad.csv" --x stride --y y --out "$T/x.svg"
expect_eq "a non-numeric y: exit 1 at its line" "1
gmsim: error: $T/bad.csv:2: --y y: 'abc' is not a number" "$rc
$err"
run_gmsim plot $R --x stride --y sim.cycles --out "$T/x.svg"
expect_eq "two rows with one x in a series: exit 1, choose --by" "1
gmsim: error: $R:5: a second row for stride = 1 (the first is line 3): another axis varies; choose it with --by" \
	"$rc
$err"
run_gmsim plot "$T/none.csv" --x a --y b --out "$T/x.svg"
expect_eq "a missing file: exit 1" "1
gmsim: error: $T/none.csv: cannot open: No such file or directory" "$rc
$err"
run_gmsim plot $R --x stride --out "$T/x.svg"
r1=$rc
run_gmsim plot $R --x stride --y sim.cycles --out "$T/x.pdf"
r2=$rc
run_gmsim plot $R --x stride --y sim.cycles --kind pie
expect_eq "usage errors (no --y, --out .pdf, --kind pie): exit 2" "2 2 2" "$r1 $r2 $rc"

if command -v gnuplot >/dev/null 2>&1; then
	run_gmsim plot $R --x stride --y dram.achieved_gbps --by config --out "$T/g.svg"
	expect_eq "with gnuplot: exit 0 and an SVG" "0 yes" \
		"$rc $(grep -q '<svg' "$T/g.svg" 2>/dev/null && echo yes)"
else
	tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP gnuplot is not installed"
fi
done_testing
