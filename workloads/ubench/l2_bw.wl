# l2_bw.wl - L2 (and, past it, DRAM) read bandwidth against the working-set size: RRZE-HPC
# gpu-l2-cache's kernel as the source writes it (gpu-l2-cache/main.cu). Blocks of 1024 threads;
# thread t of block b makes 32 iterations i of two independent 8 B loads, at double index
# base = 2 (1024 r i + (b mod r) 1024) + t and base + 1024: iteration i of a block reads the
# 16 KiB chunk r i + (b mod r) of a working set of r x 512 KiB, so blocks with equal b mod r
# read the same data and every block reads 512 KiB. Below the L2 capacity the working set stays
# in the L2 and every block re-reads it from there; above it most reads go to DRAM.
#
# Mirrors l2_read_bw@total_working_set_kB=K of measured.csv (r = K / 512). Scaling: the source
# launches 200000 blocks (100 GB of reads); gmsim validate runs 4 waves of resident blocks
# (4 x 2 x SMs on the parts here: in one wave blocks b and b + SMs would share an SM all along,
# and read the same chunks whenever r divides the SM count), each the source's 512 KiB, timed
# from the first warp instruction,
# after a warm-up wave of the same kernel (one block per resident slot) when the set fits
# 1.25 x L2 (a warm-up of r blocks would run on the first r SMs only: with two L2 partitions
# the other half of the SMs would start with nothing near them).
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
		{ op = "load"; array = "ws"; index = "2 * (1024 * r * i + (bx % r) * 1024) + tx"; },
		{ op = "load"; array = "ws"; index = "2 * (1024 * r * i + (bx % r) * 1024) + tx + 1024"; }
	); }
);
