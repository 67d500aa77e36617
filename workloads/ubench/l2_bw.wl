# l2_bw.wl - L2 (and, past it, DRAM) read bandwidth against the working-set size: RRZE-HPC
# gpu-l2-cache's kernel (gpu-l2-cache/main.cu). Blocks of 1024 threads; thread t of block b
# makes 32 iterations i of two independent 8 B loads, at double index
# base = 2 (1024 r i + c(b) 1024) + t and base + 1024: iteration i of a block reads the 16 KiB
# chunk r i + c(b) of a working set of r x 512 KiB, so blocks of equal class c(b) read the same
# data and every block reads 512 KiB. Below the L2 capacity the working set stays in the L2 and
# every block re-reads it from there; above it most reads go to DRAM.
#
# Mirrors l2_read_bw@total_working_set_kB=K of measured.csv (r = K / 512). Scaling: the source
# launches 200000 blocks (100 GB of reads); gmsim validate runs 4 waves of resident blocks
# (4 x 2 x SMs on the parts here), each the source's 512 KiB, timed from the first warp
# instruction, after a warm-up wave of the same kernel (one block per resident slot) when the
# set fits 1.25 x L2 (a warm-up of r blocks would run on the first r SMs only: with two L2
# partitions the other half of the SMs would start with nothing near them).
# The block's class: the source's is c(b) = b mod r. Over its 200,000 blocks each wave meets
# another distribution of blocks over the SMs (the source's author, gpu-benches issue 3), so
# two blocks sharing an SM read the same chunks (and share its L1) about 1 time in r. Four
# waves of a model without timing jitter keep the first wave's pairs (blocks b and b + SMs on
# one SM), which share every chunk whenever r divides the SM count (A100, r = 18: +13%). The
# mirror keeps the steady state instead: c(b) = (b + H(b / r)) mod r, so each run of r
# consecutive blocks still covers the r classes once (the same footprint and the same re-reads
# per byte) while co-resident blocks share a class about 1 time in r, whatever the SM count
# (gmsim analyze -o gpu.sms=108 -p blocks=864: predicted L1 hit rate 0.083 at r = 6 and 0.021
# at r = 18, 0.5 / r expected; 0.5 with b mod r). H(x) is bits 16-31 of the expression
# language's hash(x), a 32-bit integer mix (doc/front.md); a multiplicative hash alone keeps a
# near-constant step between neighbouring x and kept most pairs.
# The loads name no register: the source unrolls and sums, no load waits for another.
kernel = "l2_bw";
params = { r = 8; blocks = 216; };
grid   = ( "blocks", 1, 1 );
block  = [ 1024, 1, 1 ];
arrays = (
	{ name = "ws"; elems = "r * 65536"; type = "double"; }
);
body = (
	{ op = "loop"; var = "i"; count = 32; body = (
		{ op = "load"; array = "ws"; index = "2 * (1024 * r * i + ((bx + (hash(bx / r) >> 16)) % r) * 1024) + tx"; },
		{ op = "load"; array = "ws"; index = "2 * (1024 * r * i + ((bx + (hash(bx / r) >> 16)) % r) * 1024) + tx + 1024"; }
	); }
);
