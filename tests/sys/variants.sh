#!/bin/sh
# variants.sh - configs as layers (doc/config-reference.md, "Layers, includes and origins").
#
#   - A study folder outside the checkout (a temporary folder, with the checkout reachable as
#     ../gmsim as a user would have it) holds variants that name a shipped config as their base,
#     by a relative and by an absolute path: each checks, runs and sweeps from that folder, and
#     its simulation is byte for byte the base's run with the same keys given as -o.
#   - What failed before layers: a file that includes a shipped config to change one key (now
#     a base; the include form says what to write instead), a file in the study folder that
#     includes ../gmsim/configs/v100.cfg (whose own includes are next to it), an absolute include.
#   - `config diff` between each example of configs/variants/ and its base prints exactly the
#     keys the example changes; a variant equal to its base has the base's hash.
#   - `config show --origin` names the file:line, the -o or the default of each value.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 29

src=$(cd "$GMSIM_SRCDIR" && pwd -P)
W="$tap_tmp/work"
mkdir -p "$W/study"
ln -s "$src" "$W/gmsim"
S="$W/study"
# Runs gmsim from the study folder, as a user there would.
in_study() {
	(cd "$S" && "$GMSIM" "$@") >"$tap_tmp/out" 2>"$tap_tmp/err"
	rc=$?
	out=$(cat "$tap_tmp/out")
	err=$(cat "$tap_tmp/err")
}

# Two variants of the small test GPU: 2 SMs instead of 4 and a 64 KB L2 slice instead of 32.
cat >"$S/rel.cfg" <<EOF
# two SMs and twice the L2, the rest of the small test GPU
base = "../gmsim/configs/test/small-gpu.cfg";
gpu: { sms = 2; };
l2: { cache: { size_kb = 64; }; };
EOF
sed "s|^base = .*|base = \"$src/configs/test/small-gpu.cfg\";|" "$S/rel.cfg" >"$S/abs.cfg"
ovr="-o gpu.sms=2 -o l2.cache.size_kb=64"

in_study config check -c rel.cfg
expect_eq "relative base: config check exits 0" 0 "$rc"
hrel=$(printf '%s\n' "$out" | sed -n 's/^config hash: //p')
in_study config check -c abs.cfg
expect_eq "absolute base: config check exits 0" 0 "$rc"
habs=$(printf '%s\n' "$out" | sed -n 's/^config hash: //p')
in_study config check -c ../gmsim/configs/test/small-gpu.cfg $ovr
hovr=$(printf '%s\n' "$out" | sed -n 's/^config hash: //p')
expect_eq "both hash as the base with the same -o" "$hovr $hovr" "$hrel $habs"
in_study config check -c ../gmsim/configs/test/small-gpu.cfg
expect_eq "... which is not the base's hash" "different" \
	"$([ "$(printf '%s\n' "$out" | sed -n 's/^config hash: //p')" != "$hrel" ] && echo different)"

# A run on the variant is the base's run with the keys as overrides, byte for byte.
wl="$src/workloads/stride.wl"
in_study run -q -c rel.cfg -w "$wl" -p n=16384 --stats-json v.json --stats-no-host
expect_eq "run on the relative variant exits 0" 0 "$rc"
in_study run -q -c abs.cfg -w "$wl" -p n=16384 --stats-json a.json --stats-no-host
in_study run -q -c ../gmsim/configs/test/small-gpu.cfg $ovr -w "$wl" -p n=16384 \
	--stats-json o.json --stats-no-host
expect_eq "its statistics = the base's run with -o of the same keys" "$(cat "$S/o.json")" \
	"$(cat "$S/v.json")"
expect_eq "... and the absolute variant's" "$(cat "$S/o.json")" "$(cat "$S/a.json")"
expect_eq "the run used 2 SMs (and the base's 4 L2 slices)" "2 4" \
	"$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sum(1 for k in d if k.startswith("sm") and k[2:].isdigit()), sum(1 for k in d if k.startswith("l2s")))' "$S/v.json")"

# A sweep in the study folder over the base and both variants.
cat >"$S/study.sweep" <<EOF
configs   = [ "../gmsim/configs/test/small-gpu.cfg", "rel.cfg", "abs.cfg" ];
workloads = [ "$wl" ];
params    = { n = [ 16384 ]; };
metrics   = [ "sim.cycles", "l2.accesses" ];
EOF
in_study sweep study.sweep --out out -j 1 -q
expect_eq "the sweep exits 0" 0 "$rc"
expect_eq "3 points, all ok" "ok ok ok" \
	"$(python3 -c 'import csv, sys
print(" ".join(r["status"] for r in csv.DictReader(open(sys.argv[1]))))' "$S/out/results.csv")"
cyc=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["sim"]["cycles"])' "$S/o.json")
expect_eq "the variants' rows have the -o run's cycles, the base's another" "yes $cyc $cyc" \
	"$(python3 -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
c = [x["sim.cycles"] for x in r]
print("yes" if c[0] != c[1] else "no", c[1], c[2])' "$S/out/results.csv")"

# What failed before: include + change (now a base; the include form says so), a relative
# The line of a shipped config that sets KEY (the first; the last with "last"), so that comment
# edits in configs/ do not break the origins checked below.
key_line() {
	grep -n "^ *$2 = " "$GMSIM_SRCDIR/configs/$1" | { if [ "${3:-}" = last ]; then tail -n 1; else head -n 1; fi; } | cut -d: -f1
}
# include of a shipped config whose own includes sit next to it, an absolute include.
printf '@include "../gmsim/configs/v100.cfg"\nl2: { cache: { size_kb = 192; }; };\n' >"$S/inc.cfg"
in_study config check -c inc.cfg
expect_eq "include then set a key: exit 1, the message says to use base" \
	"1 gmsim: error: inc.cfg:2: l2: duplicate key (already set in this group; to change values of an included config, name it as the base instead: base = \"file\";)" \
	"$rc $err"
printf 'base = "../gmsim/configs/v100.cfg";\nl2: { cache: { size_kb = 192; }; };\n' >"$S/v100-l2x2.cfg"
in_study config show -c v100-l2x2.cfg --origin
expect_eq "as a base: exit 0, the key from the variant, the rest from v100.cfg and sm/volta.cfg" \
	"0 l2.cache.size_kb = 192  # v100-l2x2.cfg:2|gpu.sms = 80  # ../gmsim/configs/v100.cfg:$(key_line v100.cfg sms)|sm.max_warps = 64  # ../gmsim/configs/sm/volta.cfg:$(key_line sm/volta.cfg max_warps)" \
	"$rc $(for k in l2.cache.size_kb gpu.sms sm.max_warps; do printf '%s\n' "$out" | grep "^$k = "; done | tr '\n' '|' | sed 's/|$//')"
printf '@include "../gmsim/configs/v100.cfg"\n' >"$S/relinc.cfg"
in_study config check -c relinc.cfg
expect_eq "a relative include of v100.cfg (which includes sm/volta.cfg): exit 0" "0 V100-PCIe-16GB" \
	"$rc $(printf '%s\n' "$out" | sed -n 's/^gpu: //p')"
printf '@include "%s/configs/v100.cfg"\n' "$src" >"$S/absinc.cfg"
in_study config check -c absinc.cfg
expect_eq "an absolute include: exit 0" "0 V100-PCIe-16GB" \
	"$rc $(printf '%s\n' "$out" | sed -n 's/^gpu: //p')"
# Includes and bases not next to their file are looked for in the shipped configs/ folder.
printf 'base = "v100.cfg";\ndram: {\n  @include "dram/hbm2e-3.2gbps.cfg"\n};\n' >"$S/shipped.cfg"
in_study config show -c shipped.cfg --origin
expect_eq "base and include found in the shipped folder" \
	"0 dram.standard = \"hbm2e\"  # $src/configs/dram/hbm2e-3.2gbps.cfg:4|gpu.sms = 80  # $src/configs/v100.cfg:$(key_line v100.cfg sms)" \
	"$rc $(for k in dram.standard gpu.sms; do printf '%s\n' "$out" | grep "^$k = "; done | tr '\n' '|' | sed 's/|$//')"

# A variant that sets its base's values has its base's hash; diff says nothing differs.
printf 'base = "../gmsim/configs/v100.cfg";\ngpu: { sms = 80; };\n' >"$S/same.cfg"
in_study config diff ../gmsim/configs/v100.cfg same.cfg
expect_eq "a variant equal to its base: diff finds no key, equal hashes" \
	"0 no keys differ: the effective configs are the same (equal hashes)" \
	"$rc $(printf '%s\n' "$out" | tail -n 1)"
expect_eq "... the hashes it prints are equal" 1 \
	"$(printf '%s\n' "$out" | sed -n 's/.*(config hash \(.*\))$/\1/p' | sort -u | wc -l)"

# config diff of each shipped example against its base: exactly the keys it changes.
for v in a100-80gb-l2x2:a100-80gb:l2.cache.size_kb \
	 v100-hbm2e:v100:dram.standard,dram.data_rate_gbps,dram.rows \
	 a40-closed-page:a40:mc.page_policy \
	 a100-40gb-half-sms:a100-40gb:gpu.sms; do
	name=${v%%:*}
	rest=${v#*:}
	base=${rest%%:*}
	keys=${rest#*:}
	run_gmsim config diff configs/$base.cfg configs/variants/$name.cfg
	expect_eq "config diff $base $name: exactly $keys" "0 $keys" \
		"$rc $(printf '%s\n' "$out" | sed -n 's/^  \([a-z0-9_.]*\): .* -> .*  (A: .*/\1/p' | tr '\n' ',' | sed 's/,$//')"
done
run_gmsim config diff configs/a100-80gb.cfg configs/variants/a100-80gb-l2x2.cfg
expect_eq "... with both origins and the derived figure it changes" \
	"  l2.cache.size_kb: 512 -> 1024  (A: configs/a100-80gb.cfg:$(key_line a100-80gb.cfg size_kb last); B: configs/variants/a100-80gb-l2x2.cfg:9)|derived figures that change:|  L2 capacity, MB: 40.0 -> 80.0" \
	"$(printf '%s\n' "$out" | tail -n 3 | tr '\n' '|' | sed 's/|$//')"

# --origin: file:line, include, -o, default.
run_gmsim config show -c configs/variants/v100-hbm2e.cfg -o mc.read_queue=64 --origin
expect_eq "--origin: a layer's key, an included one, an override, a default" \
	"dram.rows = 0  # configs/variants/v100-hbm2e.cfg:9|dram.data_rate_gbps = 3.2  # configs/dram/hbm2e-3.2gbps.cfg:5|mc.read_queue = 64  # -o mc.read_queue=64|mc.write_low = 32  # configs/v100.cfg:$(key_line v100.cfg write_low)" \
	"$(for k in dram.rows dram.data_rate_gbps mc.read_queue mc.write_low; do printf '%s\n' "$out" | grep "^$k = "; done | tr '\n' '|' | sed 's/|$//')"
run_gmsim config show -c configs/test/small-gpu.cfg --origin
expect_eq "--origin: a key nobody sets is the default" "mc.row_hit_cap = 16  # default" \
	"$(printf '%s\n' "$out" | grep '^mc.row_hit_cap = ')"
expect_eq "--origin lists every key of config show" \
	"$(cd "$GMSIM_SRCDIR" && "$GMSIM" config show -c configs/test/small-gpu.cfg | grep -c ' = ')" \
	"$(printf '%s\n' "$out" | wc -l)"

# A broken config in a diff is the config's error, with its file and line.
run_gmsim config diff configs/v100.cfg tests/bad/config/layer_unknown_key.cfg
expect_eq "diff with a broken B: exit 1, B's file:line" \
	"1 $(cat "$GMSIM_SRCDIR/tests/bad/config/layer_unknown_key.expected")" "$rc $err"

# Usage errors.
run_gmsim config diff configs/v100.cfg
expect_eq "diff with one file: usage error (exit 2)" 2 "$rc"
run_gmsim config check -c configs/v100.cfg --origin
expect_eq "--origin with check: usage error" 2 "$rc"
done_testing
