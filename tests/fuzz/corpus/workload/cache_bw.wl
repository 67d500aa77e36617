# cache_bw.wl - L1 and L2 read bandwidth: one block of 256 threads per SM (grid = sms), every
# block re-reads the same float buffer of kb KiB `reps` times, 256 consecutive floats (one
# coalesced line per warp) per step. Small buffers are L1 hits on every SM; past the L1 every
# SM streams the buffer from the shared L2 (the blocks run in step, so even a buffer past the
# L2 is mostly served by it).
#
# Mirrors l1_l2_read_bw_per_dataset@kB=K of measured.csv: RRZE-HPC gpu-cache, "1 block (256 thr)
# / SM, all blocks re-read the same float buffer of this size; aggregate GB/s".
# The loads name no register: the source unrolls its loop and sums, so no load waits for another
# (only the LD/ST unit, the L1 and the memory below limit the rate).
# Scaling: a block reads min(kb, win_kb) KiB per repetition (the first win_kb KiB); gmsim
# validate sets reps so each block reads at least 256 KiB, with a one-repetition warm-up kernel
# first. Below win_kb (256 KiB, twice the largest L1) this is exactly the source's kernel; above
# it every read misses the L1 anyway and the blocks stream the window from the L2 in step as
# they stream the whole buffer on the GPU.
kernel = "cache_bw";
params = { kb = 64; reps = 4; win_kb = 256; sms = 80; };
grid   = ( "sms", 1, 1 );
block  = [ 256, 1, 1 ];
arrays = (
	{ name = "buf"; elems = "kb * 1024 / 4"; type = "float"; }
);
body = (
	{ op = "loop"; var = "r"; count = "reps"; body = (
		{ op = "loop"; var = "i"; count = "min(kb, win_kb) * 1024 / 4 / 256"; body = (
			{ op = "load"; array = "buf"; index = "i * 256 + tx"; }
		); }
	); }
);
