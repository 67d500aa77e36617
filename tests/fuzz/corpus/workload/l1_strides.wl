# l1_strides.wl - L1 hit throughput of a 2D access pattern: one block of 1024 threads laid out
# w wide (block w x 1024/w); thread (x, y) reads A[x % 64 + (y % 32) * pitch + k] for k in
# 0 .. reads-1 (one element further each time), every read an L1 hit once the ~32 rows are in.
# A warp spans 32/w rows (w < 32) or one row (w >= 32): 32/w lines per load at w < 32, so the
# cycles per warp load follow how many lines (and L1 data-pipe passes) a warp needs.
#
# Mirrors l1_cycles_per_warp_load@{float,double}_block_width=W_pitch=P of measured.csv: RRZE-HPC
# gpu-strides blockKernel, "1024-thr block of width w, thread (x,y) reads
# A[x%64+(y%32)*pitch+..] (L1 hits)": -p w=W -p pitch=P and elem=4 (float) or 8 (double).
# The source's "+.." (further unrolled offsets) is not in the row; here it is k, one element per
# read. gmsim validate runs a one-read warm-up kernel first and reports the measured kernel's
# cycles / warp loads. The loads name no register (the source sums independent loads).
kernel = "l1_strides";
params = { w = 32; pitch = 4098; reads = 64; elem = 4; };
grid   = ( 1, 1, 1 );
block  = ( "w", "1024 / w", 1 );
arrays = (
	{ name = "A"; elems = "64 + 32 * pitch + reads"; elem_bytes = "elem"; }
);
body = (
	{ op = "loop"; var = "k"; count = "reads"; body = (
		{ op = "load"; array = "A"; index = "tx % 64 + (ty % 32) * pitch + k"; }
	); }
);
