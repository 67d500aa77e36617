#!/bin/sh
# gpu_configs.sh - every shipped GPU config (configs/*.cfg) passes `gmsim config check`, and what
# the check derives matches the product it names: the peak DRAM bandwidth within 1% of the
# published figure, the SM count and the L2 size exactly. A config added to configs/ without a
# row below fails, so a new config comes with its published figures.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"

# config | published peak DRAM GB/s | SMs | L2 MB | product and source of the bandwidth
published() {
	cat <<'TABLE'
v100|900|80|6.0|Tesla V100 PCIe 16 GB, NVIDIA V100 PCIe product brief
a100-40gb|1555|108|40.0|A100 40 GB, NVIDIA A100 datasheet
a100-80gb|2039|108|40.0|A100 80 GB SXM4, NVIDIA A100 datasheet
t4|320|40|4.0|Tesla T4, NVIDIA T4 datasheet
a40|696|84|6.0|A40, NVIDIA A40 datasheet
rtx-a6000|768|84|6.0|RTX A6000, NVIDIA RTX A6000 datasheet
rtx3070|448|46|4.0|GeForce RTX 3070, NVIDIA specifications
rtx2060|336|30|3.0|GeForce RTX 2060, NVIDIA specifications
default|900|80|6.0|V100-class default: Tesla V100
a100-class|2039|108|40.0|A100-80GB-class: A100 80 GB SXM4
TABLE
}

n=$(cd "$GMSIM_SRCDIR" && ls configs/*.cfg | wc -l)
plan $((n * 3))
for f in $(cd "$GMSIM_SRCDIR" && ls configs/*.cfg); do
	cfg=$(basename "$f" .cfg)
	run_gmsim config check -c "$f"
	expect_eq "$f: config check exits 0" 0 "$rc"
	[ "$rc" -eq 0 ] || printf '%s\n' "$err" | sed 's/^/# /'
	row=$(published | grep "^$cfg|" || true)
	if [ -z "$row" ]; then
		fail "$f: peak DRAM bandwidth vs published" "no published figure for $cfg in $0"
		fail "$f: SMs and L2 size vs the product" "no published figure for $cfg in $0"
		continue
	fi
	pub=$(echo "$row" | cut -d'|' -f2) sms=$(echo "$row" | cut -d'|' -f3)
	l2=$(echo "$row" | cut -d'|' -f4) what=$(echo "$row" | cut -d'|' -f5)
	# "  capacity 16.00 GiB, peak 898.2 GB/s (= 4096 pins x 1.755 Gb/s)"
	peak=$(printf '%s\n' "$out" | awk '/^  capacity / { print $5 }')
	expect_num "$f: peak DRAM ${peak:-?} GB/s within 1% of $pub ($what)" \
		"\"$peak\" != \"\" && abs($peak - $pub) <= 0.01 * $pub"
	# "hierarchy: 80 SMs, L1 120 KB per SM (240-way), 64 L2 slices x 96 KB = 6.0 MB (24-way)"
	set -- $(printf '%s\n' "$out" | awk '/^hierarchy: / { print $2, $17 }')
	expect_eq "$f: SMs and L2 MB as the product" "$sms $l2" "${1:-?} ${2:-?}"
done
done_testing
