# l1_lane_strides.wl - L1 hit throughput against the stride between lanes: one block of 1024
# threads, thread t reads A[(t % 64) * stride + k * step] for k in 0 .. reads-1, `reps` times;
# after the first pass every read is an L1 hit. Stride 0: one address for the whole warp;
# stride 1: one coalesced line; stride s: the 32 lanes of a warp touch 32 x s x elem bytes, so
# the lines (and data-path passes) per warp load grow with s until each lane has its own line.
#
# Mirrors l1_cycles_per_warp_load@{float,double}_stride=S and
# l1_load_bytes_per_cycle_per_SM@{float,double}_stride=S of measured.csv: RRZE-HPC gpu-strides,
# "1 block x 1024 thr, thread t reads A[(t%64)*stride+{0..28 step 4}] (L1 hits)": -p stride=S,
# elem=4 (float) or 8 (double), reads=8, step=4. gmsim validate runs a one-pass warm-up kernel,
# then reports the measured kernel's cycles per warp load (or requested bytes per cycle). The
# loads name no register (the source sums independent loads).
kernel = "l1_lane_strides";
params = { stride = 1; reads = 8; step = 4; reps = 8; elem = 4; };
grid   = ( 1, 1, 1 );
block  = [ 1024, 1, 1 ];
arrays = (
	{ name = "A"; elems = "64 * stride + reads * step + 1"; elem_bytes = "elem"; }
);
body = (
	{ op = "loop"; var = "r"; count = "reps"; body = (
		{ op = "loop"; var = "k"; count = "reads"; body = (
			{ op = "load"; array = "A"; index = "(tx % 64) * stride + k * step"; }
		); }
	); }
);
