#!/bin/sh
# table.sh - the table of shipped GPU configs in configs/README.md, from `gmsim config check`.
#
#   configs/table.sh [GMSIM]            print the table (Markdown)
#   configs/table.sh --update [GMSIM]   rewrite it in configs/README.md, between the markers
#
# Run from the source tree root; GMSIM defaults to build/sim/gmsim. The published peak of each
# product (the last columns) is the table below, the same figures tests/sys/gpu_configs.sh checks.
set -eu

update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
GMSIM=${1:-build/sim/gmsim}
cd "$(dirname "$0")/.."

# config | product | published peak GB/s | source
published() {
	cat <<'TABLE'
v100|Tesla V100 PCIe 16 GB|900|NVIDIA Tesla V100 PCIe product brief / V100 datasheet
a100-40gb|A100 40 GB (PCIe, SXM4)|1555|NVIDIA A100 datasheet, 40 GB
a100-80gb|A100 80 GB SXM4|2039|NVIDIA A100 datasheet, 80 GB SXM
t4|Tesla T4|320|NVIDIA T4 datasheet
a40|A40|696|NVIDIA A40 datasheet
rtx-a6000|RTX A6000|768|NVIDIA RTX A6000 datasheet
rtx3070|GeForce RTX 3070|448|NVIDIA RTX 3070 specifications; TechPowerUp GPU database
rtx2060|GeForce RTX 2060|336|NVIDIA RTX 2060 specifications; TechPowerUp GPU database
default|V100-class default (Tesla V100)|900|as v100
a100-class|A100-80GB-class, `make bench`|2039|NVIDIA A100 datasheet, 80 GB SXM
TABLE
}

table() {
	echo "| config | product | SMs | SM MHz | L1 per SM | L2 | DRAM | bus | Gb/s/pin | peak GB/s (derived) | published GB/s (source) | derived vs published | unloaded L1 / L2 / DRAM row hit / row miss, cycles (ns) |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	published | while IFS='|' read -r cfg product pub src; do
		f=configs/$cfg.cfg
		[ -f "$f" ] || continue
		out=$("$GMSIM" config check -c "$f")
		echo "$out" | awk -v cfg="$cfg" -v product="$product" -v pub="$pub" -v src="$src" '
		$1 == "core" && NF >= 4 { mhz = $2 + 0 }
		/^dram: / { std = $2; if (std == "hbm2e") std = "HBM2e"; else std = toupper(std) }
		/^  capacity / {
			peak = $5
			pins = $8; sub(/^\(= ?/, "", pins); rate = $11
		}
		/^hierarchy: / {
			sms = $2
			l1 = $5 " KB, " $9; gsub(/[(),]/, "", l1); sub(/ KB /, " KB, ", l1)
			l2 = $17 " MB = " $10 " x " $14 " KB, " $19; gsub(/[()]/, "", l2)
		}
		/unloaded load latency/ {
			s = $0; sub(/.*\(ns\): /, "", s); gsub(/,/, "", s)
			n = split(s, w, / /)
			lat = w[3] " " w[4] " / " w[7] " " w[8] " / " w[12] " " w[13] " / " w[16] " " w[17]
		}
		END {
			printf "| `%s` | %s | %d | %.0f | %s | %s | %s | %d bits | %s | %.1f | %s (%s) | %+.2f%% | %s |\n",
				cfg, product, sms, mhz, l1, l2, std, pins, rate, peak, pub, src,
				100 * (peak - pub) / pub, lat
		}'
	done
}

if [ $update -eq 0 ]; then
	table
	exit 0
fi
readme=configs/README.md
tmp=$readme.tmp.$$
table >"$tmp.table"
awk -v tf="$tmp.table" '
	/<!-- table.sh begin -->/ { print; while ((getline line < tf) > 0) print line; skip = 1; next }
	/<!-- table.sh end -->/ { skip = 0 }
	!skip { print }' "$readme" >"$tmp"
mv "$tmp" "$readme"
rm -f "$tmp.table"
