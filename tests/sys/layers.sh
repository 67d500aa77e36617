#!/bin/sh
# layers.sh - the layer order of doc/design.md ("Layers"), lowest first:
#
#   core < dram < mem < front < gpu < analysis | batch < cli < main.c
#
# A file under sim/ may include headers of its own layer and of lower layers only; analysis and
# batch are peers and include neither the other. Every layer folder is on the include path, so an
# #include "x.h" means the x.h of the includer's own folder if it has one, else the one layer
# folder that holds x.h. "config.h" (autoconf's) is allowed everywhere; <...> is the system's.
#   - the tree: no #include goes up (each one that does is listed as
#     `sim/front/sm.c: includes sim.h (gpu) from front`);
#   - the checker sees every layer;
#   - it can fail: in a copy of sim/ with an upward include, an include between the peers and an
#     unknown header planted (and a downward include, which is fine), it reports exactly the three.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 5

LAYER_ORDER="core dram mem front gpu analysis|batch cli main"

# layers_check ROOT: one line per #include "..." of ROOT/**/*.[ch] that breaks the order (ROOT
# is sim/ or a copy of it; files are named sim/... either way), in file order. A file directly in
# ROOT (main.c) is layer "main". Also reported: a layer folder the order does not name, a header
# no layer folder holds, a header that two other layers hold. Prints nothing for a clean tree.
layers_check() {
	(cd "$1" && find . -type f \( -name '*.c' -o -name '*.h' \) | sed 's|^\./||' |
		LC_ALL=C sort) >"$tap_tmp/layers.files" || return 1
	# shellcheck disable=SC2046 # file names under sim/ have no spaces
	(cd "$1" && awk -v order="$LAYER_ORDER" '
	function layer_of(p) { if (p !~ /\//) return "main"; sub(/\/.*/, "", p); return p }
	BEGIN {
		n = split(order, step, " ")
		for (i = 1; i <= n; i++) {
			m = split(step[i], peer, "|")
			for (j = 1; j <= m; j++) rank[peer[j]] = i
		}
	}
	FNR == NR {     # the file list: which layers hold each header name
		if ($0 ~ /\.h$/) {
			b = $0; sub(/.*\//, "", b); l = layer_of($0)
			if (!((l, b) in has)) {   # (mawk creates where[b] before the right side is read)
				w = (b in where) ? where[b] " and " l : l
				where[b] = w
			}
			has[l, b] = 1
		}
		next
	}
	FNR == 1 {
		me = layer_of(FILENAME)
		if (!(me in rank)) print "sim/" FILENAME ": layer " me " is not in the order " order
	}
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		h = $0
		sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", h); sub(/".*/, "", h); sub(/.*\//, "", h)
		if (h == "config.h") next
		if ((me, h) in has) hl = me
		else if (!(h in where)) { print "sim/" FILENAME ": includes " h ", which no layer folder holds"; next }
		else if (where[h] ~ / and /) { print "sim/" FILENAME ": includes " h ", which " where[h] " both hold"; next }
		else hl = where[h]
		if (!(me in rank) || !(hl in rank)) next
		if (rank[hl] > rank[me] || (rank[hl] == rank[me] && hl != me))
			print "sim/" FILENAME ": includes " h " (" hl ") from " me
	}' "$tap_tmp/layers.files" $(cat "$tap_tmp/layers.files"))
}

layers_check "$GMSIM_SRCDIR/sim" >"$tap_tmp/tree"
expect_eq "no #include under sim/ goes up the order $LAYER_ORDER" "" "$(cat "$tap_tmp/tree")"

expect_eq "the checker reads every layer" "analysis batch cli core dram front gpu main mem" \
	"$(sed 's|/.*||; s|.*\.[ch]$|main|' "$tap_tmp/layers.files" | LC_ALL=C sort -u | tr '\n' ' ' |
		sed 's/ $//')"

# The same tree with four includes planted: up (core -> cli), across the peers (analysis ->
# batch), a header nobody has, and down (mem -> dram, allowed). distcheck's source tree is
# read-only, and cp keeps the modes.
cp -R "$GMSIM_SRCDIR/sim" "$tap_tmp/sim" && chmod -R u+w "$tap_tmp/sim"
echo '#include "cli.h"' >>"$tap_tmp/sim/core/log.c"
echo '#include "json.h"' >>"$tap_tmp/sim/analysis/reuse.c"
echo '#  include "nosuch.h"' >>"$tap_tmp/sim/front/expr.c"
echo '#include "dram.h"' >>"$tap_tmp/sim/mem/cache.c"
layers_check "$tap_tmp/sim" >"$tap_tmp/planted"
LC_ALL=C sort "$tap_tmp/tree" >"$tap_tmp/tree.sorted"
new=$(LC_ALL=C sort "$tap_tmp/planted" | LC_ALL=C comm -13 "$tap_tmp/tree.sorted" -)
expect_match "an upward include is reported" '^sim/core/log\.c: includes cli\.h \(cli\) from core$' "$new"
expect_match "an include between the peers is reported" \
	'^sim/analysis/reuse\.c: includes json\.h \(batch\) from analysis$' "$new"
expect_eq "... and an unknown header; the downward include is not" \
	"sim/analysis/reuse.c: includes json.h (batch) from analysis
sim/core/log.c: includes cli.h (cli) from core
sim/front/expr.c: includes nosuch.h, which no layer folder holds" "$new"
done_testing
